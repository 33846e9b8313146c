package lang

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/internal/diagcode"
	"github.com/mcpdecl/mcpdecl/internal/rule"
)

// Kind is the kind of an argument type.
type Kind string

// The argument type kinds. integer is number restricted to whole numbers.
const (
	KindAny     Kind = "any"
	KindString  Kind = "string"
	KindNumber  Kind = "number"
	KindInteger Kind = "integer"
	KindBool    Kind = "bool"
	KindList    Kind = "list"
	KindSet     Kind = "set"
	KindMap     Kind = "map"
	KindObject  Kind = "object"
)

// Type is a parsed type expression such as `string`, `integer`,
// `list(string)` or `object({ id = number, tags = optional(list(string)) })`.
type Type struct {
	Kind Kind
	// Elem is the element type of a list, set or map; nil when unconstrained.
	Elem *Type
	// Attrs are the attributes of an object type, in name order.
	Attrs []*TypeAttr
	// FromProperties says the compiler filled Attrs in from the argument's
	// property blocks (a bare object's fields), so a later compile of the
	// same configuration (mcpdecl test compiles it once per test) finds
	// them its own work, not fields written in the type expression.
	FromProperties bool
}

// TypeAttr is one attribute of an object type.
type TypeAttr struct {
	Name     string
	Type     *Type
	Optional bool
}

var primitiveKinds = map[string]Kind{
	"any": KindAny, "string": KindString, "number": KindNumber,
	"integer": KindInteger, "bool": KindBool,
	"list": KindList, "set": KindSet, "map": KindMap, "object": KindObject,
}

// typeSynonyms maps other languages' type names to ours, where spelling
// distance would suggest something unrelated (int → any).
var typeSynonyms = map[string]string{
	"int": "integer", "int64": "integer", "long": "integer", "uint": "integer",
	"float": "number", "float64": "number", "double": "number", "decimal": "number",
	"str": "string", "text": "string", "boolean": "bool", "array": "list(T)",
	"dict": "map(T) or object({...})", "null": "any",
}

var collectionKinds = map[string]Kind{"list": KindList, "set": KindSet, "map": KindMap}

const typeHelp = "A type is one of string, number, integer, bool, any, list(T), set(T), map(T) or object({ name = T, ... }); for example list(string)."

// ParseType parses a type expression. It never evaluates anything.
func ParseType(expr hcl.Expression) (*Type, hcl.Diagnostics) {
	if kw := hcl.ExprAsKeyword(expr); kw != "" {
		if k, ok := primitiveKinds[kw]; ok {
			return &Type{Kind: k}, nil
		}
		hint, other := rule.DidYouMean(kw, keys(primitiveKinds)), rule.Closest(kw, keys(primitiveKinds))
		if synonym, ok := typeSynonyms[kw]; ok {
			hint, other = fmt.Sprintf(" Did you mean %s?", synonym), synonym
		}
		diags := typeDiag(expr, fmt.Sprintf("%q is not a type.%s %s", kw, hint, typeHelp))
		if hclsyntax.ValidIdentifier(other) { // list(T) is a pattern, not a replacement

			// The JSON syntax writes a type as a string.
			if _, native := expr.(hclsyntax.Expression); !native {
				other = strconv.Quote(other)
			}
			diagcode.Suggest(diags[0], other, expr.Range())
		}
		return nil, diags
	}
	call, d := hcl.ExprCall(expr)
	if d.HasErrors() {
		return nil, typeDiag(expr, "This is not a type expression. "+typeHelp+" Types are written without quotes.")
	}
	if k, ok := collectionKinds[call.Name]; ok {
		if len(call.Arguments) != 1 {
			return nil, typeDiag(expr, fmt.Sprintf("%s(...) takes exactly one element type, as in %s(string).", call.Name, call.Name))
		}
		elem, diags := ParseType(call.Arguments[0])
		return &Type{Kind: k, Elem: elem}, diags
	}
	if call.Name == "object" {
		return parseObjectType(expr, call)
	}
	return nil, typeDiag(expr, fmt.Sprintf("%q is not a type constructor.%s %s", call.Name, rule.DidYouMean(call.Name, []string{"list", "set", "map", "object"}), typeHelp))
}

func parseObjectType(expr hcl.Expression, call *hcl.StaticCall) (*Type, hcl.Diagnostics) {
	if len(call.Arguments) != 1 {
		return nil, typeDiag(expr, "object(...) takes one map of attribute types, as in object({ id = number }).")
	}
	pairs, diags := hcl.ExprMap(call.Arguments[0])
	if diags.HasErrors() {
		return nil, typeDiag(call.Arguments[0], "object(...) takes a map of attribute types, as in object({ id = number }).")
	}
	t := &Type{Kind: KindObject}
	for _, p := range pairs {
		name := hcl.ExprAsKeyword(p.Key)
		if name == "" {
			diags = append(diags, typeDiag(p.Key, "An object attribute name must be a plain name, as in { id = number }.")...)
			continue
		}
		at, optional, d := parseAttrType(p.Value)
		diags = append(diags, d...)
		t.Attrs = append(t.Attrs, &TypeAttr{Name: name, Type: at, Optional: optional})
	}
	sort.Slice(t.Attrs, func(i, j int) bool { return t.Attrs[i].Name < t.Attrs[j].Name })
	return t, diags
}

func parseAttrType(expr hcl.Expression) (*Type, bool, hcl.Diagnostics) {
	if call, d := hcl.ExprCall(expr); !d.HasErrors() && call.Name == "optional" {
		if len(call.Arguments) != 1 {
			return nil, true, typeDiag(expr, "optional(...) takes one type, as in optional(string).")
		}
		t, diags := ParseType(call.Arguments[0])
		return t, true, diags
	}
	t, diags := ParseType(expr)
	return t, false, diags
}

func typeDiag(expr hcl.Expression, detail string) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid type",
		Detail:   detail,
		Subject:  expr.Range().Ptr(),
	}}
}

// CtyType returns the cty type that values of t have once decoded.
func (t *Type) CtyType() cty.Type {
	if t == nil {
		return cty.DynamicPseudoType
	}
	switch t.Kind {
	case KindString:
		return cty.String
	case KindNumber, KindInteger:
		return cty.Number
	case KindBool:
		return cty.Bool
	case KindList:
		return cty.List(t.Elem.CtyType())
	case KindSet:
		return cty.Set(t.Elem.CtyType())
	case KindMap:
		return cty.Map(t.Elem.CtyType())
	case KindObject:
		if t.Attrs == nil {
			return cty.DynamicPseudoType
		}
		return t.objectType()
	}
	return cty.DynamicPseudoType
}

func (t *Type) objectType() cty.Type {
	attrs := map[string]cty.Type{}
	var optional []string
	for _, a := range t.Attrs {
		attrs[a.Name] = a.Type.CtyType()
		if a.Optional {
			optional = append(optional, a.Name)
		}
	}
	return cty.ObjectWithOptionalAttrs(attrs, optional)
}

// String renders t in the language's own syntax.
func (t *Type) String() string {
	if t == nil {
		return "any"
	}
	switch t.Kind {
	case KindList, KindSet, KindMap:
		if t.Elem == nil {
			return string(t.Kind)
		}
		return fmt.Sprintf("%s(%s)", t.Kind, t.Elem)
	case KindObject:
		if t.Attrs == nil {
			return "object"
		}
		parts := make([]string, len(t.Attrs))
		for i, a := range t.Attrs {
			s := a.Type.String()
			if a.Optional {
				s = "optional(" + s + ")"
			}
			parts[i] = a.Name + " = " + s
		}
		return "object({ " + strings.Join(parts, ", ") + " })"
	}
	return string(t.Kind)
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
