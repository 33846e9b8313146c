package table

import (
	"encoding/json"
	"fmt"
	"math/big"
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
	docs    map[string]map[string]any
	lists   map[string][]any
	types   map[string]cty.Type
	strings map[string]string
	key     strings.Builder
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
	n := make(map[string]any, len(m))
	for k, v := range m {
		n[s.str(k)] = s.value(v)
	}
	s.key.Reset()
	writeKey(&s.key, n)
	if prev, ok := s.docs[s.key.String()]; ok {
		return prev
	}
	if s.docs == nil {
		s.docs = map[string]map[string]any{}
	}
	s.docs[s.key.String()] = n
	return n
}

func (s *shared) list(l []any) []any {
	n := make([]any, len(l))
	for i, v := range l {
		n[i] = s.value(v)
	}
	s.key.Reset()
	writeKey(&s.key, n)
	if prev, ok := s.lists[s.key.String()]; ok {
		return prev
	}
	if s.lists == nil {
		s.lists = map[string][]any{}
	}
	s.lists[s.key.String()] = n
	return n
}

func (s *shared) value(v any) any {
	switch v := v.(type) {
	case map[string]any:
		return s.doc(v)
	case []any:
		if len(v) == 0 {
			return v
		}
		return s.list(v)
	case string:
		return s.str(v)
	case json.Number:
		return json.Number(s.str(string(v)))
	}
	return v
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

// writeKey writes a text that tells apart any two JSON-ready values
// that differ in a key, a value or a value's Go type.
func writeKey(b *strings.Builder, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("n")
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString("{")
		for _, k := range keys {
			b.WriteString(strconv.Quote(k))
			writeKey(b, v[k])
		}
		b.WriteString("}")
	case []any:
		b.WriteString("[")
		for _, e := range v {
			writeKey(b, e)
			b.WriteString(",")
		}
		b.WriteString("]")
	case string:
		b.WriteString("s")
		b.WriteString(strconv.Quote(v))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case json.Number:
		b.WriteString("j" + string(v) + ";")
	case *big.Float:
		b.WriteString("f" + v.Text('g', -1) + ";")
	default:
		fmt.Fprintf(b, "%T:%#v;", v, v)
	}
}
