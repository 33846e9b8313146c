package eval

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// mayHoldCall reports whether expr may contain a function call. It looks
// through the node types a configuration is mostly made of (literals,
// references, templates, lists and objects of them) without allocating,
// where hclsyntax's walkers allocate for every node: a compile checks the
// calls of every expression twice (file paths, literal arguments), and
// most hold none. Any other node, and any expression of the JSON syntax,
// may hold one: the full walk then looks.
func mayHoldCall(expr hcl.Expression) bool {
	switch e := expr.(type) {
	case *hclsyntax.LiteralValueExpr, *hclsyntax.ScopeTraversalExpr:
		return false
	case *hclsyntax.TemplateExpr:
		return anyMayHoldCall(e.Parts)
	case *hclsyntax.TemplateWrapExpr:
		return mayHoldCall(e.Wrapped)
	case *hclsyntax.TupleConsExpr:
		return anyMayHoldCall(e.Exprs)
	case *hclsyntax.ObjectConsExpr:
		for _, item := range e.Items {
			if mayHoldCall(item.KeyExpr) || mayHoldCall(item.ValueExpr) {
				return true
			}
		}
		return false
	case *hclsyntax.ObjectConsKeyExpr:
		return mayHoldCall(e.Wrapped)
	case *hclsyntax.BinaryOpExpr:
		return mayHoldCall(e.LHS) || mayHoldCall(e.RHS)
	case *hclsyntax.UnaryOpExpr:
		return mayHoldCall(e.Val)
	case *hclsyntax.ConditionalExpr:
		return mayHoldCall(e.Condition) || mayHoldCall(e.TrueResult) || mayHoldCall(e.FalseResult)
	case *hclsyntax.ParenthesesExpr:
		return mayHoldCall(e.Expression)
	}
	return true
}

func anyMayHoldCall(exprs []hclsyntax.Expression) bool {
	for _, e := range exprs {
		if mayHoldCall(e) {
			return true
		}
	}
	return false
}
