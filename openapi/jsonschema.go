package openapi

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
)

// A request body of oneOf or anyOf alternatives (a Cat or a Dog) is a
// value an argument block cannot type: its type is one, the loosest the
// alternatives share. The language takes a tool's arguments as a JSON
// Schema instead (input_schema, listed to clients and enforced as
// written), and that can say oneOf. So such a tool is written with
// input_schema: every argument becomes a property of it, the body with
// its alternatives. Alternatives deeper inside a body, and in
// parameters, keep the loosest type (a property block cannot carry a
// schema of its own).

// jval is a JSON Schema value written as HCL: an expression (a quoted
// string, a number, a literal), an object with keys in order, or a list.
type jval struct {
	expr string
	obj  []jfield
	list []jval
	kind byte // 'e', 'o' or 'l'
}

type jfield struct {
	k string
	v jval
}

func jexpr(e string) jval            { return jval{expr: e, kind: 'e'} }
func jstr(s string) jval             { return jexpr(str(s)) }
func jlist(items ...jval) jval       { return jval{list: items, kind: 'l'} }
func (o *jval) set(k string, v jval) { o.obj = append(o.obj, jfield{k, v}) }

func jobj() jval { return jval{kind: 'o'} }

// render writes v; what fits in width characters stays on one line.
func (v jval) render(width int) string {
	if line, ok := v.inline(width); ok || v.kind == 'e' {
		return line
	}
	var b strings.Builder
	switch v.kind {
	case 'o':
		b.WriteString("{\n")
		for _, f := range v.obj {
			b.WriteString(key(f.k) + " = " + f.v.render(width-2) + "\n")
		}
		b.WriteString("}")
	case 'l':
		b.WriteString("[\n")
		for _, e := range v.list {
			b.WriteString(e.render(width-2) + ",\n")
		}
		b.WriteString("]")
	}
	return b.String()
}

// inline writes v on one line if it fits in width characters; it stops
// as soon as it does not, so that trying costs at most width whatever
// the size of v.
func (v jval) inline(width int) (string, bool) {
	if v.kind == 'e' {
		return v.expr, len(v.expr) <= width
	}
	var b strings.Builder
	open, end := "[", "]"
	n := len(v.list)
	if v.kind == 'o' {
		open, end, n = "{ ", " }", len(v.obj)
		if n == 0 {
			return "{}", width >= 2
		}
	}
	b.WriteString(open)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		e := jval{}
		if v.kind == 'o' {
			b.WriteString(key(v.obj[i].k) + " = ")
			e = v.obj[i].v
		} else {
			e = v.list[i]
		}
		part, ok := e.inline(width - b.Len())
		if !ok {
			return "", false
		}
		b.WriteString(part)
		if b.Len() > width {
			return "", false
		}
	}
	b.WriteString(end)
	return b.String(), b.Len() <= width
}

// needsInputSchema says whether a tool's arguments are written as
// input_schema: when its JSON body is a oneOf or anyOf.
func (c *call) needsInputSchema() bool {
	return c.bodyArg != nil && len(c.bodyArg.schema.Alts) > 0
}

// inputSchema is the tool's arguments as one JSON Schema object: each
// argument a property, the required ones listed, no others accepted (as
// with arg blocks).
func inputSchema(args []argSpec) jval {
	root := jobj()
	root.set("type", jstr("object"))
	props := jobj()
	var required []jval
	for _, a := range args {
		s := schemaJSON(a.schema, a.description)
		props.set(a.name, s)
		if a.required && !(a.schema.HasDefault && a.schema.Default != nil) {
			required = append(required, jstr(a.name))
		}
	}
	root.set("properties", props)
	if len(required) > 0 {
		root.set("required", jlist(required...))
	}
	root.set("additionalProperties", jexpr("false"))
	return root
}

// schemaJSON writes what s says as JSON Schema 2020-12, with the same
// care as an argument block: descriptions capped, formats the validator
// knows, patterns Go can compile, bounds that do not contradict each
// other, read-only fields left out.
func schemaJSON(s *Schema, desc string) jval {
	return schemaJSONAt(s, desc, 0)
}

// maxJSONDepth bounds how deep a written schema nests; deeper values are
// of any type ({}), as with the converter's own bound. It keeps the
// output of a body whose references expand many times reviewable.
const maxJSONDepth = 12

func schemaJSONAt(s *Schema, desc string, depth int) jval {
	out := jobj()
	if depth > maxJSONDepth {
		out.set("description", jstr(fmt.Sprintf("Nested deeper than %d levels: any value is accepted here.", maxJSONDepth)))
		return out
	}
	typ := s.Type
	if len(s.Alts) > 0 {
		typ = s.AltType
	}
	switch {
	case typ != "" && s.Nullable:
		out.set("type", jlist(jstr(typ), jstr("null")))
	case typ != "":
		out.set("type", jstr(typ))
	}
	if t := text(s.Title, 200); t != "" {
		out.set("title", jstr(oneLine(t)))
	}
	if desc == "" {
		desc = s.Description
	}
	if d := text(desc, maxArgDescription); d != "" {
		out.set("description", jstr(d))
	}
	if len(s.Enum) > 0 {
		if lit, ok := literal(s.Enum); ok {
			out.set("enum", jexpr(lit))
		}
	}
	if s.HasDefault {
		if lit, ok := literal(s.Default); ok {
			out.set("default", jexpr(lit))
		}
	}
	if slices.Contains(checkedFormats, s.Format) {
		out.set("format", jstr(s.Format))
	}
	if s.Pattern != "" {
		if _, err := regexp.Compile(s.Pattern); err == nil {
			out.set("pattern", jstr(s.Pattern))
		}
	}
	if s.WriteOnly || s.Format == "password" {
		out.set("writeOnly", jexpr("true"))
	}
	if s.Deprecated {
		out.set("deprecated", jexpr("true"))
	}
	setCounts(&out, "minLength", "maxLength", s.MinLength, s.MaxLength)
	setCounts(&out, "minItems", "maxItems", s.MinItems, s.MaxItems)
	if s.UniqueItems {
		out.set("uniqueItems", jexpr("true"))
	}
	lo, hi := s.Minimum, s.Maximum
	if lo != nil && hi != nil && *lo > *hi {
		lo, hi = nil, nil
	}
	for _, b := range []struct {
		name string
		v    *float64
	}{{"minimum", lo}, {"maximum", hi}, {"exclusiveMinimum", s.ExclMinimum}, {"exclusiveMaximum", s.ExclMaximum}} {
		if b.v != nil && !math.IsInf(*b.v, 0) && !math.IsNaN(*b.v) {
			out.set(b.name, jexpr(number(*b.v)))
		}
	}
	if m := s.MultipleOf; m != nil && *m > 0 && !math.IsInf(*m, 0) {
		out.set("multipleOf", jexpr(number(*m)))
	}
	if s.Items != nil {
		out.set("items", schemaJSONAt(s.Items, "", depth+1))
	}
	if len(s.Properties) > 0 {
		props := jobj()
		var required []jval
		for _, p := range s.Properties {
			if p.Schema.ReadOnly || slices.ContainsFunc(props.obj, func(f jfield) bool { return f.k == p.Name }) {
				continue // answered by the API, never sent; or said already
			}
			props.set(p.Name, schemaJSONAt(p.Schema, "", depth+1))
			if s.isRequired(p.Name) {
				required = append(required, jstr(p.Name))
			}
		}
		out.set("properties", props)
		if len(required) > 0 {
			out.set("required", jlist(required...))
		}
	}
	if s.Values != nil {
		out.set("additionalProperties", schemaJSONAt(s.Values, "", depth+1))
	}
	if len(s.Alts) > 0 {
		var alts []jval
		for _, a := range s.Alts {
			alts = append(alts, schemaJSONAt(a, "", depth+1))
		}
		if s.Nullable && typ == "" {
			alts = append(alts, jval{obj: []jfield{{"type", jstr("null")}}, kind: 'o'})
		}
		out.set(s.AltKind, jlist(alts...))
	}
	return out
}

func setCounts(out *jval, loName, hiName string, lo, hi *int64) {
	if lo != nil && hi != nil && *lo > *hi {
		return
	}
	if lo != nil && *lo > 0 {
		out.set(loName, jexpr(fmt.Sprint(*lo)))
	}
	if hi != nil && *hi >= 0 {
		out.set(hiName, jexpr(fmt.Sprint(*hi)))
	}
}

// schemaNotes are the comments an input_schema tool gets for its
// arguments: each argument's own notes, but not the one saying how an
// argument block loosened alternatives the schema lists.
func schemaNotes(args []argSpec) []string {
	var out []string
	for _, a := range args {
		for _, n := range a.schema.Notes {
			if n != a.schema.AltNote {
				out = appendOnce(out, fmt.Sprintf("%s: %s", a.name, n))
			}
		}
		if len(a.schema.Alts) > 0 {
			out = appendOnce(out, fmt.Sprintf("The document accepts %s for %s: %s. An argument block would take the loosest type they share; input_schema lists them, so the arguments are given that way.", a.schema.AltKind, a.name, strings.Join(a.schema.AltNames, ", ")))
		}
	}
	return out
}
