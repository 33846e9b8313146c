package hclfast

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Variables returns what expr.Variables() returns: the traversals that
// start at a root name, in the order they are written. The node kinds most
// attributes are made of (literals, references, templates, lists, objects
// and operators of them) are read directly, where hclsyntax's walker
// allocates for every node; a compile asks this of every expression
// several times. Any other kind (for expressions with names of their own,
// function calls, JSON syntax) is asked itself.
func Variables(expr hcl.Expression) []hcl.Traversal {
	var out []hcl.Traversal
	if !AppendVariables(&out, expr) {
		return expr.Variables()
	}
	return out
}

// AppendVariables appends the root traversals of expr to out, and reports
// false for a kind of node it does not read (out is then incomplete).
func AppendVariables(out *[]hcl.Traversal, expr hcl.Expression) bool {
	switch e := expr.(type) {
	case *hclsyntax.LiteralValueExpr:
		return true
	case *hclsyntax.ScopeTraversalExpr:
		*out = append(*out, e.Traversal)
		return true
	case *hclsyntax.TemplateExpr:
		return appendAllVariables(out, e.Parts...)
	case *hclsyntax.TemplateWrapExpr:
		return AppendVariables(out, e.Wrapped)
	case *hclsyntax.TupleConsExpr:
		return appendAllVariables(out, e.Exprs...)
	case *hclsyntax.ObjectConsExpr:
		for _, item := range e.Items {
			if !appendAllVariables(out, item.KeyExpr, item.ValueExpr) {
				return false
			}
		}
		return true
	case *hclsyntax.ObjectConsKeyExpr:
		if hcl.ExprAsKeyword(e.Wrapped) != "" {
			return true // a bare name is the key itself, not a reference
		}
		return AppendVariables(out, e.Wrapped)
	case *hclsyntax.BinaryOpExpr:
		return appendAllVariables(out, e.LHS, e.RHS)
	case *hclsyntax.UnaryOpExpr:
		return AppendVariables(out, e.Val)
	case *hclsyntax.ConditionalExpr:
		return appendAllVariables(out, e.Condition, e.TrueResult, e.FalseResult)
	case *hclsyntax.ParenthesesExpr:
		return AppendVariables(out, e.Expression)
	}
	return false
}

func appendAllVariables(out *[]hcl.Traversal, exprs ...hclsyntax.Expression) bool {
	for _, e := range exprs {
		if !AppendVariables(out, e) {
			return false
		}
	}
	return true
}
