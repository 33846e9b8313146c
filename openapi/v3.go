package openapi

import (
	"fmt"
	"strings"

	"github.com/pb33f/libopenapi/datamodel/high/base"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"
	"github.com/pb33f/libopenapi/orderedmap"
)

// fromV3 reads an OpenAPI 3.0 or 3.1 document; its error is the
// converter's (see maxSchemas).
func fromV3(doc *v3.Document, version, name string) (*API, error) {
	api := &API{Version: version}
	readInfo(api, doc.Info)
	readTags(api, doc.Tags)
	for _, s := range doc.Servers {
		api.Servers = append(api.Servers, serverURL(s))
	}
	if doc.Components != nil && doc.Components.SecuritySchemes != nil {
		for p := doc.Components.SecuritySchemes.First(); p != nil; p = p.Next() {
			api.Schemes = append(api.Schemes, schemeV3(p.Key(), p.Value()))
		}
	}
	api.Security = requirements(doc.Security)
	if doc.Webhooks != nil && doc.Webhooks.Len() > 0 {
		api.Notes = append(api.Notes, fmt.Sprintf("The document's webhooks (%s) are calls the API makes, not operations: they are not imported.", strings.Join(keys(doc.Webhooks), ", ")))
	}
	if doc.Paths == nil || doc.Paths.PathItems == nil {
		return api, nil
	}
	c := &converter{}
	ext := &extReader{}
	docFlag := ext.flag(doc.Extensions, "Document root")
	for p := doc.Paths.PathItems.First(); p != nil; p = p.Next() {
		path, item := p.Key(), p.Value()
		if item == nil {
			continue
		}
		inherited, by := levelFlag(ext, docFlag, item.Extensions, path)
		for _, mo := range opsV3(item) {
			c.where = fmt.Sprintf("%s: %s %s", name, mo.method, cleanLine(path))
			op := c.operationV3(path, mo.method, mo.op, item.Parameters)
			if c.err != nil {
				return nil, c.err
			}
			op.MCP = ext.operation(mo.op.Extensions, mo.method+" "+cleanLine(path), inherited, by)
			if len(mo.op.Servers) > 0 || len(item.Servers) > 0 {
				op.Notes = append(op.Notes, "The document sends this operation to servers of its own; the backend's base URL is used instead.")
			}
			api.Operations = append(api.Operations, op)
		}
	}
	api.Warnings = append(api.Warnings, ext.warnings...)
	return api, nil
}

func readInfo(api *API, info *base.Info) {
	if info == nil {
		return
	}
	api.Title, api.APIVersion, api.Description = info.Title, info.Version, info.Description
}

type methodOp struct {
	method string
	op     *v3.Operation
}

// opsV3 lists the operations of a path item in a fixed order, so that the
// output does not depend on map order. TRACE is not a method the http
// call block has; it is left out.
func opsV3(item *v3.PathItem) []methodOp {
	var out []methodOp
	for _, m := range []methodOp{{"GET", item.Get}, {"PUT", item.Put}, {"POST", item.Post}, {"DELETE", item.Delete}, {"OPTIONS", item.Options}, {"HEAD", item.Head}, {"PATCH", item.Patch}} {
		if m.op != nil {
			out = append(out, m)
		}
	}
	return out
}

// serverURL substitutes the server variables with their defaults.
func serverURL(s *v3.Server) string {
	u := s.URL
	if s.Variables != nil {
		for p := s.Variables.First(); p != nil; p = p.Next() {
			if p.Value() != nil {
				u = strings.ReplaceAll(u, "{"+p.Key()+"}", p.Value().Default)
			}
		}
	}
	return u
}

func schemeV3(name string, s *v3.SecurityScheme) *SecurityScheme {
	out := &SecurityScheme{Name: name}
	if s == nil {
		return out
	}
	out.Type, out.In, out.ParamName, out.Scheme, out.Description = s.Type, s.In, s.Name, strings.ToLower(s.Scheme), s.Description
	if f := s.Flows; f != nil {
		for _, fl := range []struct {
			name string
			flow *v3.OAuthFlow
		}{{"implicit", f.Implicit}, {"password", f.Password}, {"clientCredentials", f.ClientCredentials}, {"authorizationCode", f.AuthorizationCode}, {"deviceAuthorization", f.Device}} {
			if fl.flow != nil {
				out.Flows = append(out.Flows, fl.name)
			}
		}
		if f.ClientCredentials != nil {
			out.TokenURL = f.ClientCredentials.TokenUrl
		}
	}
	return out
}

func requirements(reqs []*base.SecurityRequirement) []Requirement {
	var out []Requirement
	for _, r := range reqs {
		if r == nil {
			continue
		}
		req := Requirement{}
		if r.Requirements != nil {
			for p := r.Requirements.First(); p != nil; p = p.Next() {
				req[p.Key()] = p.Value()
			}
		}
		out = append(out, req)
	}
	return out
}

func (c *converter) operationV3(path, method string, o *v3.Operation, shared []*v3.Parameter) *Operation {
	op := &Operation{
		ID: o.OperationId, Method: method, Path: path, Summary: o.Summary, Description: o.Description,
		Tags: o.Tags, Deprecated: o.Deprecated != nil && *o.Deprecated,
	}
	if o.Security != nil {
		op.Security, op.HasSecurity = requirements(o.Security), true
	}
	for _, p := range mergeParams(shared, o.Parameters) {
		op.Params = append(op.Params, c.paramV3(p))
	}
	if o.RequestBody != nil {
		op.Body = c.bodyV3(o.RequestBody)
	}
	if o.Callbacks != nil && o.Callbacks.Len() > 0 {
		op.Notes = append(op.Notes, fmt.Sprintf("The operation's callbacks (%s) are calls the API makes back; they are not imported.", strings.Join(keys(o.Callbacks), ", ")))
	}
	return op
}

func keys[V any](m *orderedmap.Map[string, V]) []string {
	var out []string
	for p := m.First(); p != nil; p = p.Next() {
		out = append(out, p.Key())
	}
	return out
}

// mergeParams applies the rule that an operation's parameter replaces a
// path item's parameter of the same name and location.
func mergeParams(shared, own []*v3.Parameter) []*v3.Parameter {
	var out []*v3.Parameter
	for _, s := range shared {
		if s == nil {
			continue
		}
		replaced := false
		for _, o := range own {
			if o != nil && o.Name == s.Name && o.In == s.In {
				replaced = true
			}
		}
		if !replaced {
			out = append(out, s)
		}
	}
	for _, o := range own {
		if o != nil {
			out = append(out, o)
		}
	}
	return out
}

func (c *converter) paramV3(p *v3.Parameter) *Param {
	out := &Param{Name: p.Name, In: p.In, Description: p.Description, Deprecated: p.Deprecated}
	out.Required = p.Required != nil && *p.Required || p.In == "path"
	switch {
	case p.Schema != nil:
		out.Schema = c.proxy(p.Schema)
	case p.Content != nil && p.Content.Len() > 0:
		mt := p.Content.First()
		out.Schema = &Schema{Type: "string", Notes: []string{fmt.Sprintf("The document sends this parameter as %s: give it as text in that form.", mt.Key())}}
	default:
		out.Schema = &Schema{Type: "string"}
	}
	if out.Description == "" {
		out.Description = out.Schema.Description
	}
	explode := p.Explode == nil || *p.Explode // form, the query default, explodes
	style := p.Style
	if style == "" {
		style = map[string]string{"query": "form", "cookie": "form", "path": "simple", "header": "simple"}[p.In]
	}
	if p.Explode == nil && style != "form" {
		explode = false
	}
	out.Join, out.Unsupported = serialisation(p.In, style, explode, out.Schema)
	return out
}

// serialisation decides how a parameter's value is written. Lists are a
// repeated parameter (exploded form) or one value with a separator;
// objects as parameters (deepObject, exploded form objects, matrix and
// label styles) have no counterpart in a call block.
func serialisation(in, style string, explode bool, s *Schema) (join, unsupported string) {
	if in == "cookie" {
		return "", "mcpdecl sends no cookies built from arguments"
	}
	if s.Type == "object" {
		return "", fmt.Sprintf("an object sent as a %s parameter (style %s) cannot be written by a call block", in, style)
	}
	if style == "matrix" || style == "label" {
		return "", fmt.Sprintf("style %s is not supported", style)
	}
	if s.Type != "array" {
		return "", ""
	}
	switch {
	case style == "form" && explode && in == "query":
		return "", ""
	case style == "spaceDelimited":
		return " ", ""
	case style == "pipeDelimited":
		return "|", ""
	default:
		return ",", ""
	}
}

// bodyV3 picks the media type to send: JSON first (application/json or
// any +json type), then a form, then text; multipart and other binary
// bodies cannot be built by a call block.
func (c *converter) bodyV3(rb *v3.RequestBody) *Body {
	b := &Body{Required: rb.Required != nil && *rb.Required, Description: rb.Description}
	if rb.Content == nil {
		return b
	}
	var types []string
	schemas := map[string]*base.SchemaProxy{}
	for p := rb.Content.First(); p != nil; p = p.Next() {
		types = append(types, p.Key())
		if p.Value() != nil {
			schemas[p.Key()] = p.Value().Schema
		}
	}
	b.MediaType = pickMediaType(types)
	for _, t := range types {
		if t != b.MediaType {
			b.Others = append(b.Others, t)
		}
	}
	if b.MediaType != "" {
		b.Schema = c.proxy(schemas[b.MediaType])
	}
	return b
}

// pickMediaType prefers the media type a call block sends best.
func pickMediaType(types []string) string {
	rank := func(t string) int {
		if strings.ContainsFunc(t, isControl) {
			return -1 // it would be sent as the Content-Type header
		}
		t = strings.ToLower(strings.TrimSpace(strings.Split(t, ";")[0]))
		switch {
		case t == "application/json":
			return 0
		case strings.HasSuffix(t, "+json") || t == "*/*" || t == "application/*":
			return 1
		case t == "application/x-www-form-urlencoded":
			return 2
		case strings.HasPrefix(t, "text/") || t == "application/xml" || strings.HasSuffix(t, "+xml"):
			return 3
		}
		return -1
	}
	best, bestRank := "", 99
	for _, t := range types {
		if r := rank(t); r >= 0 && r < bestRank {
			best, bestRank = t, r
		}
	}
	return best
}
