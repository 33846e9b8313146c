package eval

import (
	"encoding/json"
	"fmt"

	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

func convertTo(v cty.Value, retType, want cty.Type) (cty.Value, error) {
	target := retType
	if target == cty.DynamicPseudoType {
		target = want
	}
	out, err := convert.Convert(v, target)
	if err != nil {
		return cty.UnknownVal(target), fmt.Errorf("cannot convert %s to %s", v.Type().FriendlyName(), want.FriendlyName())
	}
	return out, nil
}

// ToJSON converts a wholly known cty value to a Go value made of the types
// encoding/json produces (map[string]any, []any, string, json.Number, bool,
// nil), for JSON Schema documents and listings.
func ToJSON(v cty.Value) (any, error) {
	if !v.IsWhollyKnown() {
		return nil, fmt.Errorf("value is not known until a call is made")
	}
	return toJSON(v), nil
}

func toJSON(v cty.Value) any {
	if v.IsNull() {
		return nil
	}
	t := v.Type()
	switch {
	case t == cty.String:
		return v.AsString()
	case t == cty.Number:
		return json.Number(NumberText(v))
	case t == cty.Bool:
		return v.True()
	case t.IsObjectType() || t.IsMapType():
		out := make(map[string]any, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			out[k.AsString()] = toJSON(e)
		}
		return out
	case t.IsListType() || t.IsSetType() || t.IsTupleType():
		out := make([]any, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			out = append(out, toJSON(e))
		}
		return out
	}
	return nil
}

// FromJSON decodes JSON into a cty value of type ty.
func FromJSON(data []byte, ty cty.Type) (cty.Value, error) {
	return ctyjson.Unmarshal(data, ty)
}

// FromGoJSON converts a decoded JSON value (map[string]any, []any,
// string, json.Number, int64, float64, bool, nil: what the argument
// decoder and defaults give) to a cty value of type ty, without a round
// trip through JSON text. Where ty is cty.DynamicPseudoType (any, or a
// bare list, map or object) at any depth, the value takes the type its
// JSON implies: objects become objects, arrays lists when their elements
// share a type and tuples otherwise. Absent attributes of an object type
// are null.
func FromGoJSON(v any, ty cty.Type) (cty.Value, error) {
	if v == nil {
		return cty.NullVal(ty), nil
	}
	switch {
	case ty == cty.DynamicPseudoType:
		return impliedValue(v)
	case ty.IsPrimitiveType():
		return primitiveValue(v, ty)
	case ty.IsListType(), ty.IsSetType():
		return collectionValue(v, ty)
	case ty.IsMapType():
		return mapValue(v, ty)
	case ty.IsObjectType():
		return objectValue(v, ty)
	}
	return cty.NilVal, fmt.Errorf("unsupported type %s", ty.FriendlyName())
}

func primitiveValue(v any, ty cty.Type) (cty.Value, error) {
	var text string
	switch x := v.(type) {
	case string:
		text = x
		if ty == cty.String {
			return RawString(x), nil // the client's bytes, not normalised
		}
	case json.Number:
		text = string(x)
		if ty == cty.Number {
			if i, ok := rule.Int(text); ok {
				// The same number, without parsing its digits into a
				// 512-bit float (a few µs each, and slow to write out).
				return cty.NumberIntVal(int64(i)), nil
			}
			if n, err := cty.ParseNumberVal(text); err == nil {
				return n, nil
			}
		}
	case int64:
		if ty == cty.Number {
			return cty.NumberIntVal(x), nil
		}
		text = fmt.Sprint(x)
	case float64:
		if ty == cty.Number {
			return cty.NumberFloatVal(x), nil
		}
		text = fmt.Sprint(x)
	case bool:
		if ty == cty.Bool {
			return cty.BoolVal(x), nil
		}
		text = fmt.Sprint(x)
	default:
		return cty.NilVal, fmt.Errorf("%s required", ty.FriendlyName())
	}
	// As HCL converts: a number or bool may be written as a string and a
	// number or bool given where a string is wanted.
	out, err := convert.Convert(cty.StringVal(text), ty)
	if err != nil {
		return cty.NilVal, fmt.Errorf("%s required", ty.FriendlyName())
	}
	return out, nil
}

func collectionValue(v any, ty cty.Type) (cty.Value, error) {
	list, ok := v.([]any)
	if !ok {
		return cty.NilVal, fmt.Errorf("%s required", ty.FriendlyName())
	}
	elems := make([]cty.Value, len(list))
	for i, e := range list {
		ev, err := FromGoJSON(e, ty.ElementType())
		if err != nil {
			return cty.NilVal, fmt.Errorf("[%d]: %w", i, err)
		}
		elems[i] = ev
	}
	elems, mixed := unified(elems, ty.ElementType())
	switch {
	case mixed:
		return cty.TupleVal(elems), nil
	case len(elems) == 0 && ty.IsSetType():
		return cty.SetValEmpty(ty.ElementType()), nil
	case len(elems) == 0:
		return cty.ListValEmpty(ty.ElementType()), nil
	case ty.IsSetType():
		return cty.SetVal(elems), nil
	}
	return cty.ListVal(elems), nil
}

func mapValue(v any, ty cty.Type) (cty.Value, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return cty.NilVal, fmt.Errorf("%s required", ty.FriendlyName())
	}
	if len(obj) == 0 {
		return cty.MapValEmpty(ty.ElementType()), nil
	}
	keys := make([]string, 0, len(obj))
	elems := make([]cty.Value, 0, len(obj))
	for k, e := range obj {
		ev, err := FromGoJSON(e, ty.ElementType())
		if err != nil {
			return cty.NilVal, fmt.Errorf("%q: %w", k, err)
		}
		keys = append(keys, k)
		elems = append(elems, ev)
	}
	elems, asObject := unified(elems, ty.ElementType())
	vals := make(map[string]cty.Value, len(keys))
	for i, k := range keys {
		vals[k] = elems[i]
	}
	if asObject {
		return cty.ObjectVal(vals), nil
	}
	return cty.MapVal(vals), nil
}

func objectValue(v any, ty cty.Type) (cty.Value, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return cty.NilVal, fmt.Errorf("%s required", ty.FriendlyName())
	}
	for k := range obj {
		if !ty.HasAttribute(k) {
			return cty.NilVal, fmt.Errorf("unsupported attribute %q", k)
		}
	}
	attrs := make(map[string]cty.Value, len(ty.AttributeTypes()))
	for name, at := range ty.AttributeTypes() {
		av, err := FromGoJSON(obj[name], at)
		if err != nil {
			return cty.NilVal, fmt.Errorf("%s: %w", name, err)
		}
		attrs[name] = av
	}
	return cty.ObjectVal(attrs), nil
}

// impliedValue converts a JSON value to the cty type it implies.
func impliedValue(v any) (cty.Value, error) {
	switch x := v.(type) {
	case string:
		return RawString(x), nil
	case json.Number, int64, float64:
		return primitiveValue(x, cty.Number)
	case int:
		return cty.NumberIntVal(int64(x)), nil
	case bool:
		return cty.BoolVal(x), nil
	case []any:
		return collectionValue(x, cty.List(cty.DynamicPseudoType))
	case map[string]any:
		attrs := make(map[string]cty.Value, len(x))
		for k, e := range x {
			ev, err := impliedValue(e)
			if err != nil {
				return cty.NilVal, fmt.Errorf("%q: %w", k, err)
			}
			attrs[k] = ev
		}
		return cty.ObjectVal(attrs), nil
	case nil:
		return cty.NullVal(cty.DynamicPseudoType), nil
	}
	return cty.NilVal, fmt.Errorf("unsupported value %T", v)
}

// unified reports whether the elements of a collection of element type
// elem can form a list, set or map. Elements of a known element type can;
// elements of any type (a bare list or map) can when their types are the
// same, and otherwise make a tuple or an object (as HCL does for values of
// mixed types), never converted to a common type: [1, "a"] keeps its
// number.
func unified(elems []cty.Value, elem cty.Type) (out []cty.Value, mixed bool) {
	if elem != cty.DynamicPseudoType || len(elems) == 0 {
		return elems, false
	}
	first := elems[0].Type()
	for _, e := range elems[1:] {
		if !e.Type().Equals(first) {
			return elems, true
		}
	}
	return elems, false
}
