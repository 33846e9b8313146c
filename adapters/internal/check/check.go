// Package check holds the small decoding helpers the built-in adapters
// share: static attribute values with defaults, durations, sizes, maps whose
// values are evaluated per call, and quoted lists of names. Every helper
// reports its problems as diagnostics at the tightest range it knows and
// never stops at the first one.
package check

import (
	"fmt"
	"math/big"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/mcpdecl/mcpdecl/adapter"
)

// Error returns an error diagnostic.
func Error(summary, detail string, subject hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: subject.Ptr()}
}

// Warning returns a warning diagnostic.
func Warning(summary, detail string, subject hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: summary, Detail: detail, Subject: subject.Ptr()}
}

// Quoted lists values as "a", "b" or "c".
func Quoted(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = fmt.Sprintf("%q", v)
	}
	switch len(q) {
	case 0:
		return ""
	case 1:
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// Static evaluates attr without args and converts it to want. known is false
// when attr is nil, has errors, or is not known at load time (env() during
// validate); callers then keep their default and check nothing more.
func Static(s *adapter.Scope, attr *hcl.Attribute, want cty.Type) (v cty.Value, known bool, diags hcl.Diagnostics) {
	if attr == nil {
		return cty.NilVal, false, nil
	}
	v, diags = s.StaticValue(attr, want)
	if diags.HasErrors() || !v.IsWhollyKnown() {
		return v, false, diags
	}
	if v.IsNull() {
		return v, false, append(diags, Error("Null value",
			fmt.Sprintf("%s cannot be null. Give a value or remove the argument to use the default.", attr.Name),
			attr.Expr.Range()))
	}
	return v, true, diags
}

// String returns a static string attribute; def when absent or unknown.
func String(s *adapter.Scope, attr *hcl.Attribute, def string) (string, bool, hcl.Diagnostics) {
	v, known, diags := Static(s, attr, cty.String)
	if !known {
		return def, false, diags
	}
	return v.AsString(), true, diags
}

// Bool returns a static bool attribute; def when absent or unknown.
func Bool(s *adapter.Scope, attr *hcl.Attribute, def bool) (bool, bool, hcl.Diagnostics) {
	v, known, diags := Static(s, attr, cty.Bool)
	if !known {
		return def, false, diags
	}
	return v.True(), true, diags
}

// Int returns a static whole number of at least min; def when absent or
// unknown.
func Int(s *adapter.Scope, attr *hcl.Attribute, def, min int64) (int64, hcl.Diagnostics) {
	v, known, diags := Static(s, attr, cty.Number)
	if !known {
		return def, diags
	}
	n, ok := wholeNumber(v)
	if !ok || n < min {
		return def, append(diags, Error("Invalid number",
			fmt.Sprintf("%s must be a whole number of at least %d.", attr.Name, min), attr.Expr.Range()))
	}
	return n, diags
}

func wholeNumber(v cty.Value) (int64, bool) {
	bf := v.AsBigFloat()
	if !bf.IsInt() {
		return 0, false
	}
	n, acc := bf.Int64()
	return n, acc == big.Exact
}

// Duration returns a static duration written as a Go duration string ("5s",
// "1m30s"), which must be positive; def when absent or unknown.
func Duration(s *adapter.Scope, attr *hcl.Attribute, def time.Duration) (time.Duration, hcl.Diagnostics) {
	str, known, diags := String(s, attr, "")
	if !known {
		return def, diags
	}
	d, err := time.ParseDuration(str)
	if err != nil || d <= 0 {
		return def, append(diags, Error("Invalid duration",
			fmt.Sprintf("%s must be a positive duration such as \"500ms\", \"5s\" or \"2m\", not %q.", attr.Name, str),
			attr.Expr.Range()))
	}
	return d, diags
}

// StringList returns a static list of strings and the range of each element.
func StringList(s *adapter.Scope, attr *hcl.Attribute) ([]string, []hcl.Range, bool, hcl.Diagnostics) {
	v, known, diags := Static(s, attr, cty.List(cty.String))
	if !known {
		return nil, nil, false, diags
	}
	var out []string
	var ranges []hcl.Range
	for i, e := range v.AsValueSlice() {
		if e.IsNull() {
			diags = append(diags, Error("Null value", fmt.Sprintf("%s cannot hold null.", attr.Name), ElemRange(attr, i)))
			continue
		}
		out = append(out, e.AsString())
		ranges = append(ranges, ElemRange(attr, i))
	}
	return out, ranges, true, diags
}

// NumberList returns a static list of whole numbers and the range of each.
func NumberList(s *adapter.Scope, attr *hcl.Attribute) ([]int64, []hcl.Range, bool, hcl.Diagnostics) {
	v, known, diags := Static(s, attr, cty.List(cty.Number))
	if !known {
		return nil, nil, false, diags
	}
	var out []int64
	var ranges []hcl.Range
	for i, e := range v.AsValueSlice() {
		n, ok := int64(0), false
		if !e.IsNull() {
			n, ok = wholeNumber(e)
		}
		if !ok {
			diags = append(diags, Error("Invalid number", fmt.Sprintf("%s must hold whole numbers.", attr.Name), ElemRange(attr, i)))
			continue
		}
		out = append(out, n)
		ranges = append(ranges, ElemRange(attr, i))
	}
	return out, ranges, true, diags
}

// StringMap returns a static map of strings, with sorted keys. known is
// false when any value is not known at load time.
func StringMap(s *adapter.Scope, attr *hcl.Attribute) (map[string]string, []string, bool, hcl.Diagnostics) {
	if attr == nil {
		return nil, nil, false, nil
	}
	v, diags := s.StaticValue(attr, cty.Map(cty.String))
	if diags.HasErrors() || v.IsNull() || !v.IsKnown() {
		return nil, nil, false, diags
	}
	out := map[string]string{}
	known := true
	for k, e := range v.AsValueMap() {
		switch {
		case !e.IsKnown():
			known = false
			out[k] = ""
		case e.IsNull():
			diags = append(diags, Error("Null value", fmt.Sprintf("%s cannot hold null; remove %q instead.", attr.Name, k), KeyRange(attr, k)))
		default:
			out[k] = e.AsString()
		}
	}
	return out, SortedKeys(out), known, diags
}

// SortedKeys returns the keys of m, sorted.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ElemRange returns the range of element i of a tuple attribute, or the
// whole value when it is not written as a tuple.
func ElemRange(attr *hcl.Attribute, i int) hcl.Range {
	if t, ok := attr.Expr.(*hclsyntax.TupleConsExpr); ok && i < len(t.Exprs) {
		return t.Exprs[i].Range()
	}
	return attr.Expr.Range()
}

// KeyRange returns the range of the key named key in an object attribute, or
// the whole value when it cannot be found.
func KeyRange(attr *hcl.Attribute, key string) hcl.Range {
	if o, ok := attr.Expr.(*hclsyntax.ObjectConsExpr); ok {
		for _, it := range o.Items {
			if k, err := keyOf(it.KeyExpr, nil); err == nil && k == key {
				return it.KeyExpr.Range()
			}
		}
	}
	return attr.Expr.Range()
}

func keyOf(e hcl.Expression, ctx *hcl.EvalContext) (string, error) {
	v, diags := e.Value(ctx)
	if diags.HasErrors() {
		return "", diags
	}
	if !v.IsKnown() || v.IsNull() {
		return "", fmt.Errorf("not known")
	}
	v, err := convert.Convert(v, cty.String)
	if err != nil {
		return "", err
	}
	return v.AsString(), nil
}

// Item is one entry of a map attribute written as an object: a static name
// and a value expression evaluated per call.
type Item struct {
	Name      string
	NameRange hcl.Range
	Expr      hcl.Expression
}

// DynamicMap decodes a map attribute whose values are evaluated per call.
// Written as an object (`{ q = args.query }`), each value is type-checked
// on its own with checkValue and returned as an Item, in source order.
// Written as any other expression (`merge(...)`, `args.filters`), the whole
// value is checked to be a map or object and returned as whole.
func DynamicMap(s *adapter.Scope, attr *hcl.Attribute, checkValue func(it Item, v cty.Value) hcl.Diagnostics) (items []Item, whole hcl.Expression, diags hcl.Diagnostics) {
	if attr == nil {
		return nil, nil, nil
	}
	o, ok := attr.Expr.(*hclsyntax.ObjectConsExpr)
	if !ok {
		v, d := s.CheckDynamic(attr, cty.DynamicPseudoType)
		diags = append(diags, d...)
		if d.HasErrors() {
			return nil, nil, diags
		}
		ty := v.Type()
		if !(ty.IsObjectType() || ty.IsMapType() || ty == cty.DynamicPseudoType) {
			diags = append(diags, Error("Invalid value type",
				fmt.Sprintf("%s must be a map, as in { name = value }; this value is %s.", attr.Name, ty.FriendlyName()),
				attr.Expr.Range()))
		}
		return nil, attr.Expr, diags
	}
	seen := map[string]hcl.Range{}
	for _, kv := range o.Items {
		name, err := keyOf(kv.KeyExpr, s.Static.Context(kv.KeyExpr))
		if err != nil {
			diags = append(diags, Error("Invalid map key",
				fmt.Sprintf("The keys of %s must be names known at load time, not values computed from the arguments.", attr.Name),
				kv.KeyExpr.Range()))
			continue
		}
		if prev, dup := seen[name]; dup {
			diags = append(diags, Error("Duplicate map key",
				fmt.Sprintf("%q is already set in %s at line %d. Give each key once.", name, attr.Name, prev.Start.Line),
				kv.KeyExpr.Range()))
			continue
		}
		seen[name] = kv.KeyExpr.Range()
		it := Item{Name: name, NameRange: kv.KeyExpr.Range(), Expr: kv.ValueExpr}
		v, d := s.CheckExpr(kv.ValueExpr, attr, cty.DynamicPseudoType)
		diags = append(diags, d...)
		if !d.HasErrors() && checkValue != nil {
			diags = append(diags, checkValue(it, v)...)
		}
		items = append(items, it)
	}
	return items, nil, diags
}

// FixedNames returns the names a map-like value has whatever the call: an
// object type's attributes (written in the config, in a literal or an
// argument's object type), or the keys of a map known at load time. A map
// computed from the arguments has keys the caller chooses: ok is false.
// Adapters use it so that names a backend trusts (environment variables,
// headers, query parameters) only ever come from the configuration.
func FixedNames(v cty.Value) (names []string, ok bool) {
	ty := v.Type()
	switch {
	case ty.IsObjectType():
		names = make([]string, 0, len(ty.AttributeTypes()))
		for name := range ty.AttributeTypes() {
			names = append(names, name)
		}
	case ty.IsMapType() && v.IsKnown() && !v.IsNull():
		names = make([]string, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			k, _ := it.Element()
			names = append(names, k.AsString())
		}
	default:
		return nil, false
	}
	slices.Sort(names)
	return names, true
}

// IsPrimitive reports whether ty is a string, number or bool, or not known
// until call time.
func IsPrimitive(ty cty.Type) bool {
	return ty.IsPrimitiveType() || ty == cty.DynamicPseudoType
}

// DynamicString type-checks an expression evaluated per call as a string
// (numbers and bools convert), reporting a mismatch at expr itself.
func DynamicString(s *adapter.Scope, expr hcl.Expression, attr *hcl.Attribute, what string) hcl.Diagnostics {
	v, diags := s.CheckExpr(expr, attr, cty.DynamicPseudoType)
	if diags.HasErrors() {
		return diags
	}
	if !IsPrimitive(v.Type()) {
		diags = append(diags, Error("Invalid value type",
			fmt.Sprintf("%s must be a string, number or bool; this value is %s. Convert it with jsonencode() or join().", what, v.Type().FriendlyName()),
			expr.Range()))
	}
	return diags
}

// Single reports every block of a type after the first, and returns the
// first (nil when there is none).
func Single(blocks hcl.Blocks, typ, where string) (*hcl.Block, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	for _, b := range blocks[min(1, len(blocks)):] {
		diags = append(diags, Error(fmt.Sprintf("Duplicate %s block", typ),
			fmt.Sprintf("%s may hold one %s block; one was already given at line %d. Merge them into one.", where, typ, blocks[0].DefRange.Start.Line),
			b.DefRange))
	}
	if len(blocks) == 0 {
		return nil, diags
	}
	return blocks[0], diags
}

// Path resolves a file path written in the file that holds attr: relative
// paths are relative to that file's directory, as file() reads them.
func Path(attr *hcl.Attribute, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(filepath.Dir(attr.Expr.Range().Filename), p)
}

// Source returns the source text of r, or "" when the file is unknown.
func Source(r hcl.Range, files map[string]*hcl.File) string {
	f, ok := files[r.Filename]
	if !ok || r.End.Byte > len(f.Bytes) || r.Start.Byte > r.End.Byte {
		return ""
	}
	return string(f.Bytes[r.Start.Byte:r.End.Byte])
}

// PartRanges returns the source range of each part of a native string
// template, in order, or nil when expr is not one. The ranges line up with
// the parts eval.Parts returns when it reports no directive.
func PartRanges(expr hcl.Expression) []hcl.Range {
	t, ok := expr.(*hclsyntax.TemplateExpr)
	if !ok {
		return nil
	}
	out := make([]hcl.Range, len(t.Parts))
	for i, p := range t.Parts {
		out[i] = p.Range()
	}
	return out
}

// LiteralPos narrows r, the range of the literal text lit, to the character
// at byte offset off of lit when the source spells lit verbatim (no escapes);
// otherwise it returns r unchanged.
func LiteralPos(r hcl.Range, lit string, off int, files map[string]*hcl.File) hcl.Range {
	if Source(r, files) != lit || off < 0 || off > len(lit) {
		return r
	}
	start := r.Start
	for _, c := range lit[:off] {
		start.Byte += len(string(c))
		if c == '\n' {
			start.Line++
			start.Column = 1
			continue
		}
		start.Column++
	}
	end := start
	if off < len(lit) {
		end.Byte++
		end.Column++
	}
	return hcl.Range{Filename: r.Filename, Start: start, End: end}
}
