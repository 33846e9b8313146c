package table

import (
	"reflect"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/lang"
)

// argsFromSchema compiles a tool whose arguments are given as a JSON Schema
// (input_schema) instead of arg blocks. The schema is listed as written;
// the types expressions see are derived from its top-level properties.
func (c *compiler) argsFromSchema(t *lang.Tool, where string) *Args {
	c.pendingHeaders = nil
	attr := t.InputSchema
	if len(t.Args) > 0 {
		c.add(hcl.Diagnostics{errorf(attr.NameRange, "Arguments declared twice",
			"The tool %q has both input_schema and arg blocks; describe the arguments one way.", t.Name)})
	}
	out := &Args{Schema: map[string]any{"type": "object"}, Type: cty.EmptyObject, Env: eval.EnvType(nil)}
	v := c.staticValue(attr, cty.DynamicPseudoType)
	if v == cty.NilVal || !v.IsWhollyKnown() {
		return out
	}
	j, _ := eval.ToJSON(v)
	doc, ok := j.(map[string]any)
	if !ok || doc["type"] != "object" {
		c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), "Invalid input schema",
			"input_schema must be a JSON Schema object with type = \"object\", as in { type = \"object\", properties = { ... } }.")})
		return out
	}
	if _, err := compileJSONSchema("mcpdecl:input-schema.json", doc); err != nil {
		c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), "Invalid input schema", "input_schema is not a valid JSON Schema: %s.", err)})
		return out
	}
	out.Schema = doc
	c.schemaArgs(out, doc, attr.Range)
	c.headerParams(t, doc, attr)
	out.Validations = c.compileValidations(t.Validations, c.scope(out, where))
	return out
}

// schemaArgs fills the argument list and types from the top-level
// properties. Property schemas that are references or combinations give
// values of any type.
func (c *compiler) schemaArgs(out *Args, doc map[string]any, decl hcl.Range) {
	props, _ := doc["properties"].(map[string]any)
	required := map[string]bool{}
	if list, ok := doc["required"].([]any); ok {
		for _, r := range list {
			if s, ok := r.(string); ok {
				required[s] = true
			}
		}
	}
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	sort.Strings(names)
	attrTypes := map[string]cty.Type{}
	var fields []eval.EnvField
	for _, name := range names {
		prop, _ := props[name].(map[string]any)
		ty, goTy := schemaTypes(prop)
		if !required[name] && goTy.Kind() != reflect.Interface {
			goTy = eval.AnyType // nil when the call leaves it out
			if prop["type"] == "integer" {
				goTy = eval.IntegerType
			}
		}
		arg := &Arg{Name: name, Type: ty, Required: required[name], Default: cty.NilVal, DeclRange: decl}
		arg.Description, _ = prop["description"].(string)
		if enum, ok := prop["enum"].([]any); ok {
			arg.Enum = jsonStrings(enum)
		}
		out.List = append(out.List, arg)
		attrTypes[name] = ty
		fields = append(fields, eval.EnvField{Name: name, Type: goTy})
	}
	out.Type = cty.Object(attrTypes)
	out.Env = eval.EnvType(fields)
}

// schemaTypes maps a property schema's "type" to the cty type of HCL
// expressions and the Go type of expr-lang programs.
func schemaTypes(prop map[string]any) (cty.Type, reflect.Type) {
	switch prop["type"] {
	case "string":
		return cty.String, reflect.TypeOf("")
	case "integer":
		return cty.Number, reflect.TypeOf(0)
	case "number":
		return cty.Number, eval.NumberType // the client's digits, as goType
	case "boolean":
		return cty.Bool, reflect.TypeOf(false)
	}
	return cty.DynamicPseudoType, eval.AnyType
}

// headerParams reads the x-mcp-header annotations of the top-level
// properties: each names the Mcp-Param-{Name} header that mirrors the
// argument on HTTP. Clients drop tools whose annotation is invalid, so an
// invalid one is an error here.
func (c *compiler) headerParams(t *lang.Tool, doc map[string]any, attr *hcl.Attribute) {
	props, _ := doc["properties"].(map[string]any)
	out := map[string]string{}
	seen := map[string]string{}
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		prop, _ := props[name].(map[string]any)
		h, ok := prop["x-mcp-header"]
		if !ok {
			continue
		}
		header, _ := h.(string)
		switch {
		case !isToken(header):
			c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), "Invalid x-mcp-header", "The x-mcp-header of %q must be a header name token (letters, digits and !#$%%&'*+-.^_`|~), not %q.", name, h)})
		case prop["type"] != "string" && prop["type"] != "integer" && prop["type"] != "boolean":
			c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), "Invalid x-mcp-header", "x-mcp-header may only mirror a string, integer or boolean property; %q is not one.", name)})
		case seen[strings.ToLower(header)] != "":
			c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), "Invalid x-mcp-header", "The header %q is used by both %q and %q; each needs its own.", header, seen[strings.ToLower(header)], name)})
		default:
			seen[strings.ToLower(header)] = name
			out[header] = name
		}
	}
	if len(out) > 0 {
		c.pendingHeaders = out
	}
}

func isToken(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("!#$%&'*+-.^_`|~", r)) {
			return false
		}
	}
	return true
}
