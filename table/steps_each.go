package table

import (
	"fmt"
	"maps"
	"math/big"
	"reflect"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/lang"
)

const (
	// defaultMaxItems bounds the items of a for_each that sets no
	// max_items: a list from a backend may be long, and each item is a
	// call.
	defaultMaxItems = 100
	// maxMaxItems is the highest max_items a step may set.
	maxMaxItems = 1000
)

// ForEach makes a step one call per item of a list: the call and the
// step's error rules see each.value (the item) and each.index (its
// position from 0), and steps.<name> is the list of the answers, in item
// order.
type ForEach struct {
	// Expr gives the list (a list, set or tuple), evaluated once per call
	// with args and the earlier steps, after the step's when.
	Expr hcl.Expression
	// Source is Expr as written, for inspect.
	Source string
	// MaxItems is the longest list the step calls for; a longer one stops
	// the call before any item is called.
	MaxItems int
}

// eachEnvType is the type of each in expr-lang programs.
var eachEnvType = eval.EnvType([]eval.EnvField{
	{Name: "value", Type: eval.AnyType},
	{Name: "index", Type: reflect.TypeFor[int]()},
})

// eachField is the field each of a for_each step's error rules.
var eachField = eval.EnvField{Name: "each", Type: eachEnvType}

// answerType is the cty type of one answer of s (an object with the
// fields of its kind), whether steps.<name> is that answer or a list of
// them.
func (s *Step) answerType() cty.Type {
	if s.Type.IsListType() {
		return s.Type.ElementType()
	}
	return s.Type
}

// stepValueType is the cty type of steps.<name> in HCL: an answer, or a
// list of answers for a step with for_each.
func (c *compiler) stepValueType(s *lang.Step) cty.Type {
	t := c.stepType(stepKind(s))
	if s.ForEach != nil {
		return cty.List(t)
	}
	return t
}

// stepEnvType is the Go type of steps.<name> in expr-lang: a struct with
// the fields of its kind, or a slice of them for a step with for_each.
func (c *compiler) stepEnvType(s *lang.Step) reflect.Type {
	t := eval.EnvType(c.resultEnv(stepKind(s)))
	if s.ForEach != nil {
		return reflect.SliceOf(t)
	}
	return t
}

// compileForEach checks a step's for_each (with the steps before it in
// scope) and its max_items, and returns the element type the list's items
// have for each.value.
func (c *compiler) compileForEach(d *lang.Step, scope *adapter.Scope) (*ForEach, cty.Type) {
	fe := &ForEach{Expr: d.ForEach.Expr, Source: c.sourceOf(d.ForEach.Expr.Range()), MaxItems: c.maxItems(d, scope)}
	why := fmt.Sprintf("for_each gives the items of the step %q, so it cannot use each: each.value is known in the step's call and error rules.", d.Name)
	scope.Names.Extra = append(slices.Clip(scope.Names.Extra), eval.Namespace{Root: "each", What: "field", Keys: map[string][]string{},
		Hidden: map[string]string{"value": why, "index": why}})
	v, diags := scope.CheckDynamic(d.ForEach, cty.DynamicPseudoType)
	c.add(diags)
	if diags.HasErrors() {
		return fe, cty.DynamicPseudoType
	}
	ty := v.Type()
	switch {
	case ty == cty.DynamicPseudoType || ty.IsTupleType():
	case ty.IsListType() || ty.IsSetType():
		return fe, ty.ElementType()
	default:
		c.add(hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "for_each is not a list",
			Detail: fmt.Sprintf("for_each of the step %q must give a list, with one call per item; this gives %s. Write a list, such as args.ids or steps.search.body.items, or [for k, v in <map> : v] for the values of a map.",
				d.Name, adapter.TypeName(ty)),
			Subject: d.ForEach.Expr.Range().Ptr(),
		}})
		return fe, cty.DynamicPseudoType
	}
	if v.IsWhollyKnown() && !v.IsNull() && v.LengthInt() > fe.MaxItems {
		c.add(hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Too many items",
			Detail:   fmt.Sprintf("for_each of the step %q gives %d items, and it may call for at most %d (max_items). Shorten the list, or raise max_items (at most %d).", d.Name, v.LengthInt(), fe.MaxItems, maxMaxItems),
			Subject:  d.ForEach.Expr.Range().Ptr(),
		}})
	}
	return fe, cty.DynamicPseudoType
}

// maxItems is a step's max_items, or the default bound.
func (c *compiler) maxItems(d *lang.Step, scope *adapter.Scope) int {
	if d.MaxItems == nil {
		return defaultMaxItems
	}
	v, diags := scope.StaticValue(d.MaxItems, cty.Number)
	c.add(diags)
	if diags.HasErrors() || v.IsNull() {
		return defaultMaxItems
	}
	n, acc := v.AsBigFloat().Int64()
	if acc != big.Exact || n < 1 || n > maxMaxItems {
		c.add(hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid max_items",
			Detail:   fmt.Sprintf("max_items must be a whole number from 1 to %d (the most calls one step may make); got %s.", maxMaxItems, v.AsBigFloat().Text('g', -1)),
			Subject:  d.MaxItems.Expr.Range().Ptr(),
		}})
		return defaultMaxItems
	}
	return int(n)
}

// withEach makes each visible to the HCL expressions of a for_each step's
// call: each.value (of type elem when the list's type says it) and
// each.index. Like args, each is known only when the call runs, so the
// adapters escape and bind it as they do arguments.
func withEach(s *adapter.Scope, elem cty.Type) *adapter.Scope {
	s.Names.Extra = append(slices.Clip(s.Names.Extra), eval.Namespace{Root: "each", What: "field", Keys: map[string][]string{"value": nil, "index": nil}})
	s.Extra = maps.Clone(s.Extra)
	if s.Extra == nil {
		s.Extra = map[string]cty.Value{}
	}
	s.Extra["each"] = cty.UnknownVal(cty.Object(map[string]cty.Type{"value": elem, "index": cty.Number}))
	return s
}

// sourceOf is the text of a range in the configuration, for inspect.
func (c *compiler) sourceOf(r hcl.Range) string {
	f := c.cfg.Files[r.Filename]
	if f == nil || r.End.Byte > len(f.Bytes) || r.Start.Byte > r.End.Byte {
		return ""
	}
	return string(f.Bytes[r.Start.Byte:r.End.Byte])
}
