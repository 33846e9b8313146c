package openapi

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pb33f/go-yaml"
	"github.com/pb33f/libopenapi/datamodel/high/base"
)

// converter turns libopenapi schemas into Schemas, following references
// and cutting a reference that refers back to a schema being converted.
// It counts what it visits (see maxSchemas) and stops at the first
// operation that exceeds the budget, naming it.
type converter struct {
	stack   []string // references being converted, outermost first
	depth   int      // schemas being converted, references or inline
	visited int
	where   string // the operation being converted, for the message
	err     error
}

func (c *converter) proxy(p *base.SchemaProxy) *Schema {
	if p == nil || c.err != nil {
		return &Schema{}
	}
	c.visited++
	if c.visited > maxSchemas {
		c.err = fmt.Errorf("%s: its schemas expand to more than %d (references used many times inside one another): import refuses a document this costly", c.where, maxSchemas)
		return &Schema{}
	}
	if p.IsTransformedRefWithSiblings() {
		// OpenAPI 3.1 (JSON Schema 2020-12) applies keywords written
		// beside a $ref together with the referenced schema, as allOf
		// does; libopenapi's Schema() gives only the siblings. The view
		// it builds is allOf [siblings, $ref]: merged, the siblings win
		// (a default, a description) and the reference gives the rest.
		if s, err := p.BuildTransformedRefSemanticSchema(nil); err == nil && s != nil {
			c.depth++
			defer func() { c.depth-- }()
			return c.schema(s)
		}
	}
	ref := p.GetReference()
	if ref != "" && slices.Contains(c.stack, ref) {
		return &Schema{Notes: []string{fmt.Sprintf("%s refers back to itself here; the cycle is cut and any value is accepted.", ref)}}
	}
	if c.depth >= maxSchemaDepth {
		what := "Schemas"
		if ref != "" {
			what = ref
		}
		return &Schema{Notes: []string{fmt.Sprintf("%s nested more than %d schemas deep; any value is accepted from here on.", what, maxSchemaDepth)}}
	}
	if ref != "" {
		c.stack = append(c.stack, ref)
		defer func() { c.stack = c.stack[:len(c.stack)-1] }()
	}
	c.depth++
	defer func() { c.depth-- }()
	s := p.Schema()
	if s == nil {
		why := "it could not be read"
		if err := p.GetBuildError(); err != nil {
			why = firstLine(err.Error())
		}
		return &Schema{Notes: []string{fmt.Sprintf("A schema %s: %s; any value is accepted.", refOrInline(ref), why)}}
	}
	return c.schema(s)
}

func refOrInline(ref string) string {
	if ref == "" {
		return "written here"
	}
	return "at " + ref
}

func (c *converter) schema(s *base.Schema) *Schema {
	out := &Schema{}
	if s.BooleanSchema != nil {
		return out
	}
	c.readType(s, out)
	readScalars(s, out)
	if s.Items != nil && s.Items.IsA() && s.Items.A != nil {
		out.Items = c.proxy(s.Items.A)
		if out.Type == "" {
			out.Type = "array"
		}
	}
	c.readProperties(s, out)
	if len(s.AllOf) > 0 {
		c.mergeAllOf(s.AllOf, out)
	}
	if alts := append(slices.Clone(s.OneOf), s.AnyOf...); len(alts) > 0 {
		c.loosen(alts, len(s.OneOf) > 0, out)
	}
	return out
}

// readType reads type (a string in 2.0 and 3.0, maybe a list in 3.1) and
// nullable. Several non-null types cannot be one argument type, so the
// argument takes any value.
func (c *converter) readType(s *base.Schema, out *Schema) {
	var types []string
	for _, t := range s.Type {
		if t == "null" {
			out.Nullable = true
			continue
		}
		types = append(types, t)
	}
	switch len(types) {
	case 0:
	case 1:
		out.Type = types[0]
	default:
		out.Notes = append(out.Notes, fmt.Sprintf("The document allows the types %s; any value is accepted.", strings.Join(types, ", ")))
	}
	if s.Nullable != nil && *s.Nullable {
		out.Nullable = true
	}
	if out.Type == "" && s.Properties != nil && s.Properties.Len() > 0 {
		out.Type = "object"
	}
	if out.Type == "file" { // Swagger 2.0 form uploads
		out.Type = "string"
		out.Notes = append(out.Notes, "A file upload in the document.")
	}
}

func readScalars(s *base.Schema, out *Schema) {
	out.Title = s.Title
	out.Description = s.Description
	out.Format = s.Format
	out.Pattern = s.Pattern
	// libopenapi's numbers point into its low-level model, which holds
	// the whole parsed document and its index: copies let all of that go
	// once the document is read (on GitHub's description, 160 MB).
	out.Minimum, out.Maximum = copyOf(s.Minimum), copyOf(s.Maximum)
	out.MultipleOf = copyOf(s.MultipleOf)
	out.MinLength, out.MaxLength = copyOf(s.MinLength), copyOf(s.MaxLength)
	out.MinItems, out.MaxItems = copyOf(s.MinItems), copyOf(s.MaxItems)
	out.UniqueItems = s.UniqueItems != nil && *s.UniqueItems
	out.ReadOnly = s.ReadOnly != nil && *s.ReadOnly
	out.WriteOnly = s.WriteOnly != nil && *s.WriteOnly
	out.Deprecated = s.Deprecated != nil && *s.Deprecated
	readExclusive(s.ExclusiveMinimum, &out.Minimum, &out.ExclMinimum)
	readExclusive(s.ExclusiveMaximum, &out.Maximum, &out.ExclMaximum)
	for _, n := range s.Enum {
		if v, ok := nodeValue(n); ok {
			out.Enum = append(out.Enum, v)
		}
	}
	if s.Const != nil && len(out.Enum) == 0 {
		if v, ok := nodeValue(s.Const); ok {
			out.Enum = []any{v}
		}
	}
	if s.Default != nil {
		out.Default, out.HasDefault = nodeValue(s.Default)
	}
}

// copyOf is a pointer to a copy of *p, nil for nil.
func copyOf[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// readExclusive reads exclusiveMinimum/Maximum: a bool beside minimum in
// 2.0 and 3.0, a number of its own in 3.1.
func readExclusive(d *base.DynamicValue[bool, float64], bound **float64, excl **float64) {
	if d == nil {
		return
	}
	if d.IsA() {
		if d.A && *bound != nil {
			*excl, *bound = *bound, nil
		}
		return
	}
	v := d.B
	*excl = &v
}

func (c *converter) readProperties(s *base.Schema, out *Schema) {
	if s.Properties != nil {
		for p := s.Properties.First(); p != nil; p = p.Next() {
			out.Properties = append(out.Properties, &Property{Name: p.Key(), Schema: c.proxy(p.Value())})
		}
	}
	out.Required = slices.Clone(s.Required)
	if ap := s.AdditionalProperties; ap != nil {
		switch {
		case ap.IsA() && ap.A != nil:
			out.OpenObject = true
			out.Values = c.proxy(ap.A)
		case ap.IsB() && ap.B:
			out.OpenObject = true
		}
		if out.Type == "" && out.OpenObject {
			out.Type = "object"
		}
	}
}

// mergeAllOf folds the allOf schemas into out: their properties and
// required lists add up, and the first type, description and constraint
// given wins. Types that disagree cannot be merged simply: the value is
// then of any type.
func (c *converter) mergeAllOf(parts []*base.SchemaProxy, out *Schema) {
	for _, p := range parts {
		sub := c.proxy(p)
		switch {
		case sub.Type == "":
		case out.Type == "":
			out.Type = sub.Type
		case out.Type != sub.Type && !(isNumeric(out.Type) && isNumeric(sub.Type)):
			out.Notes = append(out.Notes, fmt.Sprintf("allOf combines the types %s and %s, which no value can be; any value is accepted.", out.Type, sub.Type))
			out.Type = ""
			return
		}
		fillMissing(out, sub)
		for _, prop := range sub.Properties {
			if !slices.ContainsFunc(out.Properties, func(q *Property) bool { return q.Name == prop.Name }) {
				out.Properties = append(out.Properties, prop)
			}
		}
		for _, r := range sub.Required {
			if !slices.Contains(out.Required, r) {
				out.Required = append(out.Required, r)
			}
		}
		out.Notes = append(out.Notes, sub.Notes...)
	}
}

func isNumeric(t string) bool { return t == "integer" || t == "number" }

// fillMissing copies into out what sub says and out does not.
func fillMissing(out, sub *Schema) {
	if out.Description == "" {
		out.Description = sub.Description
	}
	if out.Format == "" {
		out.Format = sub.Format
	}
	if out.Pattern == "" {
		out.Pattern = sub.Pattern
	}
	if out.Items == nil {
		out.Items = sub.Items
	}
	if len(out.Enum) == 0 {
		out.Enum = sub.Enum
	}
	if !out.HasDefault && sub.HasDefault {
		out.Default, out.HasDefault = sub.Default, true
	}
	for _, pair := range [][2]**float64{{&out.Minimum, &sub.Minimum}, {&out.Maximum, &sub.Maximum}, {&out.ExclMinimum, &sub.ExclMinimum}, {&out.ExclMaximum, &sub.ExclMaximum}, {&out.MultipleOf, &sub.MultipleOf}} {
		if *pair[0] == nil {
			*pair[0] = *pair[1]
		}
	}
	for _, pair := range [][2]**int64{{&out.MinLength, &sub.MinLength}, {&out.MaxLength, &sub.MaxLength}, {&out.MinItems, &sub.MinItems}, {&out.MaxItems, &sub.MaxItems}} {
		if *pair[0] == nil {
			*pair[0] = *pair[1]
		}
	}
	out.Nullable = out.Nullable || sub.Nullable
	out.OpenObject = out.OpenObject || sub.OpenObject
	if out.Alts == nil && sub.Alts != nil {
		out.Alts, out.AltNames, out.AltKind, out.AltType, out.AltNote = sub.Alts, sub.AltNames, sub.AltKind, sub.AltType, sub.AltNote
	}
	if out.Values == nil {
		out.Values = sub.Values
	}
}

// loosen applies oneOf/anyOf: the value is one of several schemas, which
// an argument cannot say. It takes the loosest type that every
// alternative fits (a null alternative makes it nullable), and a comment
// names the alternatives. A single alternative (often how 3.1 writes a
// nullable reference) is the schema itself.
func (c *converter) loosen(alts []*base.SchemaProxy, oneOf bool, out *Schema) {
	var subs []*Schema
	var names []string
	for _, p := range alts {
		sub := c.proxy(p)
		if sub.Type == "" && sub.Nullable && len(sub.Properties) == 0 {
			out.Nullable = true
			continue
		}
		subs = append(subs, sub)
		names = append(names, describeAlt(p, sub))
	}
	switch len(subs) {
	case 0:
		return
	case 1:
		sub := subs[0]
		if out.Type == "" {
			out.Type = sub.Type
		}
		fillMissing(out, sub)
		out.Properties = append(out.Properties, sub.Properties...)
		out.Required = append(out.Required, sub.Required...)
		out.Notes = append(out.Notes, sub.Notes...)
		return
	}
	out.Alts, out.AltNames, out.AltType = subs, names, out.Type
	common := subs[0].Type
	for _, s := range subs[1:] {
		if s.Type == common {
			continue
		}
		if isNumeric(s.Type) && isNumeric(common) {
			common = "number"
			continue
		}
		common = ""
		break
	}
	if out.Type == "" {
		out.Type = common
	}
	word := "anyOf"
	if oneOf {
		word = "oneOf"
	}
	out.AltKind = word
	out.AltNote = fmt.Sprintf("The document accepts %s: %s. The argument accepts %s.", word, strings.Join(names, ", "), loosestName(out.Type))
	out.Notes = append(out.Notes, out.AltNote)
	if out.Type == "object" && len(out.Properties) == 0 {
		out.OpenObject = true
	}
}

func describeAlt(p *base.SchemaProxy, s *Schema) string {
	if ref := p.GetReference(); ref != "" {
		return ref[strings.LastIndex(ref, "/")+1:]
	}
	if s.Type == "" {
		return "any value"
	}
	return s.Type
}

func loosestName(t string) string {
	if t == "" {
		return "any value"
	}
	return "any " + t
}

// nodeValue decodes a YAML node (an enum value, a default) into plain Go
// values: string, bool, int64, float64, nil, []any, map[string]any.
func nodeValue(n *yaml.Node) (any, bool) {
	if n == nil {
		return nil, false
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, false
	}
	return normalise(v), true
}

func normalise(v any) any {
	switch x := v.(type) {
	case int:
		return int64(x)
	case uint64:
		return float64(x)
	case []any:
		for i := range x {
			x[i] = normalise(x[i])
		}
		return x
	case map[string]any:
		for k := range x {
			x[k] = normalise(x[k])
		}
		return x
	case map[any]any:
		m := map[string]any{}
		for k, e := range x {
			m[fmt.Sprint(k)] = normalise(e)
		}
		return m
	}
	return v
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
