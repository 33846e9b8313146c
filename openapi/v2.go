package openapi

import (
	"fmt"
	"slices"
	"strings"

	v2 "github.com/pb33f/libopenapi/datamodel/high/v2"
)

// fromV2 reads a Swagger 2.0 document. Its body parameter becomes the
// request body, its formData parameters a form body, and host, basePath
// and schemes the server URL.
func fromV2(doc *v2.Swagger, name string) (*API, error) {
	api := &API{Version: "2.0"}
	readInfo(api, doc.Info)
	readTags(api, doc.Tags)
	if doc.Host != "" {
		scheme := "https"
		if len(doc.Schemes) > 0 && !slices.Contains(doc.Schemes, "https") {
			scheme = doc.Schemes[0]
		}
		api.Servers = []string{scheme + "://" + doc.Host + doc.BasePath}
	} else if doc.BasePath != "" {
		api.Servers = []string{doc.BasePath}
	}
	if doc.SecurityDefinitions != nil && doc.SecurityDefinitions.Definitions != nil {
		for p := doc.SecurityDefinitions.Definitions.First(); p != nil; p = p.Next() {
			api.Schemes = append(api.Schemes, schemeV2(p.Key(), p.Value()))
		}
	}
	api.Security = requirements(doc.Security)
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
		for _, m := range []struct {
			method string
			op     *v2.Operation
		}{{"GET", item.Get}, {"PUT", item.Put}, {"POST", item.Post}, {"DELETE", item.Delete}, {"OPTIONS", item.Options}, {"HEAD", item.Head}, {"PATCH", item.Patch}} {
			if m.op != nil {
				c.where = fmt.Sprintf("%s: %s %s", name, m.method, cleanLine(path))
				op := c.operationV2(path, m.method, m.op, item.Parameters, doc.Consumes)
				if c.err != nil {
					return nil, c.err
				}
				op.MCP = ext.operation(m.op.Extensions, m.method+" "+cleanLine(path), inherited, by)
				api.Operations = append(api.Operations, op)
			}
		}
	}
	api.Warnings = append(api.Warnings, ext.warnings...)
	return api, nil
}

func schemeV2(name string, s *v2.SecurityScheme) *SecurityScheme {
	out := &SecurityScheme{Name: name}
	if s == nil {
		return out
	}
	out.Type, out.In, out.ParamName, out.Description = s.Type, s.In, s.Name, s.Description
	switch s.Type {
	case "basic":
		out.Type, out.Scheme = "http", "basic"
	case "oauth2":
		flow := map[string]string{"application": "clientCredentials", "accessCode": "authorizationCode"}[s.Flow]
		if flow == "" {
			flow = s.Flow
		}
		out.Flows = []string{flow}
		if flow == "clientCredentials" {
			out.TokenURL = s.TokenUrl
		}
	}
	return out
}

func (c *converter) operationV2(path, method string, o *v2.Operation, shared []*v2.Parameter, consumes []string) *Operation {
	op := &Operation{
		ID: o.OperationId, Method: method, Path: path, Summary: o.Summary, Description: o.Description,
		Tags: o.Tags, Deprecated: o.Deprecated,
	}
	if o.Security != nil {
		op.Security, op.HasSecurity = requirementsV2(o), true
	}
	if len(o.Consumes) > 0 {
		consumes = o.Consumes
	}
	var form *Schema
	for _, p := range mergeParamsV2(shared, o.Parameters) {
		switch p.In {
		case "body":
			op.Body = c.bodyV2(p, consumes)
		case "formData":
			if form == nil {
				form = &Schema{Type: "object"}
			}
			s := c.paramSchemaV2(p)
			if s.Description == "" {
				s.Description = p.Description
			}
			form.Properties = append(form.Properties, &Property{Name: p.Name, Schema: s})
			if p.Required != nil && *p.Required {
				form.Required = append(form.Required, p.Name)
			}
		default:
			op.Params = append(op.Params, c.paramV2(p))
		}
	}
	if form != nil && op.Body == nil {
		op.Body = formBodyV2(form, consumes)
	}
	return op
}

func requirementsV2(o *v2.Operation) []Requirement { return requirements(o.Security) }

func mergeParamsV2(shared, own []*v2.Parameter) []*v2.Parameter {
	var out []*v2.Parameter
	for _, s := range shared {
		if s != nil && !slices.ContainsFunc(own, func(o *v2.Parameter) bool { return o != nil && o.Name == s.Name && o.In == s.In }) {
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

func (c *converter) bodyV2(p *v2.Parameter, consumes []string) *Body {
	b := &Body{Required: p.Required != nil && *p.Required, Description: p.Description, Schema: c.proxy(p.Schema)}
	b.MediaType = pickMediaType(consumes)
	if len(consumes) == 0 {
		b.MediaType = "application/json"
	}
	for _, t := range consumes {
		if t != b.MediaType {
			b.Others = append(b.Others, t)
		}
	}
	return b
}

// formBodyV2 makes the formData parameters one form body. A file among
// them needs multipart/form-data, which a call block cannot send.
func formBodyV2(form *Schema, consumes []string) *Body {
	b := &Body{Schema: form, Required: len(form.Required) > 0, MediaType: "application/x-www-form-urlencoded"}
	if slices.Contains(consumes, "multipart/form-data") && !slices.Contains(consumes, "application/x-www-form-urlencoded") {
		b.MediaType, b.Others = "", []string{"multipart/form-data"}
	}
	for _, p := range form.Properties {
		if slices.Contains(p.Schema.Notes, "A file upload in the document.") {
			b.MediaType, b.Others = "", []string{"multipart/form-data"}
		}
	}
	return b
}

func (c *converter) paramV2(p *v2.Parameter) *Param {
	out := &Param{Name: p.Name, In: p.In, Description: p.Description}
	out.Required = p.Required != nil && *p.Required || p.In == "path"
	out.Schema = c.paramSchemaV2(p)
	if out.Schema.Type == "array" {
		out.Join = map[string]string{"": ",", "csv": ",", "ssv": " ", "tsv": "\t", "pipes": "|", "multi": ""}[p.CollectionFormat]
		if p.CollectionFormat == "multi" && p.In != "query" {
			out.Join = ","
		}
	}
	return out
}

// paramSchemaV2 reads a 2.0 non-body parameter, whose schema keywords are
// written on the parameter itself.
func (c *converter) paramSchemaV2(p *v2.Parameter) *Schema {
	if p.Schema != nil {
		return c.proxy(p.Schema)
	}
	s := &Schema{Type: p.Type, Format: p.Format, Pattern: p.Pattern, UniqueItems: p.UniqueItems != nil && *p.UniqueItems}
	if s.Type == "file" {
		s.Type = "string"
		s.Notes = append(s.Notes, "A file upload in the document.")
	}
	s.Minimum, s.Maximum = intToFloat(p.Minimum), intToFloat(p.Maximum)
	if p.ExclusiveMinimum != nil && *p.ExclusiveMinimum {
		s.ExclMinimum, s.Minimum = s.Minimum, nil
	}
	if p.ExclusiveMaximum != nil && *p.ExclusiveMaximum {
		s.ExclMaximum, s.Maximum = s.Maximum, nil
	}
	s.MultipleOf = intToFloat(p.MultipleOf)
	s.MinLength, s.MaxLength = intTo64(p.MinLength), intTo64(p.MaxLength)
	s.MinItems, s.MaxItems = intTo64(p.MinItems), intTo64(p.MaxItems)
	for _, n := range p.Enum {
		if v, ok := nodeValue(n); ok {
			s.Enum = append(s.Enum, v)
		}
	}
	if p.Default != nil {
		s.Default, s.HasDefault = nodeValue(p.Default)
	}
	if p.Items != nil {
		s.Items = itemsV2(p.Items, 0)
	}
	return s
}

func itemsV2(it *v2.Items, depth int) *Schema {
	s := &Schema{Type: it.Type, Format: it.Format, Pattern: it.Pattern}
	for _, n := range it.Enum {
		if v, ok := nodeValue(n); ok {
			s.Enum = append(s.Enum, v)
		}
	}
	if it.Items != nil && depth < 4 {
		s.Items = itemsV2(it.Items, depth+1)
	}
	if it.CollectionFormat != "" && it.CollectionFormat != "csv" {
		s.Notes = append(s.Notes, fmt.Sprintf("The document joins inner lists with collectionFormat %s.", strings.TrimSpace(it.CollectionFormat)))
	}
	return s
}

func intToFloat(p *int) *float64 {
	if p == nil {
		return nil
	}
	f := float64(*p)
	return &f
}

func intTo64(p *int) *int64 {
	if p == nil {
		return nil
	}
	n := int64(*p)
	return &n
}
