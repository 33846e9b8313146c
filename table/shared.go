package table

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// shared keeps one copy of each JSON Schema, annotation set, cty type and
// name or text that several items of a configuration hold alike. An
// imported API repeats the same arguments over thousands of tools (an
// owner, an id, a page size); each tool holding its own copy made the
// schemas half of a served table's memory. The copies are made anew, out
// of the parser's memory: a string or value the table keeps from the
// parsed file pins a page of its garbage. The values are immutable once
// compiled, so sharing them changes nothing a call or a listing sees.
type shared struct {
	docs    map[string]sharedValue
	types   map[string]cty.Type
	strings map[string]string
}

// str returns the shared copy of s.
func (s *shared) str(x string) string {
	if prev, ok := s.strings[x]; ok {
		return prev
	}
	if s.strings == nil {
		s.strings = map[string]string{}
	}
	x = strings.Clone(x)
	s.strings[x] = x
	return x
}

func (s *shared) strs(list []string) []string {
	for i, x := range list {
		list[i] = s.str(x)
	}
	return list
}

// doc returns the shared copy of a JSON-ready document equal to m (its
// maps, lists and strings shared as well). Two documents are equal when
// they hold the same keys and values of the same Go types, so a shared one
// encodes and validates as m would.
func (s *shared) doc(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	d, _ := s.value(m, nil)
	return d.(map[string]any)
}

// sharedValue is a document or list already held, with the short text
// that stands for it in the keys of the documents holding it.
type sharedValue struct {
	value any
	id    string
}

// value returns the shared copy of v, and key with a text appended that
// tells v apart from any value that differs in a key, a value or a value's
// Go type. A map or list is looked up by the keys of its entries, whose
// own maps and lists are already shared, so each is read once. The text is
// appended rather than returned so that a string or number, most of a
// schema's values, costs no text of its own.
func (s *shared) value(v any, key []byte) (any, []byte) {
	switch v := v.(type) {
	case nil:
		return nil, append(key, 'n')
	case map[string]any:
		n, id := s.sharedMap(v)
		return n, append(key, id...)
	case []any:
		n, id := s.sharedList(v)
		return n, append(key, id...)
	case string:
		key = strconv.AppendInt(append(key, 's'), int64(len(v)), 10)
		return s.str(v), append(append(key, ':'), v...)
	case json.Number:
		return json.Number(s.str(string(v))), append(append(append(key, 'j'), v...), ';')
	case bool:
		return v, strconv.AppendBool(key, v)
	}
	return v, fmt.Appendf(key, "%T:%#v;", v, v)
}

func (s *shared) sharedMap(m map[string]any) (any, string) {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	vals := make([]any, len(names))
	key := append(make([]byte, 0, 128), '{')
	for i, k := range names {
		key = strconv.AppendInt(key, int64(len(k)), 10)
		key = append(key, ':')
		key = append(key, k...)
		vals[i], key = s.value(m[k], key)
	}
	if prev, ok := s.docs[string(key)]; ok {
		return prev.value, prev.id
	}
	n := make(map[string]any, len(m))
	for i, k := range names {
		n[s.str(k)] = vals[i]
	}
	return n, s.keep(key, n)
}

func (s *shared) sharedList(l []any) (any, string) {
	if len(l) == 0 {
		return l, "[]"
	}
	n := make([]any, len(l))
	key := append(make([]byte, 0, 64), '[')
	for i, v := range l {
		n[i], key = s.value(v, key)
		key = append(key, ',')
	}
	if prev, ok := s.docs[string(key)]; ok {
		return prev.value, prev.id
	}
	return n, s.keep(key, n)
}

// keep records v as the shared value of key and returns its id.
func (s *shared) keep(key []byte, v any) string {
	if s.docs == nil {
		s.docs = map[string]sharedValue{}
	}
	id := "#" + strconv.Itoa(len(s.docs)) + ";"
	s.docs[string(key)] = sharedValue{value: v, id: id}
	return id
}

// ctyType returns the shared copy of a type equal to t, built with shared
// names. Only types holding objects are worth it: the others are values
// without allocations of their own.
func (s *shared) ctyType(t cty.Type) cty.Type {
	if !hasObject(t) {
		return t
	}
	k := t.GoString()
	if prev, ok := s.types[k]; ok {
		return prev
	}
	if s.types == nil {
		s.types = map[string]cty.Type{}
	}
	n := s.rebuild(t)
	s.types[k] = n
	return n
}

func hasObject(t cty.Type) bool {
	switch {
	case t.IsObjectType():
		return true
	case t.IsListType(), t.IsSetType(), t.IsMapType():
		return hasObject(t.ElementType())
	}
	return false
}

// rebuild makes t anew with shared attribute names.
func (s *shared) rebuild(t cty.Type) cty.Type {
	switch {
	case t.IsObjectType():
		attrs := map[string]cty.Type{}
		var optional []string
		for name, at := range t.AttributeTypes() {
			name = s.str(name)
			attrs[name] = s.ctyType(at)
			if t.AttributeOptional(name) {
				optional = append(optional, name)
			}
		}
		if optional != nil {
			return cty.ObjectWithOptionalAttrs(attrs, optional)
		}
		return cty.Object(attrs)
	case t.IsListType():
		return cty.List(s.ctyType(t.ElementType()))
	case t.IsSetType():
		return cty.Set(s.ctyType(t.ElementType()))
	case t.IsMapType():
		return cty.Map(s.ctyType(t.ElementType()))
	}
	return t
}
