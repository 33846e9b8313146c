package eval

import (
	"unsafe"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// Value evaluates expr in ctx, with HCL's result.
//
// Calls evaluate the same few shapes of expression over and over: a
// reference (args.query), a literal, a comparison or a logical operator
// over known values (args.limit >= 1 && args.limit <= 50), an object of
// those, a string template. These are computed directly on cty values,
// skipping the conversions and function-call machinery HCL goes through
// for every operator. Anything else, and any value that is unknown, null,
// marked or of a type the operator would have to convert, is left to HCL
// itself, so the outcome, errors included, is always HCL's.
func Value(expr hcl.Expression, ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	if v, ok := fast(expr, ctx); ok {
		return v, nil
	}
	return expr.Value(ctx)
}

// fast evaluates the shapes it knows; ok is false for everything else.
func fast(expr hcl.Expression, ctx *hcl.EvalContext) (cty.Value, bool) {
	switch e := expr.(type) {
	case *hclsyntax.LiteralValueExpr:
		return e.Val, true
	case *hclsyntax.ScopeTraversalExpr:
		return fastTraversal(e.Traversal, ctx)
	case *hclsyntax.TemplateWrapExpr:
		return fast(e.Wrapped, ctx)
	case *hclsyntax.BinaryOpExpr:
		return fastBinary(e, ctx)
	case *hclsyntax.UnaryOpExpr:
		v, ok := fast(e.Val, ctx)
		switch {
		case ok && e.Op == hclsyntax.OpLogicalNot && plain(v, cty.Bool):
			return v.Not(), true
		case ok && e.Op == hclsyntax.OpNegate && plain(v, cty.Number):
			return v.Negate(), true
		}
		return cty.NilVal, false
	case *hclsyntax.ObjectConsExpr:
		return fastObject(e, ctx)
	case *hclsyntax.TemplateExpr:
		return fastTemplate(e, ctx)
	}
	return cty.NilVal, false
}

// fastTraversal follows a reference made of attribute names through
// known, unmarked objects that have them, as HCL's TraverseAbs does.
func fastTraversal(t hcl.Traversal, ctx *hcl.EvalContext) (cty.Value, bool) {
	root, ok := t[0].(hcl.TraverseRoot)
	if !ok {
		return cty.NilVal, false
	}
	var val cty.Value
	found := false
	for c := ctx; c != nil && !found; c = c.Parent() {
		if c.Variables != nil {
			val, found = c.Variables[root.Name]
		}
	}
	if !found {
		return cty.NilVal, false
	}
	for _, step := range t[1:] {
		attr, ok := step.(hcl.TraverseAttr)
		if !ok || !val.IsKnown() || val.IsNull() || val.IsMarked() || !val.Type().IsObjectType() {
			return cty.NilVal, false
		}
		if next, direct := attrOf(val, attr.Name); direct {
			val = next
			continue
		}
		if !val.Type().HasAttribute(attr.Name) {
			return cty.NilVal, false
		}
		val = val.GetAttr(attr.Name)
	}
	return val, true
}

// plain reports whether v is known, not null, unmarked and of type ty.
func plain(v cty.Value, ty cty.Type) bool {
	return v.IsKnown() && !v.IsNull() && !v.IsMarked() && v.Type().Equals(ty)
}

func fastBinary(e *hclsyntax.BinaryOpExpr, ctx *hcl.EvalContext) (cty.Value, bool) {
	l, ok := fast(e.LHS, ctx)
	if !ok {
		return cty.NilVal, false
	}
	r, ok := fast(e.RHS, ctx)
	if !ok {
		return cty.NilVal, false
	}
	switch e.Op {
	case hclsyntax.OpLogicalAnd, hclsyntax.OpLogicalOr:
		if !plain(l, cty.Bool) || !plain(r, cty.Bool) {
			return cty.NilVal, false
		}
		if e.Op == hclsyntax.OpLogicalAnd {
			return l.And(r), true
		}
		return l.Or(r), true
	case hclsyntax.OpGreaterThan, hclsyntax.OpGreaterThanOrEqual, hclsyntax.OpLessThan, hclsyntax.OpLessThanOrEqual:
		if !plain(l, cty.Number) || !plain(r, cty.Number) {
			return cty.NilVal, false
		}
		switch e.Op {
		case hclsyntax.OpGreaterThan:
			return l.GreaterThan(r), true
		case hclsyntax.OpGreaterThanOrEqual:
			return l.GreaterThanOrEqualTo(r), true
		case hclsyntax.OpLessThan:
			return l.LessThan(r), true
		}
		return l.LessThanOrEqualTo(r), true
	case hclsyntax.OpEqual, hclsyntax.OpNotEqual:
		ty := l.Type()
		if !ty.IsPrimitiveType() || !plain(l, ty) || !plain(r, ty) {
			return cty.NilVal, false
		}
		if e.Op == hclsyntax.OpEqual {
			return l.Equals(r), true
		}
		return l.Equals(r).Not(), true
	}
	return cty.NilVal, false
}

// fastObject builds { name = value, ... } whose keys are bare names or
// quoted strings; a later duplicate key wins, as in HCL.
func fastObject(e *hclsyntax.ObjectConsExpr, ctx *hcl.EvalContext) (cty.Value, bool) {
	vals := make(map[string]cty.Value, len(e.Items))
	for _, item := range e.Items {
		key, ok := literalKey(item.KeyExpr)
		if !ok {
			return cty.NilVal, false
		}
		v, ok := fast(item.ValueExpr, ctx)
		if !ok {
			return cty.NilVal, false
		}
		vals[key] = v
	}
	return cty.ObjectVal(vals), true
}

func literalKey(expr hclsyntax.Expression) (string, bool) {
	k, ok := expr.(*hclsyntax.ObjectConsKeyExpr)
	if !ok {
		return "", false
	}
	if !k.ForceNonLiteral {
		if t, ok := k.Wrapped.(*hclsyntax.ScopeTraversalExpr); ok {
			if len(t.Traversal) != 1 {
				return "", false // HCL reports an ambiguous key
			}
			return t.Traversal.RootName(), true
		}
	}
	if t, ok := k.Wrapped.(*hclsyntax.TemplateExpr); ok && len(t.Parts) == 1 {
		if lit, ok := t.Parts[0].(*hclsyntax.LiteralValueExpr); ok && plain(lit.Val, cty.String) {
			return lit.Val.AsString(), true
		}
	}
	return "", false
}

// fastTemplate joins a template's parts when each is a known, unmarked
// string, number or bool, converted as HCL converts them.
func fastTemplate(e *hclsyntax.TemplateExpr, ctx *hcl.EvalContext) (cty.Value, bool) {
	if len(e.Parts) == 1 {
		if lit, ok := e.Parts[0].(*hclsyntax.LiteralValueExpr); ok && plain(lit.Val, cty.String) {
			return lit.Val, true
		}
	}
	buf := make([]byte, 0, 64) // most fit: one allocation, not a few growing
	for _, part := range e.Parts {
		v, ok := fast(part, ctx)
		if !ok || !v.IsKnown() || v.IsNull() || v.IsMarked() || !v.Type().IsPrimitiveType() {
			return cty.NilVal, false
		}
		switch v.Type() {
		case cty.String:
			buf = append(buf, v.AsString()...)
		case cty.Number:
			buf = append(buf, NumberText(v)...) // as convert writes it, faster
		default:
			var err error
			if v, err = convert.Convert(v, cty.String); err != nil {
				return cty.NilVal, false
			}
			buf = append(buf, v.AsString()...)
		}
	}
	// The parts' bytes, joined: cty.StringVal would normalise the result
	// (and so the arguments in it) to NFC.
	// buf is not written again, so the string can share its bytes.
	return RawString(unsafe.String(unsafe.SliceData(buf), len(buf))), true
}
