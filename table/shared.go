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

// shared keeps one copy of each JSON Schema, annotation set and cty type
// that several items of a configuration hold alike. An imported API
// repeats the same arguments over thousands of tools (an owner, an id, a
// page size); each tool holding its own copy made the schemas half of a
// served table's memory. The values are immutable once compiled, so
// sharing them changes nothing a call or a listing sees.
type shared struct {
	docs  map[string]map[string]any
	lists map[string][]any
	types map[string]cty.Type
	key   strings.Builder
}

// doc returns the shared copy of a JSON-ready document equal to m (its
// maps and lists shared as well), keeping m when it is the first. Two
// documents are equal when they hold the same keys and values of the
// same Go types, so a shared one encodes and validates as m would.
func (s *shared) doc(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	for k, v := range m {
		m[k] = s.value(v)
	}
	s.key.Reset()
	writeKey(&s.key, m)
	if prev, ok := s.docs[s.key.String()]; ok {
		return prev
	}
	if s.docs == nil {
		s.docs = map[string]map[string]any{}
	}
	s.docs[s.key.String()] = m
	return m
}

func (s *shared) list(l []any) []any {
	for i, v := range l {
		l[i] = s.value(v)
	}
	s.key.Reset()
	writeKey(&s.key, l)
	if prev, ok := s.lists[s.key.String()]; ok {
		return prev
	}
	if s.lists == nil {
		s.lists = map[string][]any{}
	}
	s.lists[s.key.String()] = l
	return l
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
	}
	return v
}

// ctyType returns the shared copy of a type equal to t. Only object types
// are worth it: the others are values without allocations of their own
// or small.
func (s *shared) ctyType(t cty.Type) cty.Type {
	if !t.IsObjectType() {
		return t
	}
	k := t.GoString()
	if prev, ok := s.types[k]; ok {
		return prev
	}
	if s.types == nil {
		s.types = map[string]cty.Type{}
	}
	s.types[k] = t
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
