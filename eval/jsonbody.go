package eval

import (
	"bytes"
	"encoding/json"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// JSONText writes the value of expr as JSON text, for a request body. A
// reference to an argument (args.x, args.x.y, args.x[0]) is written from
// the arguments as the client sent them (args, decoded JSON), so an
// optional attribute the client left out stays out instead of becoming
// null, and strings and numbers are the client's own; objects and tuples
// written in the expression are built item by item around such
// references. Everything else is computed by value, HCL's way, and
// written as cty writes JSON. null is nil text: there is no body.
func JSONText(expr hcl.Expression, args map[string]any, value func(hcl.Expression) (cty.Value, error)) ([]byte, error) {
	j := &jsonWriter{args: args, value: value}
	if err := j.write(expr); err != nil {
		return nil, err
	}
	if j.buf.String() == "null" {
		return nil, nil
	}
	return j.buf.Bytes(), nil
}

type jsonWriter struct {
	buf   bytes.Buffer
	args  map[string]any
	value func(hcl.Expression) (cty.Value, error)
}

func (j *jsonWriter) write(expr hcl.Expression) error {
	switch e := expr.(type) {
	case *hclsyntax.TemplateWrapExpr:
		return j.write(e.Wrapped)
	case *hclsyntax.ParenthesesExpr:
		return j.write(e.Expression)
	case *hclsyntax.ScopeTraversalExpr:
		if v, ok := j.argument(e.Traversal); ok {
			return j.writeGo(v)
		}
	case *hclsyntax.TupleConsExpr:
		j.buf.WriteByte('[')
		for i, item := range e.Exprs {
			if i > 0 {
				j.buf.WriteByte(',')
			}
			if err := j.write(item); err != nil {
				return err
			}
		}
		j.buf.WriteByte(']')
		return nil
	case *hclsyntax.ObjectConsExpr:
		if items, ok := objectItems(e); ok {
			return j.writeObject(items)
		}
	}
	return j.writeValue(expr)
}

type objectItem struct {
	key  string
	expr hcl.Expression
}

// objectItems lists { key = value } items by key, a later duplicate
// winning as in HCL; ok is false when a key is computed.
func objectItems(e *hclsyntax.ObjectConsExpr) ([]objectItem, bool) {
	byKey := make(map[string]hcl.Expression, len(e.Items))
	for _, item := range e.Items {
		key, ok := literalKey(item.KeyExpr)
		if !ok {
			return nil, false
		}
		byKey[key] = item.ValueExpr
	}
	items := make([]objectItem, 0, len(byKey))
	for k, v := range byKey {
		items = append(items, objectItem{k, v})
	}
	sort.Slice(items, func(a, b int) bool { return items[a].key < items[b].key })
	return items, true
}

func (j *jsonWriter) writeObject(items []objectItem) error {
	j.buf.WriteByte('{')
	for i, item := range items {
		if i > 0 {
			j.buf.WriteByte(',')
		}
		writeString(&j.buf, item.key)
		j.buf.WriteByte(':')
		if err := j.write(item.expr); err != nil {
			return err
		}
	}
	j.buf.WriteByte('}')
	return nil
}

// argument follows a reference to an argument through the client's JSON;
// ok is false when it is not one, or when it leaves what the client sent
// (a missing map key, an index past the end), where HCL decides.
func (j *jsonWriter) argument(t hcl.Traversal) (any, bool) {
	if t.RootName() != "args" || len(t) < 2 || j.args == nil {
		return nil, false
	}
	attr, ok := t[1].(hcl.TraverseAttr)
	if !ok {
		return nil, false
	}
	v, present := j.args[attr.Name]
	if !present {
		return nil, false // absent: null, or an error, as HCL says
	}
	for _, step := range t[2:] {
		switch s := step.(type) {
		case hcl.TraverseAttr:
			v, ok = objectKey(v, s.Name)
		case hcl.TraverseIndex:
			v, ok = index(v, s.Key)
		default:
			ok = false
		}
		if !ok {
			return nil, false
		}
	}
	return v, true
}

func objectKey(v any, key string) (any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	e, ok := m[key]
	return e, ok
}

func index(v any, key cty.Value) (any, bool) {
	if !key.IsKnown() || key.IsNull() {
		return nil, false
	}
	switch key.Type() {
	case cty.String:
		return objectKey(v, key.AsString())
	case cty.Number:
		list, ok := v.([]any)
		if !ok {
			return nil, false
		}
		i, acc := key.AsBigFloat().Int64()
		if acc != big.Exact || i < 0 || i >= int64(len(list)) {
			return nil, false
		}
		return list[i], true
	}
	return nil, false
}

func (j *jsonWriter) writeValue(expr hcl.Expression) error {
	v, err := j.value(expr)
	if err != nil {
		return err
	}
	if v.Type() == cty.Number && v.IsKnown() && !v.IsNull() && !v.IsMarked() {
		if f := v.AsBigFloat(); !f.IsInf() {
			j.buf.WriteString(FloatText(f)) // what ctyjson writes, faster
			return nil
		}
	}
	b, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return err
	}
	j.buf.Write(b)
	return nil
}

// writeGo writes a decoded JSON value: object keys sorted, numbers as cty
// writes them (1e3 as 1000).
func (j *jsonWriter) writeGo(v any) error {
	switch x := v.(type) {
	case nil:
		j.buf.WriteString("null")
	case bool:
		j.buf.WriteString(strconv.FormatBool(x))
	case string:
		writeString(&j.buf, x)
	case json.Number:
		j.buf.WriteString(plainNumber(string(x)))
	case int64:
		j.buf.WriteString(strconv.FormatInt(x, 10))
	case float64:
		j.buf.WriteString(strconv.FormatFloat(x, 'f', -1, 64))
	case []any:
		j.buf.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				j.buf.WriteByte(',')
			}
			if err := j.writeGo(e); err != nil {
				return err
			}
		}
		j.buf.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		j.buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				j.buf.WriteByte(',')
			}
			writeString(&j.buf, k)
			j.buf.WriteByte(':')
			if err := j.writeGo(x[k]); err != nil {
				return err
			}
		}
		j.buf.WriteByte('}')
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return err
		}
		j.buf.Write(b)
	}
	return nil
}

func writeString(buf *bytes.Buffer, s string) {
	b, _ := json.Marshal(s) // as ctyjson writes strings
	buf.Write(b)
}

// plainNumber writes a JSON number literal as cty writes numbers: whole
// literals as they are, others (1e3, 2.50) in plain decimal form.
func plainNumber(n string) string {
	if !strings.ContainsAny(n, ".eE") {
		return n
	}
	f, _, err := big.ParseFloat(n, 10, 512, big.ToNearestEven)
	if err != nil {
		return n
	}
	return FloatText(f)
}
