package adapter

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// constantValue is the value of an expression written as a constant: a
// literal (`true`, `30`), a quoted string without interpolations, or a
// list of those. Most attributes of a big configuration (descriptions,
// types, annotations, enums) are written so, and evaluating them through
// the reference checks and an evaluation context cost a fifth of a load.
// Such an expression refers to nothing and calls nothing, so those checks
// find nothing and the context is never read; ok is false for every
// other expression, which takes the general path.
func constantValue(expr hcl.Expression) (v cty.Value, ok bool) {
	if !isConstantSyntax(expr) {
		return cty.NilVal, false
	}
	if t, ok := expr.(*hclsyntax.TemplateExpr); ok && len(t.Parts) == 1 {
		// A quoted string is one literal part, already the string value
		// (evaluating the template would copy it through a buffer).
		if v := t.Parts[0].(*hclsyntax.LiteralValueExpr).Val; v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
			return v, true
		}
	}
	v, diags := expr.Value(nil)
	if diags.HasErrors() {
		return cty.NilVal, false
	}
	return v, true
}

func isConstantSyntax(expr hcl.Expression) bool {
	switch e := expr.(type) {
	case *hclsyntax.LiteralValueExpr:
		return true
	case *hclsyntax.TemplateExpr:
		for _, p := range e.Parts {
			if _, lit := p.(*hclsyntax.LiteralValueExpr); !lit {
				return false
			}
		}
		return true
	case *hclsyntax.TupleConsExpr:
		for _, x := range e.Exprs {
			if !isConstantSyntax(x) {
				return false
			}
		}
		return true
	}
	return false
}
