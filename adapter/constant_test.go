package adapter

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/eval"
)

// TestConstantValueAgreesWithEvaluation checks the constant fast path of
// StaticValue against the general evaluation, value and diagnostics, for
// the constant forms it takes, and that it leaves every other form alone.
func TestConstantValueAgreesWithEvaluation(t *testing.T) {
	scope := &Scope{
		Names:  &eval.Names{Vars: []string{"base"}},
		Static: &eval.Static{Vars: map[string]cty.Value{"base": cty.StringVal("x")}},
	}
	wants := []cty.Type{cty.DynamicPseudoType, cty.String, cty.Number, cty.Bool, cty.List(cty.String), cty.List(cty.Number)}
	constants := []string{
		`true`, `false`, `30`, `1.5`, `null`, `"open"`, `""`, `"a $${b} %%{c}"`, `"tab\there \u00e9"`,
		"<<EOT\nline one\n  two\nEOT\n", "<<-EOT\n    indented\n    text\n  EOT\n",
		`["open", "closed", "all"]`, `[]`, `[1, 2, 3]`, `[true, "x", 1]`, `[["a"], ["b"]]`, `"10s"`, `"1"`,
	}
	for _, src := range constants {
		attr := parseAttr(t, src)
		if _, ok := constantValue(attr.Expr); !ok {
			t.Errorf("%s: not taken as a constant", src)
		}
		for _, want := range wants {
			fastV, fastD := scope.StaticValue(attr, want)
			slowV, slowD := scope.evalStatic(attr, want)
			if !fastV.RawEquals(slowV) {
				t.Errorf("%s as %s: fast %#v, evaluated %#v", src, want.FriendlyName(), fastV, slowV)
			}
			if fastD.Error() != slowD.Error() {
				t.Errorf("%s as %s: fast %q, evaluated %q", src, want.FriendlyName(), fastD.Error(), slowD.Error())
			}
		}
	}
	for _, src := range []string{`var.base`, `"${var.base}/x"`, `upper("x")`, `[var.base]`, `{ a = 1 }`, `1 + 2`, `-1.5`, `args.x`, `"%{ if true }x%{ endif }"`, `nosuch`} {
		if _, ok := constantValue(parseAttr(t, src).Expr); ok {
			t.Errorf("%s: taken as a constant", src)
		}
	}
}

func parseAttr(t *testing.T, expr string) *hcl.Attribute {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte("a = "+expr+"\n"), "t.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("%s: %s", expr, diags.Error())
	}
	attrs, _ := f.Body.JustAttributes()
	return attrs["a"]
}
