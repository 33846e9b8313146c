package openapi

import (
	"fmt"
	"math"
	"net/mail"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// maxPropertyDepth is how deep property blocks nest below an argument;
// deeper objects are taken whole (type object), which keeps a large
// request body reviewable.
const maxPropertyDepth = 3

// maxArgDescription caps argument and property descriptions.
const maxArgDescription = 500

// checkedFormats are the formats the language asserts; others (int32,
// double, byte, binary, ...) describe storage and are left out.
var checkedFormats = []string{"date", "date-time", "time", "duration", "email", "idn-email", "hostname", "idn-hostname",
	"ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uri-template", "uuid", "regex", "json-pointer", "relative-json-pointer"}

// argSpec is one argument, property or items block to write.
type argSpec struct {
	kind        string // arg, property, items
	name        string
	schema      *Schema
	required    bool
	description string
	depth       int
}

// writeArg writes an arg, property or items block.
func writeArg(w *writer, a argSpec) {
	s := a.schema
	if a.kind == "items" {
		w.open("items")
	} else {
		w.open(a.kind, a.name)
	}
	typ, props, items := typeOf(s, a.depth)
	for _, n := range s.Notes {
		w.comment(n)
	}
	if a.kind != "items" {
		w.attr("type", typ)
	}
	desc := a.description
	if desc == "" {
		desc = s.Description
	}
	if desc = text(desc, maxArgDescription); desc != "" {
		w.attr("description", str(desc))
	}
	def, hasDef := checkedDefault(w, s, typ)
	switch {
	case a.kind == "items":
	case hasDef:
		w.attr("default", def)
	case !a.required:
		w.attr("required", "false")
	}
	enum := enumFor(s, typ) // before nullable: a null in the enum makes it nullable
	if s.Nullable && typ != "any" {
		w.attr("nullable", "true")
	}
	if enum != "" {
		w.attr("enum", enum)
	}
	writeConstraints(w, s, typ)
	if items != nil {
		writeArg(w, argSpec{kind: "items", schema: items, depth: a.depth + 1})
	}
	for _, p := range props {
		writeArg(w, argSpec{kind: "property", name: p.Name, schema: p.Schema, required: s.isRequired(p.Name), depth: a.depth + 1})
	}
	w.close()
}

// typeOf is the type expression of s, with the property blocks to write
// (an object whose fields can all be property blocks) or the items block
// (a list whose elements have constraints of their own).
func typeOf(s *Schema, depth int) (string, []*Property, *Schema) {
	switch s.Type {
	case "string":
		return "string", nil, nil
	case "integer":
		return "integer", nil, nil
	case "number":
		return "number", nil, nil
	case "boolean":
		return "bool", nil, nil
	case "array":
		if s.Items == nil {
			return "list(any)", nil, nil
		}
		el, props, _ := typeOf(s.Items, depth+1)
		if props != nil || hasConstraints(s.Items) {
			return "list(" + el + ")", nil, s.Items
		}
		return "list(" + el + ")", nil, nil
	case "object":
		if props := propertyBlocks(s, depth); props != nil {
			return "object", props, nil
		}
		if s.Values != nil && len(s.Properties) == 0 {
			el, _, _ := typeOf(s.Values, maxPropertyDepth)
			return "map(" + el + ")", nil, nil
		}
		return "object", nil, nil
	}
	return "any", nil, nil
}

// propertyBlocks returns the properties to write as blocks, or nil when
// the object is better taken whole: too deep, fields it does not list,
// or a field name a property block cannot have.
func propertyBlocks(s *Schema, depth int) []*Property {
	if len(s.Properties) == 0 || s.OpenObject || depth >= maxPropertyDepth {
		if len(s.Properties) > 0 && depth >= maxPropertyDepth {
			s.Notes = appendOnce(s.Notes, fmt.Sprintf("Fields taken whole (nested deeper than %d levels): %s.", maxPropertyDepth, fieldList(s)))
		} else if len(s.Properties) > 0 {
			s.Notes = appendOnce(s.Notes, fmt.Sprintf("The document lists the fields %s and accepts others too; property blocks would refuse the others, so the object is taken whole.", fieldList(s)))
		}
		return nil
	}
	var out []*Property
	for _, p := range s.Properties {
		if !isPropertyName(p.Name) {
			s.Notes = appendOnce(s.Notes, fmt.Sprintf("The field %q cannot be a property block (names are letters, digits and _), so the object is taken whole with the fields %s.", p.Name, fieldList(s)))
			return nil
		}
		if p.Schema.ReadOnly {
			continue // answered by the API, never sent
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func appendOnce(notes []string, n string) []string {
	if slices.Contains(notes, n) {
		return notes
	}
	return append(notes, n)
}

func fieldList(s *Schema) string {
	var names []string
	for _, p := range s.Properties {
		if !p.Schema.ReadOnly {
			names = append(names, p.Name)
		}
	}
	if len(names) > 12 {
		names = append(names[:12], fmt.Sprintf("and %d more", len(names)-12))
	}
	return strings.Join(names, ", ")
}

func hasConstraints(s *Schema) bool {
	return s.Pattern != "" || s.Format != "" || len(s.Enum) > 0 || s.Minimum != nil || s.Maximum != nil ||
		s.ExclMinimum != nil || s.ExclMaximum != nil || s.MinLength != nil || s.MaxLength != nil ||
		s.MinItems != nil || s.MaxItems != nil || s.Description != ""
}

// writeConstraints writes the constraints that apply to the type, leaving
// out (with a comment) the ones the language would refuse.
func writeConstraints(w *writer, s *Schema, typ string) {
	switch typ {
	case "string":
		writeStringConstraints(w, s)
	case "integer", "number":
		writeNumberConstraints(w, s)
	}
	if strings.HasPrefix(typ, "list(") {
		lo, hi := s.MinItems, s.MaxItems
		if lo != nil && hi != nil && *lo > *hi {
			w.comment(fmt.Sprintf("The document's minItems %d is above its maxItems %d; neither is checked.", *lo, *hi))
			lo, hi = nil, nil
		}
		if lo != nil && *lo >= 0 {
			w.attr("min_items", fmt.Sprint(*lo))
		}
		if hi != nil && *hi >= 0 {
			w.attr("max_items", fmt.Sprint(*hi))
		}
		if s.UniqueItems {
			w.attr("unique_items", "true")
		}
	}
}

func writeStringConstraints(w *writer, s *Schema) {
	if slices.Contains(checkedFormats, s.Format) {
		w.attr("format", str(s.Format))
	}
	if s.Format == "password" || s.WriteOnly {
		w.attr("sensitive", "true")
	}
	if s.Pattern != "" {
		if _, err := regexp.Compile(s.Pattern); err == nil {
			w.attr("pattern", str(s.Pattern))
		} else {
			w.comment(fmt.Sprintf("The document's pattern %s uses syntax Go's regular expressions lack; it is not checked.", s.Pattern))
		}
	}
	lo, hi := s.MinLength, s.MaxLength
	if lo != nil && hi != nil && *lo > *hi {
		w.comment(fmt.Sprintf("The document's minLength %d is above its maxLength %d; neither is checked.", *lo, *hi))
		lo, hi = nil, nil
	}
	if lo != nil && *lo > 0 {
		w.attr("min_length", fmt.Sprint(*lo))
	}
	if hi != nil && *hi >= 0 {
		w.attr("max_length", fmt.Sprint(*hi))
	}
}

func writeNumberConstraints(w *writer, s *Schema) {
	lo, hi := s.Minimum, s.Maximum
	if lo != nil && hi != nil && *lo > *hi {
		w.comment(fmt.Sprintf("The document's minimum %s is above its maximum %s; neither is checked.", number(*lo), number(*hi)))
		lo, hi = nil, nil
	}
	for _, b := range []struct {
		name string
		v    *float64
	}{{"minimum", lo}, {"maximum", hi}, {"exclusive_minimum", s.ExclMinimum}, {"exclusive_maximum", s.ExclMaximum}} {
		if b.v != nil && !math.IsInf(*b.v, 0) && !math.IsNaN(*b.v) {
			w.attr(b.name, number(*b.v))
		}
	}
	if m := s.MultipleOf; m != nil && *m > 0 {
		w.attr("multiple_of", number(*m))
	}
}

// enumFor writes the enum when every value fits the type; null values
// are dropped (the argument is nullable instead).
func enumFor(s *Schema, typ string) string {
	var vals []any
	for _, v := range s.Enum {
		if v == nil {
			s.Nullable = true
			continue
		}
		if !fits(v, typ) {
			return ""
		}
		if !slices.Contains(vals, v) {
			vals = append(vals, v)
		}
	}
	if len(vals) == 0 {
		return ""
	}
	lit, ok := literal(vals)
	if !ok {
		return ""
	}
	return lit
}

// fits says whether a scalar value from the document is of the type.
func fits(v any, typ string) bool {
	switch typ {
	case "string":
		_, ok := v.(string)
		return ok
	case "bool":
		_, ok := v.(bool)
		return ok
	case "integer":
		switch n := v.(type) {
		case int64:
			return true
		case float64:
			return n == math.Trunc(n) && math.Abs(n) < 1<<53
		}
	case "number":
		switch v.(type) {
		case int64, float64:
			return true
		}
	}
	return false
}

// checkedDefault returns the default to write, if the document gives one
// that satisfies the argument's own constraints (the language requires
// it); one that does not is left out with a comment.
func checkedDefault(w *writer, s *Schema, typ string) (string, bool) {
	if !s.HasDefault || s.Default == nil {
		return "", false
	}
	why := defaultProblem(s, typ)
	if why == "" {
		if lit, ok := literal(s.Default); ok {
			return lit, true
		}
		why = "it cannot be written in HCL"
	}
	shown, _ := literal(s.Default)
	w.comment(fmt.Sprintf("The document's default %s is left out: %s.", text(shown, 80), why))
	return "", false
}

func defaultProblem(s *Schema, typ string) string {
	v := s.Default
	if strings.HasPrefix(typ, "list(") {
		list, ok := v.([]any)
		if !ok || s.Items == nil {
			return "it is not a list of the element type"
		}
		el, _, _ := typeOf(s.Items, maxPropertyDepth)
		for _, e := range list {
			if !fits(e, el) || (len(s.Items.Enum) > 0 && !slices.Contains(s.Items.Enum, e)) {
				return "its elements are not all of the element type"
			}
		}
		if s.MinItems != nil && int64(len(list)) < *s.MinItems || s.MaxItems != nil && int64(len(list)) > *s.MaxItems {
			return "it has too few or too many elements"
		}
		return ""
	}
	if !fits(v, typ) {
		return "it is not of type " + typ
	}
	if len(s.Enum) > 0 && !slices.Contains(s.Enum, v) {
		return "it is not one of the enum values"
	}
	switch x := v.(type) {
	case string:
		return stringProblem(s, x)
	case int64:
		return numberProblem(s, float64(x))
	case float64:
		return numberProblem(s, x)
	}
	return ""
}

func stringProblem(s *Schema, x string) string {
	n := int64(utf8.RuneCountInString(x))
	if s.MinLength != nil && n < *s.MinLength || s.MaxLength != nil && n > *s.MaxLength {
		return "its length is outside minLength/maxLength"
	}
	if s.Pattern != "" {
		if re, err := regexp.Compile(s.Pattern); err == nil && !re.MatchString(x) {
			return "it does not match the pattern"
		}
	}
	if !formatFits(s.Format, x) {
		return "it is not a valid " + s.Format
	}
	return ""
}

// uuidPattern is compiled once, not for each default an import checks.
var uuidPattern = lazyregexp.New(`^[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$`)

// formatFits checks a default against the formats documents use most;
// for the others a default is kept only if the format is not asserted.
func formatFits(format, x string) bool {
	var err error
	switch format {
	case "date":
		_, err = time.Parse("2006-01-02", x)
	case "date-time":
		_, err = time.Parse(time.RFC3339, x)
	case "email":
		_, err = mail.ParseAddress(x)
	case "uri":
		var u *url.URL
		if u, err = url.Parse(x); err == nil && !u.IsAbs() {
			return false
		}
	case "uuid":
		return uuidPattern.MatchString(x)
	case "", "uri-reference", "hostname", "regex":
	default:
		return !slices.Contains(checkedFormats, format)
	}
	return err == nil
}

func numberProblem(s *Schema, x float64) string {
	if s.Minimum != nil && x < *s.Minimum || s.Maximum != nil && x > *s.Maximum ||
		s.ExclMinimum != nil && x <= *s.ExclMinimum || s.ExclMaximum != nil && x >= *s.ExclMaximum {
		return "it is outside the minimum/maximum"
	}
	if m := s.MultipleOf; m != nil && *m > 0 && math.Mod(x, *m) != 0 {
		return "it is not a multiple of multipleOf"
	}
	return ""
}
