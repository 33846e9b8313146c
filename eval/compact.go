package eval

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// Compact returns a copy of a parsed expression, node for node, with
// ranges and values equal to the original's, so it evaluates and reports
// exactly as the original does. A served table keeps the expressions it
// evaluates per call, a few small nodes per tool; left where the parser
// made them, each pins a span of the syntax tree's memory that is
// otherwise garbage, and a big configuration's resident memory stayed
// three times the size of what it keeps. Copied after the load, they
// sit together. An expression with a node Compact does not know is
// returned as it is.
func Compact(e hcl.Expression) hcl.Expression {
	if e == nil {
		return nil
	}
	if c, ok := compactExpr(e); ok {
		return c
	}
	return e
}

// compactExpr copies e; false when it holds a node it does not copy.
func compactExpr(e hcl.Expression) (hclsyntax.Expression, bool) {
	switch e := e.(type) {
	case *hclsyntax.LiteralValueExpr:
		v, ok := compactValue(e.Val)
		return &hclsyntax.LiteralValueExpr{Val: v, SrcRange: e.SrcRange}, ok
	case *hclsyntax.ScopeTraversalExpr:
		t, ok := compactTraversal(e.Traversal)
		return &hclsyntax.ScopeTraversalExpr{Traversal: t, SrcRange: e.SrcRange}, ok
	case *hclsyntax.RelativeTraversalExpr:
		src, ok1 := compactExpr(e.Source)
		t, ok2 := compactTraversal(e.Traversal)
		return &hclsyntax.RelativeTraversalExpr{Source: src, Traversal: t, SrcRange: e.SrcRange}, ok1 && ok2
	case *hclsyntax.TemplateExpr:
		parts, ok := compactList(e.Parts)
		return &hclsyntax.TemplateExpr{Parts: parts, SrcRange: e.SrcRange}, ok
	case *hclsyntax.TemplateWrapExpr:
		w, ok := compactExpr(e.Wrapped)
		return &hclsyntax.TemplateWrapExpr{Wrapped: w, SrcRange: e.SrcRange}, ok
	case *hclsyntax.ObjectConsExpr:
		return compactObject(e)
	case *hclsyntax.ObjectConsKeyExpr:
		w, ok := compactExpr(e.Wrapped)
		return &hclsyntax.ObjectConsKeyExpr{Wrapped: w, ForceNonLiteral: e.ForceNonLiteral}, ok
	case *hclsyntax.TupleConsExpr:
		exprs, ok := compactList(e.Exprs)
		return &hclsyntax.TupleConsExpr{Exprs: exprs, SrcRange: e.SrcRange, OpenRange: e.OpenRange}, ok
	case *hclsyntax.BinaryOpExpr:
		lhs, ok1 := compactExpr(e.LHS)
		rhs, ok2 := compactExpr(e.RHS)
		return &hclsyntax.BinaryOpExpr{LHS: lhs, Op: e.Op, RHS: rhs, SrcRange: e.SrcRange}, ok1 && ok2
	case *hclsyntax.UnaryOpExpr:
		v, ok := compactExpr(e.Val)
		return &hclsyntax.UnaryOpExpr{Op: e.Op, Val: v, SrcRange: e.SrcRange, SymbolRange: e.SymbolRange}, ok
	case *hclsyntax.ParenthesesExpr:
		inner, ok := compactExpr(e.Expression)
		return &hclsyntax.ParenthesesExpr{Expression: inner, SrcRange: e.SrcRange}, ok
	case *hclsyntax.ConditionalExpr:
		c, ok1 := compactExpr(e.Condition)
		t, ok2 := compactExpr(e.TrueResult)
		f, ok3 := compactExpr(e.FalseResult)
		return &hclsyntax.ConditionalExpr{Condition: c, TrueResult: t, FalseResult: f, SrcRange: e.SrcRange}, ok1 && ok2 && ok3
	case *hclsyntax.FunctionCallExpr:
		args, ok := compactList(e.Args)
		return &hclsyntax.FunctionCallExpr{Name: strings.Clone(e.Name), Args: args, ExpandFinal: e.ExpandFinal,
			NameRange: e.NameRange, OpenParenRange: e.OpenParenRange, CloseParenRange: e.CloseParenRange}, ok
	case *hclsyntax.IndexExpr:
		coll, ok1 := compactExpr(e.Collection)
		key, ok2 := compactExpr(e.Key)
		return &hclsyntax.IndexExpr{Collection: coll, Key: key, SrcRange: e.SrcRange, OpenRange: e.OpenRange, BracketRange: e.BracketRange}, ok1 && ok2
	}
	// For and splat expressions (their symbols are shared between nodes)
	// and anything else stay as parsed.
	return nil, false
}

func compactList(in []hclsyntax.Expression) ([]hclsyntax.Expression, bool) {
	out := make([]hclsyntax.Expression, len(in))
	for i, e := range in {
		c, ok := compactExpr(e)
		if !ok {
			return nil, false
		}
		out[i] = c
	}
	return out, true
}

func compactObject(e *hclsyntax.ObjectConsExpr) (hclsyntax.Expression, bool) {
	items := make([]hclsyntax.ObjectConsItem, len(e.Items))
	for i, it := range e.Items {
		k, ok1 := compactExpr(it.KeyExpr)
		v, ok2 := compactExpr(it.ValueExpr)
		if !ok1 || !ok2 {
			return nil, false
		}
		items[i] = hclsyntax.ObjectConsItem{KeyExpr: k, ValueExpr: v}
	}
	return &hclsyntax.ObjectConsExpr{Items: items, SrcRange: e.SrcRange, OpenRange: e.OpenRange}, true
}

func compactTraversal(t hcl.Traversal) (hcl.Traversal, bool) {
	out := make(hcl.Traversal, len(t))
	for i, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			out[i] = hcl.TraverseRoot{Name: strings.Clone(s.Name), SrcRange: s.SrcRange}
		case hcl.TraverseAttr:
			out[i] = hcl.TraverseAttr{Name: strings.Clone(s.Name), SrcRange: s.SrcRange}
		case hcl.TraverseIndex:
			k, ok := compactValue(s.Key)
			if !ok {
				return nil, false
			}
			out[i] = hcl.TraverseIndex{Key: k, SrcRange: s.SrcRange}
		default:
			return nil, false
		}
	}
	return out, true
}

// CompactValue copies a string or number value (its text or digits are
// the parser's when it was written as a literal); other values are
// returned as they are.
func CompactValue(v cty.Value) cty.Value {
	c, _ := compactValue(v)
	return c
}

// compactValue copies a literal: the parser's strings and numbers are in
// its memory too. Other values (there are none in literals but null and
// bool) are kept.
func compactValue(v cty.Value) (cty.Value, bool) {
	if v == cty.NilVal || v.IsNull() || !v.IsKnown() || v.IsMarked() {
		return v, true
	}
	switch v.Type() {
	case cty.String:
		return cty.StringVal(strings.Clone(v.AsString())), true
	case cty.Number:
		return cty.NumberVal(v.AsBigFloat()), true // AsBigFloat copies
	}
	return v, true
}
