package testrun

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

// target checks what the test calls and sets its arguments and answers.
func (c *checker) target(t *lang.Test, tg *Target) {
	switch {
	case t.Resource != nil:
		uri, ok := c.stringValue(t.Resource)
		if ok && !c.table.HasResource(uri) {
			c.errorf(t.Resource.Expr.Range(), "Unknown resource", "No resource or resource template serves %q.%s", uri, rule.DidYouMean(uri, ResourceURIs(c.table)))
		}
		tg.Resource = uri
		if t.Args != nil {
			c.errorf(t.Args.Range, "Arguments of a resource", "A resource read takes no arguments: a template's values are part of its URI.")
		}
	case t.Call != nil:
		kind, name, ok := c.callRef(t.Call)
		if !ok {
			return
		}
		if kind == "tool" {
			tg.Tool = name
			c.toolArgs(t, name, tg)
		} else {
			tg.Prompt = name
			c.promptArgs(t, name, tg)
		}
	}
	if t.Answers != nil {
		c.answers(t.Answers, tg)
	}
	if t.Auth != nil {
		c.identity(t.Auth, tg)
	}
}

// callRef reads call = tool.<name> or prompt.<name>.
func (c *checker) callRef(attr *hcl.Attribute) (kind, name string, ok bool) {
	trav, diags := hcl.AbsTraversalForExpr(attr.Expr)
	if diags.HasErrors() || len(trav) != 2 {
		c.errorf(attr.Expr.Range(), "Invalid call", "call names what the test calls: tool.<name> or prompt.<name>, as in call = tool.search.")
		return "", "", false
	}
	attrName, isAttr := trav[1].(hcl.TraverseAttr)
	kind = trav.RootName()
	if !isAttr || kind != "tool" && kind != "prompt" {
		c.errorf(attr.Expr.Range(), "Invalid call", "call names a tool or a prompt: tool.<name> or prompt.<name>, not %s.%s", kind, rule.DidYouMean(kind, []string{"tool", "prompt"}))
		return "", "", false
	}
	name = attrName.Name
	switch {
	case kind == "tool" && c.table.Tool(name) == nil:
		c.errorf(attr.Expr.Range(), "Unknown tool", "There is no tool %q.%s", name, rule.DidYouMean(name, ToolNames(c.table)))
		return "", "", false
	case kind == "prompt" && c.table.Prompt(name) == nil:
		c.errorf(attr.Expr.Range(), "Unknown prompt", "There is no prompt %q.%s", name, rule.DidYouMean(name, PromptNames(c.table)))
		return "", "", false
	}
	return kind, name, true
}

// toolArgs checks the arguments against the tool's input schema, so a
// test that cannot reach its tool is found before anything runs.
func (c *checker) toolArgs(t *lang.Test, name string, tg *Target) {
	args := map[string]any{}
	if t.Args != nil {
		v, ok := c.jsonValue(t.Args)
		if !ok {
			return
		}
		obj, isObj := v.(map[string]any)
		if !isObj {
			c.errorf(t.Args.Expr.Range(), "Object expected", "args is an object of argument names and values, such as { query = \"dune\" }.")
			return
		}
		args = obj
	}
	raw, _ := json.Marshal(args)
	tg.Arguments = raw
	tool := c.table.Tool(name)
	if expectsError(t) {
		return // a test of arguments the tool refuses
	}
	if problem := schemaProblem(tool.Args, raw); problem != "" {
		rng := t.Call.Expr.Range()
		if t.Args != nil {
			rng = t.Args.Expr.Range()
		}
		c.errorf(rng, "Arguments do not fit the tool", "The arguments do not match the input schema of tool %q: %s.%s If the test is about such arguments, say so with expect { is_error = true }.",
			name, problem, unknownArgHint(tool.Args, args))
	}
}

// expectsError reports whether the test says is_error = true.
func expectsError(t *lang.Test) bool {
	if len(t.Expect) == 0 || t.Expect[0].IsError == nil {
		return false
	}
	v, diags := t.Expect[0].IsError.Expr.Value(nil)
	return !diags.HasErrors() && v.Type() == cty.Bool && v.IsKnown() && !v.IsNull() && v.True()
}

// schemaProblem is the schema library's complaint about raw, or "".
func schemaProblem(a *table.Args, raw []byte) string {
	schema, err := a.Validator()
	if err != nil {
		return ""
	}
	v, err := jsonschema.UnmarshalJSON(bytesReader(raw))
	if err != nil {
		return err.Error()
	}
	if err := schema.Validate(v); err != nil {
		return violations(err)
	}
	return ""
}

// violations lists a validation error's leaves as "where: what".
func violations(err error) string {
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return oneLine(err.Error())
	}
	var parts []string
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			where := "the arguments"
			if len(e.InstanceLocation) > 0 {
				where = "argument " + strings.Join(e.InstanceLocation, ".")
			}
			parts = append(parts, where+": "+table.SchemaErrorText(e.ErrorKind))
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return strings.Join(parts, "; ")
}

func unknownArgHint(a *table.Args, args map[string]any) string {
	names := argNames(a)
	for given := range args {
		if !contains(names, given) {
			return fmt.Sprintf(" There is no argument %q.%s", given, rule.DidYouMean(given, names))
		}
	}
	return ""
}

func (c *checker) promptArgs(t *lang.Test, name string, tg *Target) {
	tg.PromptArgs = map[string]string{}
	if t.Args == nil {
		return
	}
	names := argNames(c.table.Prompt(name).Args)
	for k, v := range c.stringMap(t.Args) {
		if !contains(names, k) {
			c.errorf(t.Args.Expr.Range(), "Unknown argument", "Prompt %q has no argument %q.%s", name, k, rule.DidYouMean(k, names))
		}
		tg.PromptArgs[k] = v
	}
}

// answers reads the client's answers by question key, each as the client
// sends it (for an elicit: { action = "accept", content = {...} }).
func (c *checker) answers(attr *hcl.Attribute, tg *Target) {
	v, ok := c.jsonValue(attr)
	obj, isObj := v.(map[string]any)
	if !ok || !isObj {
		if ok {
			c.errorf(attr.Expr.Range(), "Object expected", "answers maps question keys to answers, such as { elicit = { action = \"accept\", content = { note = \"ok\" } } }.")
		}
		return
	}
	tg.Answers = map[string]json.RawMessage{}
	for k, a := range obj {
		raw, _ := json.Marshal(a)
		tg.Answers[k] = raw
	}
}

func argNames(a *table.Args) []string {
	out := make([]string, len(a.List))
	for i, arg := range a.List {
		out[i] = arg.Name
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func oneLine(s string) string {
	return string(bytes.Join(bytes.Fields([]byte(s)), []byte(" ")))
}

// ToolNames lists the table's tools, for suggestions.
func ToolNames(t *table.Table) []string {
	out := make([]string, len(t.Tools))
	for i, tool := range t.Tools {
		out[i] = tool.Name
	}
	return out
}

// PromptNames lists the table's prompts, for suggestions.
func PromptNames(t *table.Table) []string {
	out := make([]string, len(t.Prompts))
	for i, p := range t.Prompts {
		out[i] = p.Name
	}
	return out
}

// ResourceURIs lists the URIs and URI templates the table serves, for
// suggestions.
func ResourceURIs(t *table.Table) []string {
	var out []string
	for _, r := range t.Resources {
		out = append(out, r.URI)
	}
	for _, tm := range t.Templates {
		out = append(out, tm.URITemplate)
	}
	return out
}
