package eval

import (
	"bytes"
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
	b, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return nil, err
	}
	var out any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}

// FromJSON decodes JSON into a cty value of type ty.
func FromJSON(data []byte, ty cty.Type) (cty.Value, error) {
	return ctyjson.Unmarshal(data, ty)
}
