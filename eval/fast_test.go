package eval

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"golang.org/x/text/unicode/norm"
)

// TestValueMatchesHCL evaluates every expression below over many
// argument values, through Value and through HCL, and requires the same
// value, or the same failure; it also checks that the common shapes do
// take the fast path.
func TestValueMatchesHCL(t *testing.T) {
	exprs := []struct {
		src      string
		fastWhen bool // the fast path must answer for the "typical" args
	}{
		{`args.limit >= 1 && args.limit <= 50`, true},
		{`args.limit > 1 || args.limit < -3`, true},
		{`!(args.flag)`, false}, // parentheses are left to HCL
		{`!args.flag`, true},
		{`args.name == "Ada"`, true},
		{`args.name != "Ada"`, true},
		{`args.limit == 10`, true},
		{`args.limit == "10"`, false},
		{`args.name == null`, false},
		{`args.limit + 1 > 2`, false},
		{`args.flag && args.limit > 0`, true},
		{`{ q = args.name, _limit = args.limit, "Content-Type" = "x", n = 2.5 }`, true},
		{`{ q = args.name, q = args.limit }`, true},
		{`{ (args.name) = 1 }`, false},
		{`{ a.b = 1 }`, false},
		{`"${args.name}"`, true},
		{`"Hello ${args.name}, ${args.limit} ${args.flag}"`, true},
		{`"/books/${args.tags}"`, false},
		{`"plain"`, true},
		{`args.tags`, true},
		{`args.missing`, false},
		{`nope.x`, false},
		{`var.region`, true},
		{`length(args.name) > 2`, false},
		{`args.limit >= var.region`, false},
		{`args.big > 1`, true},
		{`-args.limit < 0`, true},
		{`args.tags[0] == "a"`, false},
		{`args.nested.inner == 1`, true},
		{`args.nested.missing`, false},
		{`args.name.x`, false},
	}
	typical := cty.ObjectVal(map[string]cty.Value{
		"limit": cty.NumberIntVal(10), "name": cty.StringVal("Ada"), "flag": cty.True,
		"tags": cty.ListVal([]cty.Value{cty.StringVal("a")}), "big": cty.MustParseNumberVal("123456789012345678901234567890.5"),
		"nested": cty.ObjectVal(map[string]cty.Value{"inner": cty.NumberIntVal(1)}),
	})
	variants := []cty.Value{
		typical,
		cty.ObjectVal(map[string]cty.Value{
			"limit": cty.NumberFloatVal(0.5), "name": cty.StringVal("Ada\u0301"), "flag": cty.False,
			"tags": cty.ListValEmpty(cty.String), "big": cty.NumberIntVal(-1),
			"nested": cty.NullVal(cty.Object(map[string]cty.Type{"inner": cty.Number})),
		}),
		cty.ObjectVal(map[string]cty.Value{
			"limit": cty.NullVal(cty.Number), "name": cty.NullVal(cty.String), "flag": cty.NullVal(cty.Bool),
			"tags": cty.NullVal(cty.List(cty.String)), "big": cty.UnknownVal(cty.Number),
			"nested": cty.UnknownVal(cty.Object(map[string]cty.Type{"inner": cty.Number})),
		}),
		cty.ObjectVal(map[string]cty.Value{
			"limit": cty.NumberIntVal(50).Mark("sensitive"), "name": cty.UnknownVal(cty.String), "flag": cty.True.Mark("x"),
			"tags": cty.UnknownVal(cty.List(cty.String)), "big": cty.NumberIntVal(51),
			"nested": cty.ObjectVal(map[string]cty.Value{"inner": cty.NumberIntVal(1)}).Mark("m"),
		}),
		cty.ObjectVal(map[string]cty.Value{
			"limit": cty.StringVal("10"), "name": cty.NumberIntVal(3), "flag": cty.StringVal("true"),
			"tags": cty.StringVal("x"), "big": cty.True,
			"nested": cty.MapVal(map[string]cty.Value{"inner": cty.NumberIntVal(1)}),
		}),
	}
	for _, tc := range exprs {
		expr, diags := hclsyntax.ParseExpression([]byte(tc.src), "t.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", tc.src, diags)
		}
		for i, args := range variants {
			ctx := &hcl.EvalContext{Variables: map[string]cty.Value{
				"args": args, "var": cty.ObjectVal(map[string]cty.Value{"region": cty.StringVal("eu")}),
			}}
			want, wantDiags := expr.Value(ctx)
			got, gotDiags := Value(expr, ctx)
			if wantDiags.HasErrors() != gotDiags.HasErrors() || !got.RawEquals(want) {
				t.Errorf("%s with args #%d: got %#v (%v), HCL gives %#v (%v)", tc.src, i, got, gotDiags, want, wantDiags)
			}
			if _, ok := fast(expr, ctx); i == 0 && ok != tc.fastWhen {
				t.Errorf("%s: fast path taken = %v, want %v", tc.src, ok, tc.fastWhen)
			}
		}
	}
}

func BenchmarkValidationCondition(b *testing.B) {
	expr, _ := hclsyntax.ParseExpression([]byte(`args.limit >= 1 && args.limit <= 50`), "t.hcl", hcl.InitialPos)
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"args": cty.ObjectVal(map[string]cty.Value{"limit": cty.NumberIntVal(10)})}}
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Value(expr, ctx)
		}
	})
	b.Run("hcl", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			expr.Value(ctx)
		}
	})
}

// FuzzValueMatchesHCL compares Value with HCL on arbitrary expressions
// over a context holding every kind of value the fast path meets.
func FuzzValueMatchesHCL(f *testing.F) {
	for _, s := range []string{`args.limit >= 1 && args.limit <= 50`, `{ q = args.name, n = -args.limit }`, `"${args.name}-${args.flag}"`,
		`!args.flag || args.big == 1`, `args.nested.inner != args.limit`, `var.region == "eu"`, `args.tags`} {
		f.Add(s)
	}
	args := cty.ObjectVal(map[string]cty.Value{
		"limit": cty.NumberIntVal(10), "name": cty.StringVal("Ada"), "flag": cty.True, "none": cty.NullVal(cty.String),
		"tags": cty.ListVal([]cty.Value{cty.StringVal("a")}), "big": cty.MustParseNumberVal("1e40"),
		"nested": cty.ObjectVal(map[string]cty.Value{"inner": cty.NumberIntVal(1)}), "later": cty.UnknownVal(cty.Number),
		"secret": cty.StringVal("s").Mark("sensitive"),
	})
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"args": args, "var": cty.ObjectVal(map[string]cty.Value{"region": cty.StringVal("eu")})}}
	f.Fuzz(func(t *testing.T, src string) {
		expr, diags := hclsyntax.ParseExpression([]byte(src), "f.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			return
		}
		want, wantDiags := expr.Value(ctx)
		got, gotDiags := Value(expr, ctx)
		if wantDiags.HasErrors() != gotDiags.HasErrors() || !sameUpToNFC(got, want) {
			t.Fatalf("%s: got %#v (%v), HCL gives %#v (%v)", src, got, gotDiags, want, wantDiags)
		}
	})
}

// sameUpToNFC compares a fast result with HCL's: equal, or differing only
// in that HCL normalised the strings the fast path keeps as they are.
func sameUpToNFC(got, want cty.Value) bool {
	if got.RawEquals(want) {
		return true
	}
	if !got.Type().Equals(want.Type()) || !got.IsWhollyKnown() || got.ContainsMarked() {
		return false
	}
	g, err1 := ctyjson.Marshal(got, got.Type())
	w, err2 := ctyjson.Marshal(want, want.Type())
	return err1 == nil && err2 == nil && norm.NFC.String(string(g)) == string(w)
}

// TestTemplateKeepsBytes: a template over an argument joins the bytes it
// was given; HCL (and cty.StringVal) would normalise the result to NFC.
func TestTemplateKeepsBytes(t *testing.T) {
	expr, diags := hclsyntax.ParseExpression([]byte(`"a/${args.x}/e${args.accent}"`), "t.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"args": cty.ObjectVal(map[string]cty.Value{
		"x": RawString("Ωé"), "accent": RawString("́")})}}
	got, diags := Value(expr, ctx)
	if diags.HasErrors() || got.AsString() != "a/Ωé/é" {
		t.Errorf("got %+q, %v; want the bytes joined as they are", got.AsString(), diags)
	}
}
