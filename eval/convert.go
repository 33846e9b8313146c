package eval

import (
	"encoding/json"
	"fmt"

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
		return json.Number(v.AsBigFloat().Text('f', -1))
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
