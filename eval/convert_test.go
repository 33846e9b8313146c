package eval

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

func decodeJSON(t *testing.T, s string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestFromGoJSON: every type an argument can declare, any at any depth
// included, converts from decoded JSON; absent object attributes are null.
func TestFromGoJSON(t *testing.T) {
	obj := cty.Object(map[string]cty.Type{"sku": cty.String, "note": cty.String})
	for _, tc := range []struct {
		ty   cty.Type
		json string
		want cty.Value
	}{
		{cty.String, `"x"`, cty.StringVal("x")},
		{cty.Number, `1e3`, cty.NumberIntVal(1000)},
		{cty.Bool, `true`, cty.True},
		{cty.List(obj), `[{"sku":"A"}]`, cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"sku": cty.StringVal("A"), "note": cty.NullVal(cty.String)})})},
		{cty.List(cty.DynamicPseudoType), `[{"qty":1},{"qty":2}]`, cty.ListVal([]cty.Value{
			cty.ObjectVal(map[string]cty.Value{"qty": cty.NumberIntVal(1)}), cty.ObjectVal(map[string]cty.Value{"qty": cty.NumberIntVal(2)})})},
		{cty.List(cty.DynamicPseudoType), `[1,"a"]`, cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.StringVal("a")})},
		{cty.Map(cty.DynamicPseudoType), `{"a":{"b":[1]},"c":"d"}`, cty.ObjectVal(map[string]cty.Value{
			"a": cty.ObjectVal(map[string]cty.Value{"b": cty.ListVal([]cty.Value{cty.NumberIntVal(1)})}), "c": cty.StringVal("d")})},
		{cty.Set(cty.String), `[]`, cty.SetValEmpty(cty.String)},
		{cty.DynamicPseudoType, `null`, cty.NullVal(cty.DynamicPseudoType)},
	} {
		got, err := FromGoJSON(decodeJSON(t, tc.json), tc.ty)
		if err != nil || !got.RawEquals(tc.want) {
			t.Errorf("FromGoJSON(%s, %s) = %#v, %v; want %#v", tc.json, tc.ty.FriendlyName(), got, err, tc.want)
		}
	}
	if _, err := FromGoJSON(decodeJSON(t, `{"sku":"A","extra":1}`), obj); err == nil {
		t.Error("an attribute the type does not have was accepted")
	}
}

// TestJSONText: references to arguments are written as the client sent
// them, inside objects and tuples written in the expression; other
// expressions are computed by value.
func TestJSONText(t *testing.T) {
	args := decodeJSON(t, `{"lines":[{"sku":"A"},{"sku":"B","note":"gift"}],"n":1e3,"s":"e\u0301"}`).(map[string]any)
	for src, want := range map[string]string{
		`{ lines = args.lines, n = args.n }`:   `{"lines":[{"sku":"A"},{"note":"gift","sku":"B"}],"n":1000}`,
		`args.lines[1]`:                        `{"note":"gift","sku":"B"}`,
		`[args.s, "${args.s}", upper("x")]`:    `["e\u0301","e\u0301","X"]`,
		`{ missing = args.absent, k = 2 }`:     `{"k":2,"missing":null}`,
		`args.absent`:                          ``,
		`{ "b" = 1, a = (args.lines[0].sku) }`: `{"a":"A","b":1}`,
		`{ (args.s) = 1 }`:                     `{"é":1}`,
	} {
		expr, diags := hclsyntax.ParseExpression([]byte(src), "t.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		got, err := JSONText(expr, args, func(e hcl.Expression) (cty.Value, error) {
			ctx := &hcl.EvalContext{
				Variables: map[string]cty.Value{"args": cty.ObjectVal(map[string]cty.Value{
					"s": cty.StringVal("e\u0301"), "absent": cty.NullVal(cty.String)})},
				Functions: map[string]function.Function{"upper": stdlib.UpperFunc},
			}
			v, d := e.Value(ctx)
			if d.HasErrors() {
				return cty.NilVal, d
			}
			return v, nil
		})
		var wantDecoded, gotDecoded any
		_ = json.Unmarshal([]byte(want), &wantDecoded)
		_ = json.Unmarshal(got, &gotDecoded)
		if err != nil || (want == "") != (got == nil) || mustJSON(gotDecoded) != mustJSON(wantDecoded) {
			t.Errorf("JSONText(%s) = %s, %v; want %s", src, got, err, want)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
