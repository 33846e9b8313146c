// Package checktest helps the adapter tests: it parses a config snippet
// holding backend and call blocks, compiles them with an adapter, and
// renders diagnostics as short comparable strings.
package checktest

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/eval"
)

// Filename is the name the snippets are parsed under.
const Filename = "test.hcl"

// ArgsType is the type of args in every test scope.
var ArgsType = cty.Object(map[string]cty.Type{
	"query":   cty.String,
	"status":  cty.String,
	"n":       cty.Number,
	"limit":   cty.Number,
	"flag":    cty.Bool,
	"isbn":    cty.String,
	"dir":     cty.String,
	"tags":    cty.List(cty.String),
	"filters": cty.Map(cty.String),
})

// Scope returns a scope with the args of ArgsType, the variables base_url
// ("https://api.example.com") and region ("eu"), and env() allowed for
// TOKEN (unknown, as during validate).
func Scope(f *hcl.File) *adapter.Scope {
	var args []string
	for name := range ArgsType.AttributeTypes() {
		args = append(args, name)
	}
	return &adapter.Scope{
		Names: &eval.Names{Args: args, ArgsWhere: `the tool "t"`, Vars: []string{"base_url", "region"}},
		Static: &eval.Static{
			Vars: map[string]cty.Value{
				"base_url": cty.StringVal("https://api.example.com"),
				"region":   cty.StringVal("eu"),
			},
			Env: &eval.Env{Allowed: []string{"TOKEN"}},
		},
		ArgsType: ArgsType,
		ArgsEnv:  reflect.TypeFor[map[string]any](),
		Files:    map[string]*hcl.File{Filename: f},
	}
}

// StepType is the type of the answer of the step "prev" in a scope made
// WithSteps: that of an HTTP call.
var StepType = cty.Object(map[string]cty.Type{
	"status":  cty.Number,
	"headers": cty.Map(cty.String),
	"body":    cty.DynamicPseudoType,
	"text":    cty.String,
})

// WithSteps makes s the scope of a call after one step, "prev", as the
// compiler makes it: steps.prev.<field> is checked like args.<name>, and
// its value is known only when the call runs.
func WithSteps(s *adapter.Scope) {
	s.Names.Extra = append(s.Names.Extra, eval.Namespace{Root: "steps", What: "step",
		Keys: map[string][]string{"prev": {"status", "headers", "body", "text"}}})
	if s.Extra == nil {
		s.Extra = map[string]cty.Value{}
	}
	s.Extra["steps"] = cty.UnknownVal(cty.Object(map[string]cty.Type{"prev": StepType}))
}

// StepsVars are the Request.Vars of a call after the step "prev" (see
// WithSteps) that answered with body.
func StepsVars(body cty.Value) map[string]cty.Value {
	prev := cty.ObjectVal(map[string]cty.Value{
		"status": cty.NumberIntVal(200), "headers": cty.MapValEmpty(cty.String),
		"body": body, "text": cty.StringVal(""),
	})
	return map[string]cty.Value{"steps": cty.ObjectVal(map[string]cty.Value{"prev": prev})}
}

// Compiled is the outcome of compiling a snippet.
type Compiled struct {
	Backends map[string]adapter.Backend
	Actions  []adapter.Action
	Diags    hcl.Diagnostics
	// Static is the static part of the scope the calls were compiled in.
	Static *eval.Static
}

// Compile parses src, compiles every `backend "<kind>" "<name>"` block and
// then every `<kind> ["<backend>"] { ... }` call block with a, handing each
// call the backend it names (by label, or by a literal backend attribute).
func Compile(t *testing.T, a adapter.Adapter, src string) *Compiled {
	t.Helper()
	return CompileScoped(t, a, src, nil)
}

// CompileScoped is Compile with the scope changed by adjust (when not nil)
// first, as WithSteps does.
func CompileScoped(t *testing.T, a adapter.Adapter, src string, adjust func(*adapter.Scope)) *Compiled {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(src), Filename, hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parse: %s", diags.Error())
	}
	kind := a.Info().Name
	schema := &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "backend", LabelNames: []string{"kind", "name"}},
		{Type: kind, LabelNames: callLabels(a)},
	}}
	content, diags := f.Body.Content(schema)
	if diags.HasErrors() {
		t.Fatalf("decode: %s", diags.Error())
	}
	s := Scope(f)
	if adjust != nil {
		adjust(s)
	}
	out := &Compiled{Backends: map[string]adapter.Backend{}, Static: s.Static}
	for _, b := range content.Blocks.OfType("backend") {
		be, d := a.CompileBackend(&adapter.BackendBlock{Name: b.Labels[1], Body: b.Body, DeclRange: b.DefRange, Scope: s})
		out.Diags = append(out.Diags, d...)
		out.Backends[b.Labels[1]] = be
	}
	for _, b := range content.Blocks.OfType(kind) {
		name := ""
		if len(b.Labels) > 0 {
			name = b.Labels[0]
		} else if attr, ok := b.Body.(*hclsyntax.Body).Attributes["backend"]; ok {
			if v, d := attr.Expr.Value(nil); !d.HasErrors() && v.Type() == cty.String {
				name = v.AsString()
			}
		}
		act, d := a.CompileCall(&adapter.CallBlock{
			Owner: `tool "t"`, Backend: out.Backends[name], Body: b.Body,
			DeclRange: b.DefRange, TypeRange: b.TypeRange, Scope: s,
		})
		out.Diags = append(out.Diags, d...)
		out.Actions = append(out.Actions, act)
	}
	for _, d := range out.Diags {
		if d.Subject == nil {
			t.Errorf("diagnostic %q has no subject", d.Summary)
		}
		if d.Detail == "" {
			t.Errorf("diagnostic %q has no detail", d.Summary)
		}
	}
	return out
}

func callLabels(a adapter.Adapter) []string {
	if a.Info().NeedsBackend {
		return []string{"backend"}
	}
	return nil
}

// Format renders diagnostics as "line:col Summary", with a "warning: "
// prefix for warnings, in order.
func Format(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		s := d.Summary
		if d.Subject != nil {
			s = fmt.Sprintf("%d:%d %s", d.Subject.Start.Line, d.Subject.Start.Column, d.Summary)
		}
		if d.Severity == hcl.DiagWarning {
			s = "warning: " + s
		}
		out = append(out, s)
	}
	return out
}

// WithEach makes s the scope of the call of a step with for_each, as the
// compiler makes it: each.value (of a type known only when the call runs)
// and each.index, known only when the call runs.
func WithEach(s *adapter.Scope) {
	s.Names.Extra = append(s.Names.Extra, eval.Namespace{Root: "each", What: "field",
		Keys: map[string][]string{"value": nil, "index": nil}})
	if s.Extra == nil {
		s.Extra = map[string]cty.Value{}
	}
	s.Extra["each"] = cty.UnknownVal(cty.Object(map[string]cty.Type{"value": cty.DynamicPseudoType, "index": cty.Number}))
}

// EachVars are the Request.Vars of the call of one item of a step with
// for_each (see WithEach).
func EachVars(value cty.Value, index int) map[string]cty.Value {
	return map[string]cty.Value{"each": cty.ObjectVal(map[string]cty.Value{"value": value, "index": cty.NumberIntVal(int64(index))})}
}
