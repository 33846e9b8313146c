package eval

import (
	"encoding/json"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/internal/english"
)

// Part is one piece of a string template: literal text, or an
// interpolated expression (`${...}`).
type Part struct {
	Literal string
	// Expr is the interpolated expression; nil for literal text.
	Expr hcl.Expression
	// Range is where the part is in the source.
	Range hcl.Range
}

// Parts splits a string template into its pieces, so that each
// interpolation can be escaped or bound on its own instead of being pasted
// into the text. An expression that is not a template (a function call, a
// reference) is returned as one interpolated part. Template directives
// (%{ if }, %{ for }) are refused: they would splice text.
func Parts(expr hcl.Expression, files map[string]*hcl.File) ([]Part, hcl.Diagnostics) {
	switch e := expr.(type) {
	case *hclsyntax.TemplateExpr:
		return templateParts(e, files)
	case *hclsyntax.TemplateWrapExpr:
		return []Part{{Expr: e.Wrapped, Range: e.Wrapped.Range()}}, nil
	case *hclsyntax.LiteralValueExpr:
		if e.Val.Type() == cty.String && !e.Val.IsNull() {
			return []Part{{Literal: e.Val.AsString(), Range: e.Range()}}, nil
		}
	}
	if t, ok := reparseJSONString(expr, files); ok {
		return Parts(t, files)
	}
	return []Part{{Expr: expr, Range: expr.Range()}}, nil
}

func templateParts(t *hclsyntax.TemplateExpr, files map[string]*hcl.File) ([]Part, hcl.Diagnostics) {
	var out []Part
	var diags hcl.Diagnostics
	for _, p := range t.Parts {
		if lit, ok := p.(*hclsyntax.LiteralValueExpr); ok && lit.Val.Type() == cty.String && lit.Val.IsKnown() && !lit.Val.IsNull() {
			out = append(out, Part{Literal: lit.Val.AsString(), Range: lit.Range()})
			continue
		}
		if _, isFor := p.(*hclsyntax.TemplateJoinExpr); isFor || isDirective(p, files) {
			diags = append(diags, directiveDiag(p))
			continue
		}
		out = append(out, Part{Expr: p, Range: p.Range()})
	}
	return out, diags
}

// isDirective reports whether a template part came from %{ ... }: an
// %{ if } parses to the same conditional as ${ a ? b : c }, so only the
// source tells them apart.
func isDirective(p hcl.Expression, files map[string]*hcl.File) bool {
	src, ok := sourceOf(p.Range(), files)
	return ok && len(src) >= 2 && src[0] == '%' && src[1] == '{'
}

func directiveDiag(p hcl.Expression) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Template directive not allowed",
		Detail:   "%{ if } and %{ for } directives paste text together, which is unsafe here. Compute the value in an expression instead, for example ${args.x == null ? \"\" : args.x}.",
		Subject:  p.Range().Ptr(),
	}
}

// reparseJSONString turns a string expression of the HCL JSON syntax into
// a native template with the same meaning, so that its parts can be walked.
// Columns inside it are exact unless the JSON string holds escapes.
func reparseJSONString(expr hcl.Expression, files map[string]*hcl.File) (hcl.Expression, bool) {
	raw, ok := sourceOf(expr.Range(), files)
	if !ok || len(raw) < 2 || raw[0] != '"' {
		return nil, false
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, false
	}
	start := expr.Range().Start
	start.Column++
	start.Byte++
	t, diags := hclsyntax.ParseTemplate([]byte(s), expr.Range().Filename, start)
	if diags.HasErrors() {
		return nil, false
	}
	return t, true
}

func sourceOf(r hcl.Range, files map[string]*hcl.File) ([]byte, bool) {
	f, ok := files[r.Filename]
	if !ok || r.End.Byte > len(f.Bytes) || r.Start.Byte > r.End.Byte {
		return nil, false
	}
	return f.Bytes[r.Start.Byte:r.End.Byte], true
}

// PartString converts one evaluated interpolation to the string it stands
// for: strings as they are, numbers and bools in their usual form.
func PartString(v cty.Value) (string, error) {
	switch {
	case v.IsNull():
		return "", fmt.Errorf("the value is null")
	case !v.IsKnown():
		return "", fmt.Errorf("the value is not known yet")
	case v.Type() == cty.String:
		return v.AsString(), nil
	case v.Type() == cty.Number:
		return NumberText(v), nil
	case v.Type() == cty.Bool:
		if v.True() {
			return "true", nil
		}
		return "false", nil
	}
	return "", fmt.Errorf("%s cannot be used as text; convert it with jsonencode() or join()", english.A(v.Type().FriendlyName()))
}
