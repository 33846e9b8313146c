package openapi

import (
	"fmt"
	"net/url"
	"strings"
)

// call is what a tool's http block is built from.
type call struct {
	path    string // the template, without quotes
	query   []entry
	headers []entry
	body    []entry // attribute name and expression: body, form, raw_body, content_type
	args    []argSpec
	bodyArg *argSpec // the JSON body's argument, if there is one
	notes   []string
}

// tool writes the tool of op, named name; full is the name before
// abbreviation, and when they differ a comment gives the operationId.
func (g *gen) tool(w *writer, name, full string, op *Operation) {
	c := g.buildCall(op)
	w.open("tool", name)
	w.attr("description", str(toolDescription(op)))
	if name != full {
		from := fmt.Sprintf("the operationId %s", str(cleanLine(op.ID)))
		switch {
		case op.MCP.NameBy != "" && snake(cleanLine(op.MCP.Name)) == full:
			from = fmt.Sprintf("the name %s of its %s extension", str(cleanLine(op.MCP.Name)), op.MCP.NameBy)
		case op.ID == "" || snake(cleanLine(op.ID)) != full:
			from = fmt.Sprintf("%s %s", op.Method, str(cleanLine(op.Path)))
		}
		w.comment(fmt.Sprintf("The name is %s abbreviated to %d characters; it comes from %s.", full, maxToolName, from))
	}
	for _, n := range op.Notes {
		w.comment(n)
	}
	for _, n := range c.notes {
		w.comment(n)
	}
	if !g.auth.covers(g.api, op) {
		if g.auth.scheme == nil {
			w.comment(fmt.Sprintf("The document asks for %s here, which the backend does not send (see its comments).", describeRequirements(effectiveSecurity(g.api, op))))
		} else {
			w.comment(fmt.Sprintf("The document asks for %s here; the backend sends only %s.", describeRequirements(effectiveSecurity(g.api, op)), g.auth.scheme.Name))
		}
	}
	writeAnnotations(w, op.Method)
	if c.needsInputSchema() {
		for _, n := range schemaNotes(c.args) {
			w.comment(n)
		}
		w.attr("input_schema", inputSchema(c.args).render(90))
	} else {
		for _, a := range c.args {
			writeArg(w, a)
		}
	}
	w.open("http", g.opts.Backend)
	if op.Method != "GET" {
		w.attr("method", str(op.Method))
	}
	w.attr("path", `"`+c.path+`"`)
	if len(c.query) > 0 {
		w.attr("query", object(c.query))
	}
	if len(c.headers) > 0 {
		w.attr("headers", object(c.headers))
	}
	for _, b := range c.body {
		w.attr(b.k, b.v)
	}
	w.close()
	w.close()
}

func toolDescription(op *Operation) string {
	parts := []string{}
	if op.Deprecated {
		parts = append(parts, "Deprecated.")
	}
	if d := op.MCP.Description; d != "" {
		parts = append(parts, d)
	} else {
		if s := strings.TrimSpace(op.Summary); s != "" {
			parts = append(parts, s)
		}
		if d := strings.TrimSpace(op.Description); d != "" && d != strings.TrimSpace(op.Summary) {
			parts = append(parts, d)
		}
	}
	if len(parts) == 0 || (op.Deprecated && len(parts) == 1) {
		parts = append(parts, op.Method+" "+op.Path)
	}
	return text(strings.Join(parts, "\n\n"), maxToolDescription)
}

func describeRequirements(reqs []Requirement) string {
	var alts []string
	for _, r := range reqs {
		alts = append(alts, strings.Join(sortedKeys(r), " and "))
	}
	return strings.Join(alts, " or ")
}

// writeAnnotations gives the hints a method implies: GET and HEAD read;
// DELETE destroys; PUT and DELETE may be repeated with the same effect;
// POST may not. PUT replaces what was there, PATCH changes it.
func writeAnnotations(w *writer, method string) {
	type hints struct{ readOnly, destructive, idempotent *bool }
	t, f := true, false
	h := map[string]hints{
		"GET":     {readOnly: &t},
		"HEAD":    {readOnly: &t},
		"OPTIONS": {readOnly: &t},
		"POST":    {readOnly: &f, destructive: &f, idempotent: &f},
		"PUT":     {readOnly: &f, destructive: &t, idempotent: &t},
		"PATCH":   {readOnly: &f, destructive: &t, idempotent: &f},
		"DELETE":  {readOnly: &f, destructive: &t, idempotent: &t},
	}[method]
	w.open("annotations")
	for _, a := range []struct {
		name string
		v    *bool
	}{{"read_only", h.readOnly}, {"destructive", h.destructive}, {"idempotent", h.idempotent}} {
		if a.v != nil {
			w.attr(a.name, fmt.Sprint(*a.v))
		}
	}
	w.close()
}

func (g *gen) buildCall(op *Operation) *call {
	c := &call{}
	names := newNamer(1 << 10)
	byPathName := map[string]string{} // path parameter → argument
	for _, p := range op.Params {
		if p.Unsupported != "" {
			c.notes = append(c.notes, fmt.Sprintf("The %s parameter %q is not sent: %s.", p.In, p.Name, p.Unsupported))
			continue
		}
		if p.In == "header" && ignoredHeader(p.Name) {
			continue
		}
		if p.In != "path" && p.In != "query" && p.In != "header" {
			c.notes = append(c.notes, fmt.Sprintf("The parameter %q is in %q, which a call cannot send; it is left out.", p.Name, p.In))
			continue
		}
		if p.In == "header" && !isHeaderName(p.Name) {
			c.notes = append(c.notes, fmt.Sprintf("The header parameter %q is not sent: it is not a valid HTTP header name.", p.Name))
			continue
		}
		arg := names.unique(argName(p.Name))
		scalarParam(p)
		c.args = append(c.args, argSpec{kind: "arg", name: arg, schema: p.Schema, required: p.Required, description: p.Description})
		ref := "args." + arg
		switch p.In {
		case "path":
			// A path value is one segment: a list is joined (style simple).
			byPathName[p.Name] = joined(ref, p, orComma(p.Join))
		case "query":
			c.query = append(c.query, entry{p.Name, joined(ref, p, p.Join)})
		case "header":
			c.headers = append(c.headers, entry{p.Name, joined(ref, p, orComma(p.Join))})
		}
	}
	c.path = g.pathTemplate(op, c, byPathName, names)
	g.addBody(op, c, names)
	return c
}

// ignoredHeader: OpenAPI says Accept, Content-Type and Authorization
// parameters are ignored (they come from other parts of the document).
func ignoredHeader(name string) bool {
	switch strings.ToLower(name) {
	case "accept", "content-type", "authorization":
		return true
	}
	return false
}

// scalarParam makes a parameter's schema one a call can send: a string,
// number or bool, or a list of them.
func scalarParam(p *Param) {
	s := p.Schema
	switch s.Type {
	case "":
		s.Type = "string"
	case "array":
		if s.Items == nil || s.Items.Type == "" || s.Items.Type == "array" || s.Items.Type == "object" {
			s.Items = &Schema{Type: "string"}
		}
	}
}

func orComma(j string) string {
	if j == "" {
		return ","
	}
	return j
}

// joined is the value expression of a parameter: the argument, or for a
// list sent as one value, its elements joined (an absent optional list
// stays null, so the parameter is left out).
func joined(ref string, p *Param, sep string) string {
	if p.Schema.Type != "array" || sep == "" {
		return ref
	}
	j := fmt.Sprintf("join(%s, %s)", str(sep), ref)
	if p.Required {
		return j
	}
	return fmt.Sprintf("%s == null ? null : %s", ref, j)
}

// pathTemplate turns /pets/{petId} into /pets/${args.pet_id}. A
// placeholder no parameter declares gets a string argument of its own; a
// literal query string in the path moves to the query map.
func (g *gen) pathTemplate(op *Operation, c *call, byName map[string]string, names *namer) string {
	path, rawQuery, _ := strings.Cut(op.Path, "?")
	path, _, _ = strings.Cut(path, "#")
	if rawQuery != "" {
		if vals, err := url.ParseQuery(rawQuery); err == nil {
			for _, k := range sortedKeys(vals) {
				c.query = append(c.query, entry{k, str(vals.Get(k))})
			}
		}
	}
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(path, '{')
		j := strings.IndexByte(path[max(i, 0):], '}')
		if i < 0 || j < 0 {
			b.WriteString(templateLiteral(path))
			break
		}
		j += i
		b.WriteString(literalBeforeInterp(path[:i]))
		name := path[i+1 : j]
		ref, ok := byName[name]
		if !ok {
			arg := names.unique(argName(name))
			ref = "args." + arg
			byName[name] = ref
			c.args = append(c.args, argSpec{kind: "arg", name: arg, schema: &Schema{Type: "string"}, required: true,
				description: fmt.Sprintf("The {%s} part of the path.", name)})
			c.notes = append(c.notes, fmt.Sprintf("The path has {%s}, which no parameter declares; it is a string argument.", name))
		}
		b.WriteString("${" + ref + "}")
		path = path[j+1:]
	}
	for _, name := range sortedKeys(byName) {
		if !strings.Contains(op.Path, "{"+name+"}") {
			c.notes = append(c.notes, fmt.Sprintf("The path parameter %q does not appear in the path %s.", name, op.Path))
		}
	}
	return b.String()
}

// literalBeforeInterp escapes the literal text before an interpolation.
// HCL reads "$${" as an escaped "${", so a literal ending in '$' (the
// path /price/${amount}) would swallow the interpolation after it: the
// trailing dollars are written as a string interpolation of their own.
func literalBeforeInterp(s string) string {
	lit := strings.TrimRight(s, "$")
	out := templateLiteral(lit)
	if dollars := s[len(lit):]; dollars != "" {
		out += "${" + str(dollars) + "}"
	}
	return out
}

// addBody maps the request body. A JSON body is one argument, "body",
// sent as written: the language sends an object argument as the client
// sent it (no null for the fields left out), which flattened arguments
// cannot do without a merge() per optional field. A form body is one
// argument per field, since a form is a map of values. Text and XML are
// one string.
func (g *gen) addBody(op *Operation, c *call, names *namer) {
	b := op.Body
	if b == nil {
		return
	}
	if op.Method == "GET" || op.Method == "HEAD" {
		c.notes = append(c.notes, fmt.Sprintf("The document gives %s a request body, which the http call block does not send with %s.", op.Method, op.Method))
		return
	}
	mt := strings.ToLower(strings.TrimSpace(strings.Split(b.MediaType, ";")[0]))
	switch {
	case b.MediaType == "":
		if len(b.Others) > 0 {
			c.notes = append(c.notes, fmt.Sprintf("The request body (%s) is not sent: a call block sends JSON, form-encoded or text bodies.", strings.Join(b.Others, ", ")))
		}
	case mt == "application/x-www-form-urlencoded":
		g.formBody(b, c, names)
	case strings.HasPrefix(mt, "text/") || strings.Contains(mt, "xml"):
		arg := names.unique("body")
		c.args = append(c.args, argSpec{kind: "arg", name: arg, schema: &Schema{Type: "string"}, required: true, description: bodyDescription(b)})
		c.body = []entry{{"raw_body", "args." + arg}, {"content_type", str(b.MediaType)}}
		if !b.Required {
			c.notes = append(c.notes, "The document makes the body optional; a raw body is always sent, so the argument is required.")
		}
	default:
		arg := names.unique("body")
		s := b.Schema
		if s == nil {
			s = &Schema{}
		}
		c.args = append(c.args, argSpec{kind: "arg", name: arg, schema: s, required: b.Required, description: bodyDescription(b)})
		c.bodyArg = &c.args[len(c.args)-1]
		c.body = []entry{{"body", "args." + arg}}
		if mt != "application/json" && mt != "*/*" && mt != "application/*" {
			c.body = append(c.body, entry{"content_type", str(b.MediaType)})
		}
	}
	if b.MediaType != "" && len(b.Others) > 0 {
		c.notes = append(c.notes, fmt.Sprintf("The body is sent as %s; the document also accepts %s.", b.MediaType, strings.Join(b.Others, ", ")))
	}
}

func bodyDescription(b *Body) string {
	if b.Description != "" {
		return b.Description
	}
	if b.Schema != nil && b.Schema.Description != "" {
		return b.Schema.Description
	}
	return "The request body."
}

func (g *gen) formBody(b *Body, c *call, names *namer) {
	s := b.Schema
	if s == nil || len(s.Properties) == 0 {
		c.notes = append(c.notes, "The form body lists no fields; nothing is sent.")
		return
	}
	var fields []entry
	for _, p := range s.Properties {
		if p.Schema.ReadOnly {
			continue
		}
		if p.Schema.Type == "object" {
			c.notes = append(c.notes, fmt.Sprintf("The form field %q is an object, which a form cannot carry; it is not sent.", p.Name))
			continue
		}
		arg := names.unique(argName(p.Name))
		param := &Param{Name: p.Name, Schema: p.Schema, Required: s.isRequired(p.Name)}
		scalarParam(param)
		c.args = append(c.args, argSpec{kind: "arg", name: arg, schema: p.Schema, required: param.Required})
		fields = append(fields, entry{p.Name, "args." + arg})
	}
	if len(fields) > 0 {
		c.body = []entry{{"form", object(fields)}}
	}
}

// isHeaderName is the token rule of RFC 9110 for field names.
func isHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}
