package table

import (
	"fmt"
	"maps"

	"github.com/hashicorp/hcl/v2"
	"github.com/yosida95/uritemplate/v3"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/internal/english"
	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/lang"
)

func (c *compiler) compilePrompts() {
	for _, p := range c.cfg.Prompts {
		prompt := &Prompt{Name: p.Name, DeclRange: p.DeclRange}
		prompt.Title = c.staticString(p.Title)
		prompt.Description = c.staticString(p.Description)
		prompt.Icons = c.compileIcons(p.Icons)
		for _, a := range p.Args {
			if a.Spec != nil && a.Spec.Type.Kind != lang.KindString {
				c.add(hcl.Diagnostics{errorf(a.Spec.TypeExpr.Expr.Range(), "Prompt arguments are strings",
					"MCP passes prompt arguments as strings, so %q cannot be %s. Remove the type, or convert inside the message, as in tonumber(args.%s).", a.Name, a.Spec.Type, a.Name)})
			}
		}
		prompt.Args = c.compileArgs(p.Args, nil, fmt.Sprintf("The prompt %q", p.Name))
		uses := map[string]bool{}
		scope := c.scope(prompt.Args, fmt.Sprintf("the prompt %q", p.Name)) // questions: asked before auth.* is read
		newScope := func() *adapter.Scope {
			return c.withAuth(c.scope(prompt.Args, fmt.Sprintf("the prompt %q", p.Name)), uses)
		}
		prompt.Questions = c.compileQuestions(p.Elicit, p.Sample, p.Roots, scope)
		prompt.Steps = c.compileSteps(p.Steps, fmt.Sprintf("prompt %q", p.Name), prompt.Args, newScope, 0)
		scope = c.scopeWithSteps(newScope, p.Steps)
		if len(prompt.Questions) > 0 {
			// The messages may use the answers, answers.<key>.
			scope.Names.Extra = append(scope.Names.Extra, answersNamespace(prompt.Questions))
			scope.Extra = maps.Clone(scope.Extra)
			if scope.Extra == nil {
				scope.Extra = map[string]cty.Value{}
			}
			scope.Extra["answers"] = cty.DynamicVal
		}
		for _, m := range p.Messages {
			if msg := c.compileMessage(m, scope); msg != nil {
				prompt.Messages = append(prompt.Messages, msg)
			}
		}
		prompt.Access = c.primitiveAccess(p.Scopes, fmt.Sprintf("The prompt %q", p.Name))
		prompt.UsesIdentity = len(uses) > 0
		c.table.Prompts = append(c.table.Prompts, prompt)
	}
}

// answersNamespace is what answers.<key>.<field> may name in a prompt's
// messages.
func answersNamespace(qs []*Question) eval.Namespace {
	ns := eval.Namespace{Root: "answers", What: "question key", Keys: map[string][]string{}}
	for _, q := range qs {
		ns.Keys[q.Key] = answerFieldNames(q.Kind)
	}
	return ns
}

func (c *compiler) compileMessage(m *lang.Message, scope *adapter.Scope) *Message {
	msg := &Message{Role: m.Role}
	check := func(attr *hcl.Attribute) hcl.Expression {
		if attr == nil {
			return nil
		}
		_, d := scope.CheckDynamic(attr, cty.String)
		c.add(d)
		return attr.Expr
	}
	switch {
	case m.Text != nil:
		msg.Kind, msg.Text = "text", check(m.Text)
	case len(m.Image) > 0:
		msg.Kind, msg.Data, msg.MimeType = "image", check(m.Image[0].Data), c.mediaType(m.Image[0].MimeType, "image/")
	case len(m.Audio) > 0:
		msg.Kind, msg.Data, msg.MimeType = "audio", check(m.Audio[0].Data), c.mediaType(m.Audio[0].MimeType, "audio/")
	case len(m.Resource) > 0:
		r := m.Resource[0]
		msg.Kind, msg.MimeType = "resource", c.staticString(r.MimeType)
		if refersToArgs(r.URI.Expr) {
			msg.URIExpr = check(r.URI)
		} else {
			msg.URI = c.staticString(r.URI)
		}
		msg.Text, msg.Data = check(r.Text), check(r.Blob)
		if r.Text != nil && r.Blob != nil {
			c.add(hcl.Diagnostics{errorf(r.Blob.NameRange, "Conflicting resource content",
				"An embedded resource holds text or blob, not both. Keep one of them.")})
		}
		if msg.Text == nil && msg.Data == nil {
			c.checkOwnResource(r.URI, msg.URI)
		}
	default:
		return nil
	}
	return msg
}

func (c *compiler) mediaType(attr *hcl.Attribute, prefix string) string {
	mt := c.staticString(attr)
	if mt != "" && len(mt) <= len(prefix) || mt != "" && mt[:len(prefix)] != prefix {
		c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), "Invalid MIME type",
			"%q is not %s MIME type; write one such as %q.", mt, english.A(prefix[:len(prefix)-1]), prefix+map[string]string{"image/": "png", "audio/": "wav"}[prefix])})
	}
	return mt
}

// checkOwnResource checks that an embedded resource given only by URI is
// one the server serves, since it will be read through the server itself.
func (c *compiler) checkOwnResource(attr *hcl.Attribute, uri string) {
	if uri == "" {
		return
	}
	var uris []string
	for _, r := range c.cfg.Resources {
		u := c.staticStringQuiet(r.URI)
		if u == uri {
			return
		}
		uris = append(uris, u)
	}
	for _, t := range c.cfg.Templates {
		if tmpl, err := uritemplate.New(c.staticStringQuiet(t.URITemplate)); err == nil && tmpl.Match(uri) != nil {
			return
		}
	}
	c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), "Unknown resource",
		"No resource or resource template serves %q, so the message cannot embed it. Give text or blob inline, or declare the resource.%s", uri, rule.DidYouMean(uri, uris))})
}

// staticStringQuiet evaluates a static string without reporting problems
// (they are reported where the attribute is compiled).
func (c *compiler) staticStringQuiet(attr *hcl.Attribute) string {
	if attr == nil {
		return ""
	}
	v, d := c.staticScope().StaticValue(attr, cty.String)
	if d.HasErrors() || v.IsNull() || !v.IsKnown() {
		return ""
	}
	return v.AsString()
}

// refersToArgs reports whether an expression depends on the call: the
// arguments or the answers of steps.
func refersToArgs(e hcl.Expression) bool {
	for _, tr := range eval.Variables(e) {
		if root := tr.RootName(); root == "args" || root == "steps" {
			return true
		}
	}
	return false
}
