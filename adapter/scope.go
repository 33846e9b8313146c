package adapter

import (
	"fmt"
	"reflect"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/mcpdecl/mcpdecl/eval"
)

// Scope is what expressions in a block may see at load time: the names they
// may refer to and the static evaluation context. Adapters use it to check
// and evaluate their attributes.
type Scope struct {
	Names  *eval.Names
	Static *eval.Static
	// ArgsType is the cty type of args; cty.NilType where there are none.
	ArgsType cty.Type
	// ArgsEnv is the Go type of args in expr-lang programs.
	ArgsEnv reflect.Type
	Files   map[string]*hcl.File
	// Extra are further variables of dynamic expressions, by root name
	// (unknown values at load time).
	Extra map[string]cty.Value
	// MayBeNull names the arguments that are null when the model leaves
	// them out (optional, without a default).
	MayBeNull map[string]bool
	// NoLeadingDash names the string arguments whose enum or pattern
	// rules out a value starting with "-" (which a command would read as
	// an option).
	NoLeadingDash map[string]bool
	// Reserved names the arguments a resource template expands with
	// reserved expansion ({+path} or {#path}): their values may hold "/"
	// by design, so a URL path may take them as several segments.
	Reserved map[string]bool
}

// StaticValue evaluates an attribute that may not refer to args, converted to
// want (cty.DynamicPseudoType for any). It reports references to args, bad
// references and type errors at the attribute.
func (s *Scope) StaticValue(attr *hcl.Attribute, want cty.Type) (cty.Value, hcl.Diagnostics) {
	if v, ok := constantValue(attr.Expr); ok {
		return convertAttr(attr, v, want)
	}
	return s.evalStatic(attr, want)
}

// evalStatic is StaticValue for any expression: it checks references and
// evaluates in the static context.
func (s *Scope) evalStatic(attr *hcl.Attribute, want cty.Type) (cty.Value, hcl.Diagnostics) {
	if d := s.callValues(attr); d != nil {
		return cty.DynamicVal, d
	}
	names := *s.Names
	names.Args, names.Extra = nil, nil // values of the call (args, steps) are not known here
	diags := eval.CheckRefs(attr.Expr, &names)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	v, d := attr.Expr.Value(s.Static.Context(attr.Expr))
	if d.HasErrors() {
		return cty.DynamicVal, d
	}
	return convertAttr(attr, v, want)
}

// callValues reports each reference of a static attribute to a further
// root of the call (the answer of a step), known only when the call runs.
func (s *Scope) callValues(attr *hcl.Attribute) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, tr := range attr.Expr.Variables() {
		if _, extra := s.Extra[tr.RootName()]; !extra {
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Value known only when called",
			Detail:   fmt.Sprintf("%s must be known when the configuration is loaded, and %s is only known when the call runs. Write the value in the configuration, or use var.<name> or local.<name>.", attr.Name, tr.RootName()),
			Subject:  tr.SourceRange().Ptr(),
		})
	}
	return diags
}

// CheckDynamic checks an attribute evaluated per call: its references, and
// its type by evaluating it with unknown arguments. The returned value is
// known when the attribute does not depend on the arguments.
func (s *Scope) CheckDynamic(attr *hcl.Attribute, want cty.Type) (cty.Value, hcl.Diagnostics) {
	return s.CheckExpr(attr.Expr, attr, want)
}

// CheckExpr is CheckDynamic for an expression inside attr (a template part,
// a map value).
// It also reports a file() whose path comes from the arguments without a
// folder to confine it (see eval.Static.CheckFileCalls).
func (s *Scope) CheckExpr(expr hcl.Expression, attr *hcl.Attribute, want cty.Type) (cty.Value, hcl.Diagnostics) {
	diags := append(eval.CheckRefs(expr, s.Names), s.Static.CheckFileCalls(expr, s.Files)...)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	args := cty.NilVal
	if s.ArgsType != cty.NilType {
		args = cty.UnknownVal(s.ArgsType)
	}
	// A pooled context: a compile checks every expression of every tool,
	// and a context of its own for each was a tenth of a big compile's
	// allocations. Diagnostics refer to their context (hcl renders the
	// values they name from it), so a context that gave any is kept.
	ctx := s.Static.Borrow(expr, args, s.Extra)
	v, d := expr.Value(ctx)
	if len(d) == 0 {
		eval.Return(ctx)
	}
	if d.HasErrors() {
		return cty.DynamicVal, append(diags, d...)
	}
	out, d := convertValue(attr.Name, expr.Range(), v, want)
	return out, append(diags, d...) // with the warnings found above
}

func convertAttr(attr *hcl.Attribute, v cty.Value, want cty.Type) (cty.Value, hcl.Diagnostics) {
	return convertValue(attr.Name, attr.Expr.Range(), v, want)
}

// convertValue converts v to want, reporting a mismatch at rng.
func convertValue(name string, rng hcl.Range, v cty.Value, want cty.Type) (cty.Value, hcl.Diagnostics) {
	if want == cty.DynamicPseudoType {
		return v, nil
	}
	out, err := convert.Convert(v, want)
	if err != nil {
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid value type",
			Detail:   fmt.Sprintf("%s must be %s: %s.", name, TypeName(want), err),
			Subject:  rng.Ptr(),
		}}
	}
	return out, nil
}

// TypeName names a type in a message: "a string", "a number", "true or
// false", "an object (...)".
func TypeName(t cty.Type) string {
	switch {
	case t == cty.String:
		return "a string"
	case t == cty.Number:
		return "a number"
	case t == cty.Bool:
		return "true or false"
	case t.IsObjectType() || t.IsMapType():
		return "an object (" + t.FriendlyName() + ")"
	}
	return t.FriendlyName()
}
