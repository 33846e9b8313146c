package fastschema

import (
	"encoding/json"
	"math"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Schema answers one question about a value, quickly: is it certainly
// valid against a JSON Schema? It is compiled once per schema for the
// keywords the compiler writes from arg blocks (types, properties,
// required, items, enum, const, bounds on lengths, sizes and numbers,
// patterns, formats, unique items) and walks the value without the schema
// library's generic machinery (which formats every number and parses it
// into a big.Rat for each numeric keyword).
//
// Its only answers are "valid" and "cannot tell": an invalid value, or one
// that reaches a part of the schema outside that subset, or a number it
// cannot compare exactly, goes to the library as before, so every message
// is still the library's. FuzzFastSchemaAgrees, in package table, holds
// it to never accept a value the library rejects.
type Schema struct {
	anything bool // the true schema
	refuse   bool // the false schema, or a part outside the subset

	types    jsonTypes // 0: any
	format   func(any) error
	enum     []any
	hasEnum  bool
	constant any
	hasConst bool

	minLength, maxLength int // -1: none
	pattern              jsonschema.Regexp

	minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf *decimal

	props              map[string]*Schema
	required           []string
	additional         *Schema // nil: any value
	noAdditional       bool
	minProps, maxProps int
	items              *Schema // nil: any value
	minItems, maxItems int
	uniqueItems        bool

	// What a value of each kind needs checked beyond its type (summarize).
	integerOnly, numberNeedsDigits, stringNeedsLength, objectNeedsChecks, itemsNeedCheck bool
}

// jsonTypes is a set of JSON Schema types.
type jsonTypes uint8

const (
	typeNull jsonTypes = 1 << iota
	typeBoolean
	typeNumber
	typeInteger
	typeString
	typeArray
	typeObject
)

var typeNames = map[string]jsonTypes{
	"null": typeNull, "boolean": typeBoolean, "number": typeNumber, "integer": typeInteger,
	"string": typeString, "array": typeArray, "object": typeObject,
}

// refused is the checker of a part outside the subset: a value reaching
// it is left to the library.
var refused = &Schema{refuse: true}

// draft2020 is the one $schema the checker reads as its own.
const draft2020 = "https://json-schema.org/draft/2020-12/schema"

// Compile compiles the checker of doc (the schema document as the
// library read it: numbers as json.Number) beside lib, the library's
// compilation of the same document. Values are taken from lib where it
// holds them (types, enums, lengths, patterns, formats), so both read a
// keyword the same way; the document says which keywords are present.
func Compile(doc any, lib *jsonschema.Schema) *Schema {
	if lib == nil {
		return refused
	}
	if b, ok := doc.(bool); ok {
		switch {
		case lib.Bool == nil || *lib.Bool != b:
			return refused
		case b:
			return &Schema{anything: true}
		}
		return refused // false: every value is invalid, and the library says why
	}
	m, ok := doc.(map[string]any)
	if !ok || lib.DraftVersion != 2020 || usesOtherKeywords(lib) {
		return refused
	}
	n := &Schema{minLength: -1, maxLength: -1, minProps: -1, maxProps: -1, minItems: -1, maxItems: -1}
	for key, val := range m {
		if !n.take(key, val, lib) {
			return refused
		}
	}
	n.summarize()
	return n
}

// take reads one keyword; false when it is outside the subset.
func (n *Schema) take(key string, val any, lib *jsonschema.Schema) bool {
	switch key {
	case "title", "description", "default", "examples", "readOnly", "writeOnly", "deprecated", "$comment", "$anchor", "$defs":
		// Annotations, and definitions only a $ref (refused) would reach.
		return true
	case "$schema":
		return val == draft2020 || val == draft2020+"#"
	case "type":
		return n.takeTypes(lib.Types)
	case "enum":
		if lib.Enum == nil {
			return false
		}
		n.enum, n.hasEnum = lib.Enum.Values, true
	case "const":
		if lib.Const == nil {
			return false
		}
		n.constant, n.hasConst = *lib.Const, true
	case "format":
		if lib.Format != nil { // nil: a format the library does not assert
			n.format = lib.Format.Validate
		}
	case "pattern":
		n.pattern = lib.Pattern
		return lib.Pattern != nil
	case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties":
		return n.takeCount(key, lib)
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
		return n.takeNumber(key, val)
	case "properties":
		return n.takeProperties(val, lib)
	case "required":
		n.required = lib.Required
	case "additionalProperties":
		return n.takeAdditional(val, lib)
	case "items":
		if lib.Items2020 == nil {
			return false
		}
		n.items = Compile(val, lib.Items2020)
	case "uniqueItems":
		n.uniqueItems = lib.UniqueItems
	default:
		// An extension's annotation is ignored by the library as by us;
		// any other keyword may constrain, so it is left to the library.
		return len(key) > 2 && key[:2] == "x-"
	}
	return true
}

// usesOtherKeywords says whether the library compiled anything the
// checker does not read: a second guard beside the keyword list.
func usesOtherKeywords(s *jsonschema.Schema) bool {
	return s.Ref != nil || s.RecursiveRef != nil || s.DynamicRef != nil || s.Not != nil ||
		len(s.AllOf) > 0 || len(s.AnyOf) > 0 || len(s.OneOf) > 0 || s.If != nil || s.Then != nil || s.Else != nil ||
		s.PropertyNames != nil || len(s.PatternProperties) > 0 || len(s.Dependencies) > 0 ||
		len(s.DependentRequired) > 0 || len(s.DependentSchemas) > 0 || s.UnevaluatedProperties != nil ||
		s.Contains != nil || s.MinContains != nil || s.MaxContains != nil || s.Items != nil || s.AdditionalItems != nil ||
		len(s.PrefixItems) > 0 || s.UnevaluatedItems != nil ||
		s.ContentEncoding != nil || s.ContentMediaType != nil || s.ContentSchema != nil || len(s.Extensions) > 0
}

func (n *Schema) takeTypes(t *jsonschema.Types) bool {
	if t == nil {
		return false
	}
	for _, name := range t.ToStrings() {
		bit, ok := typeNames[name]
		if !ok {
			return false
		}
		n.types |= bit
	}
	return n.types != 0
}

func (n *Schema) takeCount(key string, lib *jsonschema.Schema) bool {
	var src, dst *int
	switch key {
	case "minLength":
		src, dst = lib.MinLength, &n.minLength
	case "maxLength":
		src, dst = lib.MaxLength, &n.maxLength
	case "minItems":
		src, dst = lib.MinItems, &n.minItems
	case "maxItems":
		src, dst = lib.MaxItems, &n.maxItems
	case "minProperties":
		src, dst = lib.MinProperties, &n.minProps
	case "maxProperties":
		src, dst = lib.MaxProperties, &n.maxProps
	}
	if src == nil || *src < 0 {
		return false
	}
	*dst = *src
	return true
}

func (n *Schema) takeNumber(key string, val any) bool {
	text, ok := val.(json.Number)
	if !ok {
		return false
	}
	d, ok := parseDecimal(string(text))
	if !ok {
		return false // more digits than the checker compares: the library's
	}
	switch key {
	case "minimum":
		n.minimum = &d
	case "maximum":
		n.maximum = &d
	case "exclusiveMinimum":
		n.exclusiveMinimum = &d
	case "exclusiveMaximum":
		n.exclusiveMaximum = &d
	case "multipleOf":
		if d.sign() <= 0 {
			return false
		}
		n.multipleOf = &d
	}
	return true
}

func (n *Schema) takeProperties(val any, lib *jsonschema.Schema) bool {
	m, ok := val.(map[string]any)
	if !ok || len(m) != len(lib.Properties) {
		return false
	}
	n.props = make(map[string]*Schema, len(m))
	for name, sub := range m {
		n.props[name] = Compile(sub, lib.Properties[name])
	}
	return true
}

func (n *Schema) takeAdditional(val any, lib *jsonschema.Schema) bool {
	switch a := lib.AdditionalProperties.(type) {
	case bool:
		if val != a {
			return false
		}
		n.noAdditional = !a
	case *jsonschema.Schema:
		n.additional = Compile(val, a)
	default:
		return false
	}
	return true
}

// summarize notes which checks a value of each kind needs, so the
// common value (a string with no constraint) costs a type test only.
func (n *Schema) summarize() {
	n.integerOnly = n.types&typeInteger != 0 && n.types&typeNumber == 0
	n.numberNeedsDigits = n.integerOnly || n.minimum != nil || n.maximum != nil ||
		n.exclusiveMinimum != nil || n.exclusiveMaximum != nil || n.multipleOf != nil
	n.stringNeedsLength = n.minLength >= 0 || n.maxLength >= 0
	n.objectNeedsChecks = len(n.props) > 0 || len(n.required) > 0 || n.additional != nil || n.noAdditional ||
		n.minProps >= 0 || n.maxProps >= 0
	n.itemsNeedCheck = n.items != nil && !n.items.anything
}

// Accepts says whether v is certainly valid; false when it is not, or
// when the checker cannot tell.
func (n *Schema) Accepts(v any) bool {
	if n.anything {
		return true
	}
	if n.refuse {
		return false
	}
	var ok bool
	switch x := v.(type) {
	case string:
		ok = n.allows(typeString) && n.acceptsString(x)
	case json.Number, int64, int, float64:
		ok = n.acceptsNumber(v)
	case bool:
		ok = n.allows(typeBoolean)
	case nil:
		ok = n.allows(typeNull)
	case map[string]any:
		ok = n.allows(typeObject) && n.acceptsObject(x)
	case []any:
		ok = n.allows(typeArray) && n.acceptsArray(x)
	}
	return ok && n.acceptsValue(v)
}

func (n *Schema) allows(t jsonTypes) bool { return n.types == 0 || n.types&t != 0 }

// acceptsValue checks the keywords of any type: const, enum and format.
func (n *Schema) acceptsValue(v any) bool {
	if n.hasConst {
		if same, sure := equalJSON(v, n.constant); !same || !sure {
			return false
		}
	}
	if n.hasEnum && !inEnum(v, n.enum) {
		return false
	}
	return n.format == nil || n.format(v) == nil
}

func inEnum(v any, enum []any) bool {
	for _, e := range enum {
		same, sure := equalJSON(v, e)
		if !sure {
			return false
		}
		if same {
			return true
		}
	}
	return false
}

func (n *Schema) acceptsString(s string) bool {
	if n.stringNeedsLength {
		// Code points, as the library counts.
		length := utf8.RuneCountInString(s)
		if n.minLength >= 0 && length < n.minLength || n.maxLength >= 0 && length > n.maxLength {
			return false
		}
	}
	return n.pattern == nil || n.pattern.MatchString(s)
}

func (n *Schema) acceptsNumber(v any) bool {
	if f, ok := v.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
		return false // not a JSON value: the library reports it
	}
	if !n.allows(typeNumber) && !n.allows(typeInteger) {
		return false
	}
	if !n.numberNeedsDigits {
		return true
	}
	d, ok := decimalOf(v)
	if !ok {
		return false
	}
	if n.integerOnly && !d.isInteger() {
		return false
	}
	return (n.minimum == nil || d.cmp(*n.minimum) >= 0) &&
		(n.maximum == nil || d.cmp(*n.maximum) <= 0) &&
		(n.exclusiveMinimum == nil || d.cmp(*n.exclusiveMinimum) > 0) &&
		(n.exclusiveMaximum == nil || d.cmp(*n.exclusiveMaximum) < 0) &&
		(n.multipleOf == nil || d.multipleOf(*n.multipleOf))
}

func (n *Schema) acceptsObject(obj map[string]any) bool {
	if !n.objectNeedsChecks {
		return true
	}
	if n.minProps >= 0 && len(obj) < n.minProps || n.maxProps >= 0 && len(obj) > n.maxProps {
		return false
	}
	for _, name := range n.required {
		if _, ok := obj[name]; !ok {
			return false
		}
	}
	for name, v := range obj {
		if sub, ok := n.props[name]; ok {
			if !sub.Accepts(v) {
				return false
			}
			continue
		}
		if n.noAdditional || n.additional != nil && !n.additional.Accepts(v) {
			return false
		}
	}
	return true
}

func (n *Schema) acceptsArray(arr []any) bool {
	if n.minItems >= 0 && len(arr) < n.minItems || n.maxItems >= 0 && len(arr) > n.maxItems {
		return false
	}
	if n.itemsNeedCheck {
		for _, e := range arr {
			if !n.items.Accepts(e) {
				return false
			}
		}
	}
	return !n.uniqueItems || allDistinct(arr)
}

// pairwiseLimit is the longest list whose items are compared pair by
// pair; a longer one is checked here only when it holds strings.
const pairwiseLimit = 32

// allDistinct says whether no two items are equal, as JSON values (1 and
// 1.0 are equal); false also when it cannot tell.
func allDistinct(arr []any) bool {
	if len(arr) <= pairwiseLimit {
		for i := 1; i < len(arr); i++ {
			for j := 0; j < i; j++ {
				if same, sure := equalJSON(arr[i], arr[j]); same || !sure {
					return false
				}
			}
		}
		return true
	}
	seen := make(map[string]struct{}, len(arr))
	for _, e := range arr {
		s, ok := e.(string)
		if !ok {
			return false
		}
		if _, dup := seen[s]; dup {
			return false
		}
		seen[s] = struct{}{}
	}
	return true
}

// equalJSON compares two JSON values as the schema library does (numbers
// by value); sure is false when one holds something it cannot compare
// exactly (a number of many digits, a Go type JSON has not).
func equalJSON(a, b any) (same, sure bool) {
	ka, kb := jsonKind(a), jsonKind(b)
	if ka == 0 || kb == 0 {
		return false, false
	}
	if ka != kb {
		return false, true
	}
	switch x := a.(type) {
	case nil:
		return true, true
	case bool:
		return x == b.(bool), true
	case string:
		return x == b.(string), true
	case map[string]any:
		return equalObjects(x, b.(map[string]any))
	case []any:
		return equalArrays(x, b.([]any))
	}
	da, okA := decimalOf(a)
	db, okB := decimalOf(b)
	if !okA || !okB {
		return false, false
	}
	return da.cmp(db) == 0, true
}

func equalObjects(a, b map[string]any) (same, sure bool) {
	if len(a) != len(b) {
		return false, allJSON(a) && allJSON(b)
	}
	for k, va := range a {
		vb, ok := b[k]
		if !ok {
			return false, allJSON(a) && allJSON(b)
		}
		if same, sure := equalJSON(va, vb); !same || !sure {
			return false, sure && allJSON(a) && allJSON(b)
		}
	}
	return true, true
}

func equalArrays(a, b []any) (same, sure bool) {
	if len(a) != len(b) {
		return false, allJSON(a) && allJSON(b)
	}
	for i := range a {
		if same, sure := equalJSON(a[i], b[i]); !same || !sure {
			return false, sure && allJSON(a) && allJSON(b)
		}
	}
	return true, true
}

// allJSON says whether a value holds only the Go types of JSON values
// (the library reports any other as an invalid value, even where it
// would find the values different).
func allJSON(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			if !allJSON(e) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range x {
			if !allJSON(e) {
				return false
			}
		}
		return true
	case float64:
		return !math.IsNaN(x) && !math.IsInf(x, 0)
	}
	return jsonKind(v) != 0
}

// jsonKind sorts a value by JSON type (numbers together); 0 for a Go
// type the checker does not handle.
func jsonKind(v any) jsonTypes {
	switch v.(type) {
	case nil:
		return typeNull
	case bool:
		return typeBoolean
	case string:
		return typeString
	case json.Number, int64, int, float64:
		return typeNumber
	case map[string]any:
		return typeObject
	case []any:
		return typeArray
	}
	return 0
}
