package table

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/yosida95/uritemplate/v3"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/internal/diagcode"
	"github.com/mcpdecl/mcpdecl/internal/english"
	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/lang"
)

func (c *compiler) compileResources() {
	for _, r := range c.cfg.Resources {
		res := &Resource{DeclRange: r.DeclRange, Name: r.Name}
		res.URI = c.staticString(r.URI)
		c.checkURI(r.URI, res.URI, c.uris)
		if n := c.staticString(r.DisplayName); n != "" {
			res.Name = n
		}
		res.Title = c.staticString(r.Title)
		res.Description = c.staticString(r.Description)
		res.MimeType = c.staticString(r.MimeType)
		res.Icons = c.compileIcons(r.Icons)
		res.Annotations = c.resourceAnnotations(r.Audience, r.Priority)
		c.resourceContent(r, res)
		c.table.Resources = append(c.table.Resources, res)
	}
}

func (c *compiler) checkURI(attr *hcl.Attribute, uri string, seen map[string]hcl.Range) {
	if attr == nil || uri == "" {
		return
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme == "" {
		c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), "Invalid resource URI",
			"%q is not an absolute URI; a resource URI needs a scheme, as in \"library://policy\" or \"file:///srv/notes.md\".", uri)})
		return
	}
	if prev, dup := seen[uri]; dup {
		c.add(hcl.Diagnostics{diagcode.Relate(errorf(attr.Expr.Range(), "Duplicate resource URI",
			"The URI %q is already served by the resource declared at %s. Resource URIs must be unique.", uri, prev), prev)})
		return
	}
	seen[uri] = attr.Range
}

func (c *compiler) resourceContent(r *lang.Resource, res *Resource) {
	res.Text = c.staticString(r.Text)
	res.Blob = c.staticString(r.Blob)
	if r.Blob != nil && res.Blob != "" {
		if _, err := base64.StdEncoding.DecodeString(res.Blob); err != nil {
			c.add(hcl.Diagnostics{errorf(r.Blob.Expr.Range(), "Invalid blob", "blob must be base64 data (use filebase64(\"file\") to read a binary file): %s.", err)})
		}
	}
	if r.File != nil {
		res.File = c.configFile(r.File, "Resource file")
	}
	if size := c.staticValue(r.Size, cty.Number); size != cty.NilVal && size.IsKnown() && !size.IsNull() {
		res.Size, _ = size.AsBigFloat().Int64()
	}
	where := fmt.Sprintf("the resource %q", r.Name)
	uses := map[string]bool{}
	newScope := func() *adapter.Scope {
		scope := c.withAuth(c.scope(&Args{Type: cty.EmptyObject, Env: eval.EnvType(nil)}, where), uses)
		scope.Names.NoArgsHint = fmt.Sprintf("A resource has a fixed URI and takes no arguments. To read a value from the URI, "+
			"make it a resource_template with a variable, as in uri_template = \"%s/{name}\", and use args.name.", exampleURI(res.URI))
		return scope
	}
	res.Steps = c.compileSteps(r.Steps, fmt.Sprintf("resource %q", r.Name), nil, newScope, 0)
	var env []eval.EnvField
	if r.Call != nil {
		res.Kind = r.Call.Kind
		res.Action = c.compileCall(r.Call, fmt.Sprintf("resource %q", r.Name), c.scopeWithSteps(newScope, r.Steps))
		env = c.resultEnv(r.Call.Kind)
	}
	env = append(env, c.ownerStepsEnv(r.Steps)...)
	env = append(env, c.authEnv()...)
	res.Answer = c.compileAnswer(first(r.Result), r.Errors, env, nil, r.Call != nil || len(r.Steps) > 0)
	res.Access = c.primitiveAccess(r.Scopes, fmt.Sprintf("The resource %q", r.Name))
	res.UsesIdentity = len(uses) > 0 || answerReadsAuth(&res.Answer)
	res.CacheScope = c.cacheScope(r.CacheScope, fmt.Sprintf("The resource %q", r.Name), res.UsesIdentity, r.Call, r.Steps)
	if r.Call == nil && len(r.Result) > 0 {
		c.add(hcl.Diagnostics{errorf(r.Result[0].DeclRange, "Result without a call",
			"A result block maps the answer of a call; this resource has static content. Remove the result block.")})
	}
}

// exampleURI is the resource's URI without a trailing slash, or an
// example when it has none.
func exampleURI(uri string) string {
	if uri == "" {
		return "notes://items"
	}
	for len(uri) > 1 && uri[len(uri)-1] == '/' {
		uri = uri[:len(uri)-1]
	}
	return uri
}

// configFile resolves a file path relative to the config file and checks
// that the file is there, so a typo is found before serving. what names
// the file in messages ("Resource file").
func (c *compiler) configFile(attr *hcl.Attribute, what string) string {
	p := c.staticString(attr)
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(attr.Range.Filename), p)
	}
	info, err := os.Stat(p)
	switch {
	case err != nil || info.IsDir():
		c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), what+" not found",
			"%s is not a readable file. Paths are relative to the configuration file.", p)})
	case info.Mode().IsRegular() && info.Size() > eval.MaxFileBytes:
		c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), what+" too large",
			"%s holds %d bytes; %s is sent whole in one message, and may hold at most 10 MiB. Serve a large file through a backend instead.", p, info.Size(), english.A(strings.ToLower(what)))})
	}
	return p
}

func (c *compiler) resourceAnnotations(audience, priority *hcl.Attribute) map[string]any {
	out := map[string]any{}
	for _, a := range c.stringListAttr(audience) {
		if a != "user" && a != "assistant" {
			c.add(hcl.Diagnostics{errorf(audience.Expr.Range(), "Invalid audience", "An audience is a list of \"user\" and \"assistant\", not %q.", a)})
		}
	}
	if aud := c.stringListAttr(audience); len(aud) > 0 {
		out["audience"] = toAnySlice(aud)
	}
	if p := c.staticValue(priority, cty.Number); p != cty.NilVal && p.IsKnown() && !p.IsNull() {
		f, _ := p.AsBigFloat().Float64()
		if f < 0 || f > 1 {
			c.add(hcl.Diagnostics{errorf(priority.Expr.Range(), "Invalid priority", "priority is a number from 0 (least important) to 1 (most important).")})
		}
		out["priority"] = f
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func toAnySlice(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

func (c *compiler) compileTemplates() {
	seen := map[string]hcl.Range{}
	for _, t := range c.cfg.Templates {
		tmpl := &Template{DeclRange: t.DeclRange, Name: t.Name}
		tmpl.URITemplate = c.staticString(t.URITemplate)
		if n := c.staticString(t.DisplayName); n != "" {
			tmpl.Name = n
		}
		tmpl.Title = c.staticString(t.Title)
		tmpl.Description = c.staticString(t.Description)
		tmpl.MimeType = c.staticString(t.MimeType)
		tmpl.Icons = c.compileIcons(t.Icons)
		tmpl.Annotations = c.resourceAnnotations(t.Audience, t.Priority)
		tmpl.Variables = c.templateVariables(t, seen)
		args := c.templateArgs(t, tmpl.Variables)
		tmpl.Args = c.compileArgs(args, t.Validations, fmt.Sprintf("The resource template %q", t.Name))
		c.templateContent(t, tmpl)
		c.table.Templates = append(c.table.Templates, tmpl)
	}
}

func (c *compiler) templateVariables(t *lang.ResourceTemplate, seen map[string]hcl.Range) []string {
	if tmpl := tmplString(c, t); tmpl != "" {
		parsed, err := uritemplate.New(tmpl)
		if err != nil {
			c.add(hcl.Diagnostics{errorf(t.URITemplate.Expr.Range(), "Invalid URI template",
				"%q is not a valid RFC 6570 URI template: %s. Variables are written in braces, as in \"library://books/{isbn}\".", tmpl, err)})
			return nil
		}
		if prev, dup := seen[tmpl]; dup {
			c.add(hcl.Diagnostics{diagcode.Relate(errorf(t.URITemplate.Expr.Range(), "Duplicate URI template",
				"The URI template %q is already declared at %s.", tmpl, prev), prev)})
		}
		seen[tmpl] = t.URITemplate.Range
		vars := parsed.Varnames()
		if len(vars) == 0 {
			c.add(hcl.Diagnostics{errorf(t.URITemplate.Expr.Range(), "URI template without variables",
				"%q has no {variables}; use a resource block for a fixed URI.", tmpl)})
		}
		return vars
	}
	return nil
}

func tmplString(c *compiler, t *lang.ResourceTemplate) string {
	return c.staticString(t.URITemplate)
}

// templateArgs matches declared args to template variables: a declared
// arg must be a variable; an undeclared variable is a required string.
func (c *compiler) templateArgs(t *lang.ResourceTemplate, vars []string) []*lang.Arg {
	declared := map[string]bool{}
	for _, a := range t.Args {
		declared[a.Name] = true
		if vars != nil && !contains(vars, a.Name) {
			c.add(hcl.Diagnostics{errorf(a.NameRange, "Argument is not a template variable",
				"The URI template has no {%s}; its variables are %s.%s Template arguments come from the URI.", a.Name, listNames(vars), rule.DidYouMean(a.Name, vars))})
		}
	}
	args := append([]*lang.Arg{}, t.Args...)
	for _, v := range vars {
		if !declared[v] {
			args = append(args, &lang.Arg{Name: v, DeclRange: t.URITemplate.Range, NameRange: t.URITemplate.Expr.Range(),
				Spec: &lang.ArgSpec{Type: &lang.Type{Kind: lang.KindString}}})
		}
	}
	return args
}

func (c *compiler) templateContent(t *lang.ResourceTemplate, tmpl *Template) {
	uses := map[string]bool{}
	newScope := func() *adapter.Scope {
		scope := c.withAuth(c.scope(tmpl.Args, fmt.Sprintf("the resource template %q", t.Name)), uses)
		scope.Reserved = reservedVars(tmpl.URITemplate)
		return scope
	}
	tmpl.Steps = c.compileSteps(t.Steps, fmt.Sprintf("resource_template %q", t.Name), tmpl.Args, newScope, 0)
	scope := c.scopeWithSteps(newScope, t.Steps)
	if t.Text != nil {
		_, d := scope.CheckDynamic(t.Text, cty.String)
		c.add(d)
		tmpl.Text = t.Text.Expr
	}
	if t.Blob != nil {
		_, d := scope.CheckDynamic(t.Blob, cty.String)
		c.add(d)
		tmpl.Blob = t.Blob.Expr
	}
	var env []eval.EnvField
	if t.Call != nil {
		tmpl.Kind = t.Call.Kind
		tmpl.Action = c.compileCall(t.Call, fmt.Sprintf("resource_template %q", t.Name), scope)
		env = c.resultEnv(t.Call.Kind)
	}
	env = append(env, c.ownerStepsEnv(t.Steps)...)
	env = append(env, c.authEnv()...)
	tmpl.Answer = c.compileAnswer(first(t.Result), t.Errors, env, tmpl.Args, t.Call != nil || len(t.Steps) > 0)
	tmpl.Access = c.primitiveAccess(t.Scopes, fmt.Sprintf("The resource template %q", t.Name))
	tmpl.UsesIdentity = len(uses) > 0 || answerReadsAuth(&tmpl.Answer)
	tmpl.CacheScope = c.cacheScope(t.CacheScope, fmt.Sprintf("The resource template %q", t.Name), tmpl.UsesIdentity, t.Call, t.Steps)
}

// reservedExpr matches an RFC 6570 expression with reserved ("+") or
// fragment ("#") expansion, whose values keep "/" as it is.
var reservedExpr = lazyregexp.New(`\{[+#]([^}]*)\}`)

// reservedVars names the variables of a URI template that are expanded
// with reserved or fragment expansion ({+path}, {#section}).
func reservedVars(tmpl string) map[string]bool {
	out := map[string]bool{}
	for _, m := range reservedExpr.FindAllStringSubmatch(tmpl, -1) {
		for _, v := range strings.Split(m[1], ",") {
			name, _, _ := strings.Cut(strings.TrimSuffix(strings.TrimSpace(v), "*"), ":")
			out[name] = true
		}
	}
	return out
}
