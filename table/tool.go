package table

import (
	"fmt"
	"math/big"
	"reflect"
	"sort"
	"time"

	"github.com/expr-lang/expr/ast"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/internal/parallel"
	"github.com/mcpdecl/mcpdecl/lang"
)

func (c *compiler) compileTools(ts []*lang.Tool) {
	tools := make([]*Tool, len(ts))
	forks := make([]*compiler, len(ts))
	// Tools compile alone (each reads the configuration and writes only
	// its own Tool), so an imported API's thousands compile on every core,
	// each on a fork whose findings join in the tools' order.
	parallel.For(len(tools), func(i int) {
		forks[i] = c.fork()
		tools[i] = forks[i].compileTool(ts[i])
		if c.opts.Slim {
			ts[i].Slim()
		}
	})
	for _, f := range forks {
		c.join(f)
	}
	c.table.Tools = append(c.table.Tools, tools...)
}

func (c *compiler) compileTool(t *lang.Tool) *Tool {
	where := fmt.Sprintf("The tool %q", t.Name)
	tool := &Tool{Name: c.shareStr(t.Name), DeclRange: t.DeclRange}
	tool.Title = c.shareStr(c.staticString(t.Title))
	tool.Description = c.shareStr(c.staticString(t.Description))
	tool.Icons = c.compileIcons(t.Icons)
	tool.Timeout = c.duration(t.Timeout)
	if len(t.Annotations) > 0 {
		tool.Annotations = c.compileAnnotations(t.Annotations[0])
	}
	if t.InputSchema != nil {
		tool.Args = c.argsFromSchema(t, where)
		tool.HeaderParams = c.pendingHeaders
	} else {
		tool.Args = c.compileArgs(t.Args, t.Validations, where)
	}
	uses := map[string]bool{}
	scope := c.scope(tool.Args, fmt.Sprintf("the tool %q", t.Name)) // questions: asked before auth.* is read
	newScope := func() *adapter.Scope { return c.withAuth(c.scope(tool.Args, fmt.Sprintf("the tool %q", t.Name)), uses) }
	tool.Steps = c.compileSteps(t.Steps, fmt.Sprintf("tool %q", t.Name), tool.Args, newScope, tool.Timeout)
	callScope := c.scopeWithSteps(newScope, t.Steps)
	var env []eval.EnvField
	if t.Call != nil {
		tool.Kind = t.Call.Kind
		tool.Action = c.compileCallWithin(t.Call, fmt.Sprintf("tool %q", t.Name), callScope, tool.Timeout)
		env = c.resultEnv(t.Call.Kind)
	}
	tool.Questions = c.compileQuestions(t.Elicit, t.Sample, t.Roots, scope)
	tool.Task = c.compileTask(t.Task, where)
	c.checkTask(t, tool)
	env = append(env, questionEnv(tool.Questions)...)
	env = append(env, c.ownerStepsEnv(t.Steps)...)
	env = append(env, c.authEnv()...)
	tool.Answer = c.compileAnswer(first(t.Result), t.Errors, env, tool.Args, t.Call != nil || len(t.Steps) > 0)
	tool.Content = c.compileContent(t.Content, callScope)
	if tool.Result != nil && first(t.Result).OutputSchema != nil {
		tool.OutputSchema = c.outputSchema(first(t.Result).OutputSchema)
		tool.OutputDeclared = true
		c.checkTruncatedAllowed(tool, first(t.Result))
	} else if tool.Result != nil && tool.Result.Structured != nil {
		tool.OutputSchema = inferOutputSchema(tool.Result.Structured, tool.Result.MaxItems > 0)
	}
	tool.Access = c.primitiveAccess(t.Scopes, where)
	tool.UsesIdentity = len(uses) > 0 || answerReadsAuth(&tool.Answer)
	return tool
}

func first[T any](list []*T) *T {
	if len(list) == 0 {
		return nil
	}
	return list[0]
}

func (c *compiler) resultEnv(kind string) []eval.EnvField {
	if a, ok := c.reg.Lookup(kind); ok {
		return a.Info().ResultEnv
	}
	return nil
}

// compileAnswer compiles the error rules and the result block against the
// environment of the call kind plus args.
func (c *compiler) compileAnswer(res *lang.Result, rules []*lang.ErrorRule, env []eval.EnvField, args *Args, hasCall bool) Answer {
	fields := append([]eval.EnvField{}, env...)
	argsEnv := reflect.Type(eval.EnvType(nil))
	if args != nil {
		argsEnv = args.Env
	}
	fields = append(fields, eval.EnvField{Name: "args", Type: argsEnv})
	ans := Answer{Env: eval.EnvType(fields)}
	for _, r := range rules {
		if !hasCall {
			c.add(hcl.Diagnostics{errorf(r.DeclRange, "Error rule without a call",
				"An error block inspects the answer of a call (http, sql or shell) or of a step, and this block makes none. Remove it, or use a validation block to check arguments.")})
			continue
		}
		when, d1 := eval.CompileProgram(r.When, ans.Env, true, c.cfg.Files)
		msg, d2 := eval.CompileTemplate(r.Message, ans.Env, c.cfg.Files)
		c.add(d1)
		c.add(d2)
		ans.Errors = append(ans.Errors, &ErrorRule{When: when, Message: msg})
	}
	if res != nil {
		ans.Result = c.compileResult(res, ans.Env)
	}
	return ans
}

func (c *compiler) compileResult(res *lang.Result, env reflect.Type) *ResultMap {
	out := &ResultMap{}
	if res.Structured == nil && res.Text == nil {
		c.add(hcl.Diagnostics{errorf(res.DeclRange, "Empty result block",
			"A result block needs structured (an expression for structuredContent), text (the text content), or both.")})
	}
	if res.Structured != nil {
		p, d := eval.CompileProgram(res.Structured, env, false, c.cfg.Files)
		c.add(d)
		out.Structured = p
	}
	if res.Text != nil {
		c.compileResultText(out, res.Text, env)
	}
	if res.IsError != nil {
		p, d := eval.CompileProgram(res.IsError, env, true, c.cfg.Files)
		c.add(d)
		out.IsError = p
	}
	out.MaxBytes = c.positiveInt(res.MaxBytes, "max_bytes must be a positive number of bytes, for example 20000.")
	out.MaxItems = c.positiveInt(res.MaxItems, "max_items must be a positive number of items, for example 50.")
	if res.MaxItems != nil && res.Structured == nil {
		c.add(hcl.Diagnostics{errorf(res.MaxItems.NameRange, "max_items without structured", "max_items cuts the lists of the structured result; add structured, or use max_bytes to cut the text.")})
	}
	return out
}

// positiveInt evaluates an optional static whole number above zero.
func (c *compiler) positiveInt(attr *hcl.Attribute, detail string) int {
	v := c.staticValue(attr, cty.Number)
	if v == cty.NilVal || !v.IsKnown() || v.IsNull() {
		return 0
	}
	n, acc := v.AsBigFloat().Int64()
	if n <= 0 || acc != big.Exact {
		c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), "Invalid "+attr.Name, "%s", detail)})
		return 0
	}
	return int(n)
}

// inferOutputSchema describes the object a structured expression builds
// when it is an object literal ({'books': body}): its keys are always
// there, and truncated may be when max_items can cut its lists. Other
// expressions say nothing certain, so no schema is given.
func inferOutputSchema(p *eval.Program, cuts bool) map[string]any {
	var keys []string
	switch n := p.Node().(type) {
	case *ast.MapNode:
		for _, pair := range n.Pairs {
			key, ok := pair.(*ast.PairNode).Key.(*ast.StringNode)
			if !ok {
				return nil
			}
			keys = append(keys, key.Value)
		}
	case *ast.ConstantNode:
		m, ok := n.Value.(map[string]any)
		if !ok {
			return nil
		}
		for k := range m {
			keys = append(keys, k)
		}
	default:
		return nil
	}
	props := map[string]any{}
	required := make([]any, 0, len(keys))
	sort.Strings(keys)
	for _, k := range keys {
		props[k] = map[string]any{}
		required = append(required, k)
	}
	if _, taken := props["truncated"]; cuts && !taken {
		props["truncated"] = map[string]any{"type": "boolean"}
	}
	return map[string]any{"type": "object", "properties": props, "required": required}
}

// checkTruncatedAllowed: max_items marks a cut object with "truncated":
// true, which a declared output schema closed to other properties would
// reject, turning every cut answer into an error.
func (c *compiler) checkTruncatedAllowed(tool *Tool, res *lang.Result) {
	schema := tool.OutputSchema
	if tool.Result.MaxItems == 0 || schema == nil || res.MaxItems == nil {
		return
	}
	if props, _ := schema["properties"].(map[string]any); props != nil && props["truncated"] != nil {
		return
	}
	for _, key := range []string{"additionalProperties", "unevaluatedProperties"} {
		if schema[key] == false {
			c.add(hcl.Diagnostics{errorf(res.MaxItems.NameRange, "max_items needs truncated in the output schema",
				"When max_items cuts a list, the answer gets \"truncated\": true, which output_schema does not allow (%s is false). Add truncated = { type = \"boolean\" } to its properties.", key)})
			return
		}
	}
}

// compileResultText compiles `text`: a template when it holds {{ }}
// pieces, otherwise an expr-lang expression.
func (c *compiler) compileResultText(out *ResultMap, attr *hcl.Attribute, env reflect.Type) {
	if v, d := attr.Expr.Value(nil); !d.HasErrors() && v.Type() == cty.String && v.IsKnown() && !v.IsNull() && eval.IsTemplate(v.AsString()) {
		t, d := eval.CompileTemplate(attr, env, c.cfg.Files)
		c.add(d)
		out.TextTemplate = t
		return
	}
	p, d := eval.CompileProgram(attr, env, false, c.cfg.Files)
	c.add(d)
	out.Text = p
}

func (c *compiler) outputSchema(attr *hcl.Attribute) map[string]any {
	v := c.staticValue(attr, cty.DynamicPseudoType)
	if v == cty.NilVal || !v.IsWhollyKnown() {
		return nil
	}
	j, err := eval.ToJSON(v)
	doc, ok := j.(map[string]any)
	if err != nil || !ok {
		c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), "Invalid output schema", "output_schema must be a JSON Schema object, as in { type = \"object\", properties = { ... } }.")})
		return nil
	}
	if doc["type"] != "object" {
		c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), "Invalid output schema", "An MCP output schema describes structuredContent, which is an object: set type = \"object\".")})
	}
	if _, err := compileJSONSchema("mcpdecl:output-schema.json", doc); err != nil {
		c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), "Invalid output schema", "output_schema is not a valid JSON Schema: %s.", err)})
	}
	return doc
}

func (c *compiler) compileAnnotations(a *lang.Annotations) map[string]any {
	out := map[string]any{}
	if t := c.staticString(a.Title); t != "" {
		out["title"] = t
	}
	for _, h := range []struct {
		attr *hcl.Attribute
		key  string
	}{{a.ReadOnly, "readOnlyHint"}, {a.Destructive, "destructiveHint"}, {a.Idempotent, "idempotentHint"}, {a.OpenWorld, "openWorldHint"}} {
		if v, ok := c.staticBool(h.attr); ok {
			out[h.key] = v
		}
	}
	if ro, _ := c.staticBool(a.ReadOnly); ro {
		if d, set := c.staticBool(a.Destructive); set && d {
			c.add(hcl.Diagnostics{errorf(a.Destructive.NameRange, "Contradicting annotations",
				"A read-only tool cannot be destructive. Set read_only = false or destructive = false.")})
		}
	}
	return c.shareDoc(out)
}

func (c *compiler) duration(attr *hcl.Attribute) time.Duration {
	s := c.staticString(attr)
	if s == "" {
		return 0
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), "Invalid duration",
			"%q is not a positive duration; write a number with a unit, for example \"5s\" or \"1m30s\".", s)})
	}
	return d
}

// compileContent checks each content block's expressions as strings over
// the arguments.
func (c *compiler) compileContent(blocks []*lang.Content, scope *adapter.Scope) []*ContentItem {
	var out []*ContentItem
	for _, b := range blocks {
		item := &ContentItem{Kind: b.Kind}
		for _, f := range []struct {
			attr *hcl.Attribute
			dst  *hcl.Expression
		}{{b.Text, &item.Text}, {b.Data, &item.Data}, {b.Blob, &item.Blob}, {b.MimeType, &item.MimeType},
			{b.URI, &item.URI}, {b.Name, &item.Name}, {b.Description, &item.Description}} {
			if f.attr == nil {
				continue
			}
			_, d := scope.CheckDynamic(f.attr, cty.String)
			c.add(d)
			*f.dst = f.attr.Expr
		}
		out = append(out, item)
	}
	return out
}

// compileQuestions compiles the elicit, sample and roots blocks of a
// tool, checking that their keys are unique.
func (c *compiler) compileQuestions(elicits []*lang.Elicit, samples []*lang.Sample, roots []*lang.Roots, scope *adapter.Scope) []*Question {
	var out []*Question
	seen := map[string]hcl.Range{}
	add := func(q *Question, keyAttr *hcl.Attribute, decl hcl.Range) {
		at := decl
		if keyAttr != nil {
			at = keyAttr.Expr.Range()
		}
		if prev, dup := seen[q.Key]; dup {
			c.add(hcl.Diagnostics{errorf(at, "Duplicate question key",
				"The key %q is already used by the question at %s; give each question its own key.", q.Key, prev)})
		}
		seen[q.Key] = decl
		out = append(out, q)
	}
	for i, e := range elicits {
		q := c.compileElicit(e, scope)
		q.Key, q.Round = c.keyOr(e.Key, numbered("elicit", i)), c.round(e.Round)
		add(q, e.Key, e.DeclRange)
	}
	for i, b := range samples {
		q := c.compileSample(b, scope)
		q.Key, q.Round = c.keyOr(b.Key, numbered("sample", i)), c.round(b.Round)
		add(q, b.Key, b.DeclRange)
	}
	for i, r := range roots {
		add(&Question{Kind: "roots", Key: c.keyOr(r.Key, numbered("roots", i)), Round: c.round(r.Round)}, r.Key, r.DeclRange)
	}
	return out
}

// numbered names the i-th question of a kind: elicit, elicit2, ...
func numbered(kind string, i int) string {
	if i == 0 {
		return kind
	}
	return fmt.Sprintf("%s%d", kind, i+1)
}

func (c *compiler) round(attr *hcl.Attribute) int {
	if n := c.positiveInt(attr, "round must be a whole number from 1 up: round 2 is asked once round 1 is answered."); n > 0 {
		return n
	}
	return 1
}

// questionEnv adds what result and error programs see of the answers:
// elicit, sample and roots (the first question of each kind) and answers
// (every answer by key). Each is typed with the names it holds, so that a
// misspelt key (answers.smaple) or field (sample.txt) is a load-time
// error, as a misspelt argument is.
func questionEnv(qs []*Question) []eval.EnvField {
	if len(qs) == 0 {
		return nil
	}
	var byKey, kinds []eval.EnvField
	seen := map[string]bool{}
	for _, q := range qs {
		ty := answerType(q.Kind)
		byKey = append(byKey, eval.EnvField{Name: q.Key, Type: ty})
		if !seen[q.Kind] {
			seen[q.Kind] = true
			kinds = append(kinds, eval.EnvField{Name: q.Kind, Type: ty})
		}
	}
	return append([]eval.EnvField{{Name: "answers", Type: eval.EnvType(byKey)}}, kinds...)
}

// answerFields are the names of an answer of each kind of question (the
// server builds answers with exactly these; roots answer a list).
var answerFields = map[string][]eval.EnvField{
	"elicit": {{Name: "action", Type: reflect.TypeOf("")}, {Name: "content", Type: reflect.TypeOf(map[string]any{})}},
	"sample": {{Name: "text", Type: reflect.TypeOf("")}, {Name: "model", Type: reflect.TypeOf("")},
		{Name: "role", Type: reflect.TypeOf("")}, {Name: "stop_reason", Type: reflect.TypeOf("")}},
}

// answerFieldNames lists the names under an answer of the given kind; nil
// for roots, whose answer is a list.
func answerFieldNames(kind string) []string {
	var out []string
	for _, f := range answerFields[kind] {
		out = append(out, f.Name)
	}
	return out
}

func answerType(kind string) reflect.Type {
	if f, ok := answerFields[kind]; ok {
		return eval.EnvType(f)
	}
	return reflect.TypeOf([]any{})
}

// compileElicit checks the message over the arguments and the requested
// schema, which MCP restricts to a flat object of primitive properties.
func (c *compiler) compileElicit(e *lang.Elicit, scope *adapter.Scope) *Question {
	_, d := scope.CheckDynamic(e.Message, cty.String)
	c.add(d)
	out := &Question{Kind: "elicit", Message: e.Message.Expr}
	v := c.staticValue(e.RequestedSchema, cty.DynamicPseudoType)
	if v == cty.NilVal || !v.IsWhollyKnown() {
		return out
	}
	j, _ := eval.ToJSON(v)
	doc, ok := j.(map[string]any)
	if !ok || doc["type"] != "object" {
		c.add(hcl.Diagnostics{errorf(e.RequestedSchema.Expr.Range(), "Invalid requested schema",
			"requested_schema is the JSON Schema of the form the user fills in: an object with type = \"object\" and properties of type string, number, integer or boolean.")})
		return out
	}
	if _, err := compileJSONSchema("mcpdecl:requested-schema.json", doc); err != nil {
		c.add(hcl.Diagnostics{errorf(e.RequestedSchema.Expr.Range(), "Invalid requested schema", "requested_schema is not a valid JSON Schema: %s.", err)})
	}
	out.Schema = doc
	return out
}

func (c *compiler) compileSample(b *lang.Sample, scope *adapter.Scope) *Question {
	out := &Question{Kind: "sample", Prompt: b.Prompt.Expr, MaxTokens: 1000}
	_, d := scope.CheckDynamic(b.Prompt, cty.String)
	c.add(d)
	if b.SystemPrompt != nil {
		_, d = scope.CheckDynamic(b.SystemPrompt, cty.String)
		c.add(d)
		out.SystemPrompt = b.SystemPrompt.Expr
	}
	if n := c.positiveInt(b.MaxTokens, "max_tokens must be a positive whole number, for example 500."); n > 0 {
		out.MaxTokens = n
	}
	return out
}

// keyOr returns a static key attribute, or def when absent.
func (c *compiler) keyOr(attr *hcl.Attribute, def string) string {
	if k := c.staticString(attr); k != "" {
		return k
	}
	return def
}
