package table

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/expr-lang/expr/ast"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/lang"
)

// Step is a compiled `step` block: one call made before its owner's main
// call, in source order. Its answer is steps.<Name> in the HCL expressions
// and expr-lang programs that come after it.
//
// At run time, HCL expressions see the root variable "steps"
// (adapter.Request.Vars["steps"], built with StepsValue): an object with
// one attribute per step of the owner, the step's Value, or null when it
// was skipped or has not run. expr-lang programs see the field "steps" of
// their environment: a map from step name to the step's
// adapter.Result.Fields (a skipped step is left out, and reads as zero
// fields: status 0, body nil).
//
// A step with ForEach makes its call once per item of a list, and
// steps.<Name> is then the list of the answers, in item order: a tuple of
// Values in HCL, a list of field maps for expr-lang; a skipped step is an
// empty list in both.
type Step struct {
	Name string
	// Kind is the adapter kind of Action: "http", "sql" or "shell".
	Kind string
	// Backend names the backend block the call uses; "" for a shell call
	// without one.
	Backend string
	Action  adapter.Action
	// When is the condition to run the step; nil: always. Its environment
	// is WhenEnv.
	When *eval.Program
	// Errors are the step's own error rules, over Env; the first that
	// holds stops the whole call with its message.
	Errors []*ErrorRule
	// Env is the environment of Errors: the step's own answer (the fields
	// of its kind: status, headers, body, text; rows, ...), args and
	// steps (the earlier steps).
	Env reflect.Type
	// WhenEnv is the environment of When: args and steps (the earlier
	// steps).
	WhenEnv reflect.Type
	// Type is the cty type of steps.<Name> in HCL expressions: an object
	// with one attribute per field of its kind, or a list of them for a
	// step with ForEach.
	Type cty.Type
	// ForEach, when not nil, makes the step one call per item of a list.
	ForEach *ForEach
	// Uses names the earlier steps that the step's call, when and error
	// rules refer to, in step order.
	Uses      []string
	DeclRange hcl.Range
}

// Value is one answer of the step as HCL expressions read it,
// steps.<name> (or one item of it, for a step with ForEach): an object
// built from the adapter's
// Result.Fields, whatever Go types the adapter used (ints, string maps,
// rows), read as JSON values; numbers keep the digits the backend wrote.
func (s *Step) Value(fields map[string]any) (cty.Value, error) {
	at := s.answerType()
	if !at.IsObjectType() {
		return cty.EmptyObjectVal, nil
	}
	attrs := make(map[string]cty.Value, len(at.AttributeTypes()))
	for name, ty := range at.AttributeTypes() {
		v, err := eval.FromGoJSON(plainJSON(fields[name]), ty)
		if err != nil {
			// A Go type of its own (a time, a driver's value): read it
			// through its JSON form.
			v, err = eval.FromGoJSON(JSONValue(fields[name]), ty)
		}
		if err != nil {
			return cty.NilVal, fmt.Errorf("step %q: %s: %w", s.Name, name, err)
		}
		attrs[name] = v
	}
	return cty.ObjectVal(attrs), nil
}

// StepsValue is the value of the root variable steps for HCL expressions:
// every step of steps, with its value in done, or null when it is not
// there (skipped, or not run yet); an empty list for a step with ForEach.
func StepsValue(steps []*Step, done map[string]cty.Value) cty.Value {
	if len(steps) == 0 {
		return cty.EmptyObjectVal
	}
	attrs := make(map[string]cty.Value, len(steps))
	for _, s := range steps {
		if v, ok := done[s.Name]; ok {
			attrs[s.Name] = v
		} else if s.ForEach != nil {
			attrs[s.Name] = cty.EmptyTupleVal
		} else {
			attrs[s.Name] = cty.NullVal(s.Type)
		}
	}
	return cty.ObjectVal(attrs)
}

// plainJSON turns the Go types adapters put at the top of Result.Fields
// (string maps, string lists, rows) into the shapes of decoded JSON that
// eval.FromGoJSON reads; values inside are decoded JSON already.
func plainJSON(v any) any {
	switch x := v.(type) {
	case int:
		return int64(x)
	case map[string]string:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = e
		}
		return out
	case []string:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return out
	case []map[string]any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return out
	}
	return v
}

// ctyTypeOf is the cty type HCL expressions see for a field of a call
// kind's answer: numbers, strings, bools and string maps keep their type
// (so that misuse is a load-time error); anything else, such as a JSON
// body or rows, is of a type known only when the call runs.
func ctyTypeOf(t reflect.Type) cty.Type {
	switch t.Kind() {
	case reflect.String:
		return cty.String
	case reflect.Bool:
		return cty.Bool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return cty.Number
	case reflect.Map:
		if t.Key().Kind() == reflect.String && t.Elem().Kind() == reflect.String {
			return cty.Map(cty.String)
		}
	}
	return cty.DynamicPseudoType
}

// stepKind is the call kind of a step block; "" when it has no call
// (reported by lang).
func stepKind(s *lang.Step) string {
	if s.Call == nil {
		return ""
	}
	return s.Call.Kind
}

// stepType is the cty object type of a step of the given kind.
func (c *compiler) stepType(kind string) cty.Type {
	attrs := map[string]cty.Type{}
	for _, f := range c.resultEnv(kind) {
		attrs[f.Name] = ctyTypeOf(f.Type)
	}
	return cty.Object(attrs)
}

// stepFieldNames lists the fields of a step of the given kind.
func (c *compiler) stepFieldNames(kind string) []string {
	env := c.resultEnv(kind)
	if len(env) == 0 {
		return nil // an unknown kind, reported where it is written
	}
	out := make([]string, len(env))
	for i, f := range env {
		out[i] = f.Name
	}
	return out
}

// stepView is what the expressions at one place see of an owner's steps:
// the steps that ran before (visible), and, for the others, why they
// cannot be used there (hidden).
type stepView struct {
	visible []*lang.Step
	hidden  map[string]string
	used    map[string]bool
}

// viewBefore is what the call and when of step i see: the steps before
// it. ownAnswer says the view is that of the step's error rules, which
// read the step's own answer by its field names.
func (c *compiler) viewBefore(steps []*lang.Step, i int, ownAnswer bool) stepView {
	v := stepView{visible: steps[:i], hidden: map[string]string{}}
	self := steps[i]
	for _, later := range steps[i+1:] {
		if _, taken := v.hidden[later.Name]; !taken {
			v.hidden[later.Name] = fmt.Sprintf("The step %q runs after %q; move it above %q, or refer to an earlier step.", later.Name, self.Name, self.Name)
		}
	}
	if ownAnswer {
		v.hidden[self.Name] = fmt.Sprintf("An error rule of the step %q reads the step's own answer by its names (%s), not as steps.%s.",
			self.Name, strings.Join(c.stepFieldNames(stepKind(self)), ", "), self.Name)
	} else {
		v.hidden[self.Name] = fmt.Sprintf("The step %q cannot use its own answer in its call or its when: it is not there yet. Refer to an earlier step, or read the answer in the step's error rules or after the step.", self.Name)
	}
	return v
}

// withSteps makes the steps of v visible to the HCL expressions checked
// with s: steps.<name>.<field> is checked as args.<name> is, and typed
// with unknown values so that type errors through a step are found.
func (c *compiler) withSteps(s *adapter.Scope, v stepView) *adapter.Scope {
	keys := make(map[string][]string, len(v.visible))
	attrs := make(map[string]cty.Type, len(v.visible))
	lists := map[string]bool{}
	for _, st := range v.visible {
		keys[st.Name] = c.stepFieldNames(stepKind(st))
		attrs[st.Name] = c.stepValueType(st)
		if st.ForEach != nil {
			lists[st.Name] = true
		}
	}
	s.Names.Extra = append(slices.Clip(s.Names.Extra), eval.Namespace{Root: "steps", What: "step", Keys: keys, Hidden: v.hidden, Used: v.used, Lists: lists})
	extra := maps.Clone(s.Extra)
	if extra == nil {
		extra = map[string]cty.Value{}
	}
	extra["steps"] = cty.UnknownVal(cty.Object(attrs))
	s.Extra = extra
	return s
}

// stepsEnv is the field steps of an expr-lang environment: one struct
// field per visible step, with the fields of its kind.
func (c *compiler) stepsEnv(v stepView) eval.EnvField {
	fields := make([]eval.EnvField, 0, len(v.visible))
	for _, st := range v.visible {
		fields = append(fields, eval.EnvField{Name: st.Name, Type: c.stepEnvType(st)})
	}
	return eval.EnvField{Name: "steps", Type: eval.EnvType(fields), Hidden: v.hidden}
}

// allSteps is the view of the owner's main call, result, error rules and
// content: every step.
func allSteps(steps []*lang.Step) stepView {
	return stepView{visible: steps}
}

// compileSteps compiles an owner's steps. newScope returns a fresh scope of
// the owner (its args); owner names it for messages (`tool "x"`); timeout
// is the owner's deadline.
func (c *compiler) compileSteps(decls []*lang.Step, owner string, args *Args, newScope func() *adapter.Scope, timeout time.Duration) []*Step {
	if len(decls) == 0 {
		return nil
	}
	argsEnv := reflect.Type(eval.EnvType(nil))
	if args != nil {
		argsEnv = args.Env
	}
	out := make([]*Step, 0, len(decls))
	for i, d := range decls {
		st := &Step{Name: d.Name, Kind: stepKind(d), DeclRange: d.DeclRange, Type: c.stepValueType(d)}
		used := map[string]bool{}
		before := c.viewBefore(decls, i, false)
		before.used = used
		elem := cty.NilType
		if d.ForEach != nil {
			st.ForEach, elem = c.compileForEach(d, c.withSteps(newScope(), before))
		}
		argsField := eval.EnvField{Name: "args", Type: argsEnv}
		st.WhenEnv = eval.EnvType([]eval.EnvField{argsField, c.stepsEnv(before)})
		var whenDiags hcl.Diagnostics // reported after the call's, in source order
		if d.When != nil {
			st.When, whenDiags = eval.CompileProgram(d.When, st.WhenEnv, true, c.cfg.Files)
			programSteps(st.When, used)
		}
		if d.Call != nil {
			st.Backend = d.Call.Backend
			scope := c.withSteps(newScope(), before)
			if elem != cty.NilType {
				scope = withEach(scope, elem)
			}
			for _, name := range presentWhen(st.When) {
				delete(scope.MayBeNull, name) // the step runs only when it was given
			}
			st.Action = c.compileCallWithin(d.Call, fmt.Sprintf("%s step %q", owner, d.Name), scope, timeout)
			if st.Backend == "" {
				st.Backend = describedBackend(st.Action)
			}
		}
		c.add(whenDiags)
		own := c.viewBefore(decls, i, true)
		env := append(slices.Clone(c.resultEnv(stepKind(d))), argsField, c.stepsEnv(own))
		if d.ForEach != nil {
			env = append(env, eachField)
		}
		st.Env = eval.EnvType(env)
		for _, r := range d.Errors {
			when, d1 := eval.CompileProgram(r.When, st.Env, true, c.cfg.Files)
			msg, d2 := eval.CompileTemplate(r.Message, st.Env, c.cfg.Files)
			c.add(d1)
			c.add(d2)
			programSteps(when, used)
			templateSteps(msg, used)
			st.Errors = append(st.Errors, &ErrorRule{When: when, Message: msg})
		}
		for _, earlier := range decls[:i] {
			if used[earlier.Name] && !slices.Contains(st.Uses, earlier.Name) {
				st.Uses = append(st.Uses, earlier.Name)
			}
		}
		out = append(out, st)
	}
	return out
}

// presentWhen names the arguments a step's when proves were given: each
// args.<name> != nil (or nil != args.<name>) that the condition requires,
// alone or joined to others by && (and).
func presentWhen(p *eval.Program) []string {
	if p == nil || p.Program == nil {
		return nil
	}
	var out []string
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		b, ok := n.(*ast.BinaryNode)
		if !ok {
			return
		}
		switch b.Operator {
		case "&&", "and":
			walk(b.Left)
			walk(b.Right)
		case "!=":
			arg, other := b.Left, b.Right
			if _, isNil := arg.(*ast.NilNode); isNil {
				arg, other = other, arg
			}
			if _, isNil := other.(*ast.NilNode); !isNil {
				return
			}
			if name := argName(arg); name != "" {
				out = append(out, name)
			}
		}
	}
	walk(p.Node())
	return out
}

// argName is x of a node args.x, else "".
func argName(n ast.Node) string {
	m, ok := n.(*ast.MemberNode)
	if !ok {
		return ""
	}
	id, ok := m.Node.(*ast.IdentifierNode)
	if !ok || id.Value != "args" {
		return ""
	}
	if s, ok := m.Property.(*ast.StringNode); ok {
		return s.Value
	}
	return ""
}

// describedBackend is the backend a compiled action names (a shell call's
// backend = "..." attribute), or "".
func describedBackend(a adapter.Action) string {
	if a == nil {
		return ""
	}
	name, _ := a.Describe()["backend"].(string)
	return name
}

// programSteps records the steps a program names (steps.<name>).
func programSteps(p *eval.Program, used map[string]bool) {
	if p == nil || p.Program == nil {
		return
	}
	node := p.Node()
	ast.Walk(&node, stepVisitor(used))
}

func templateSteps(t *eval.Template, used map[string]bool) {
	if t == nil {
		return
	}
	for _, part := range t.Parts {
		programSteps(part.Program, used)
	}
}

// stepVisitor records the name in each steps.<name> member access.
type stepVisitor map[string]bool

func (v stepVisitor) Visit(node *ast.Node) {
	m, ok := (*node).(*ast.MemberNode)
	if !ok {
		return
	}
	if id, ok := m.Node.(*ast.IdentifierNode); ok && id.Value == "steps" {
		if name, ok := m.Property.(*ast.StringNode); ok {
			v[name.Value] = true
		}
	}
}

// scopeWithSteps is a fresh scope of the owner in which every step is
// visible: that of its main call, content, text and messages. Without
// steps it is the owner's scope as it was.
func (c *compiler) scopeWithSteps(newScope func() *adapter.Scope, steps []*lang.Step) *adapter.Scope {
	s := newScope()
	if len(steps) == 0 {
		return s
	}
	return c.withSteps(s, allSteps(steps))
}

// ownerStepsEnv is the steps field of the owner's result and error rules:
// every step; none when the owner has no steps.
func (c *compiler) ownerStepsEnv(steps []*lang.Step) []eval.EnvField {
	if len(steps) == 0 {
		return nil
	}
	return []eval.EnvField{c.stepsEnv(allSteps(steps))}
}
