package table

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/internal/fastschema"
	"github.com/mcpdecl/mcpdecl/lang"
)

// compileArgs compiles argument blocks into a JSON Schema object, the
// types expressions see, and the validation blocks. where names the owner
// for messages.
func (c *compiler) compileArgs(args []*lang.Arg, validations []*lang.Validation, where string) *Args {
	out := &Args{}
	props := map[string]any{}
	required := []any{}
	attrTypes := map[string]cty.Type{}
	var fields []eval.EnvField
	seen := map[string]bool{}
	var compiled []*lang.Arg // aligned with out.List
	for _, a := range args {
		if a.Spec == nil || seen[a.Name] {
			continue // duplicates are reported by lang
		}
		seen[a.Name] = true
		compiled = append(compiled, a)
		schema, arg := c.compileArg(a)
		props[a.Name] = schema
		if arg.Required {
			required = append(required, a.Name)
		}
		attrTypes[a.Name] = arg.Type
		goTy := goType(a.Spec.Type)
		if c.mayBeNull(a, arg) {
			goTy = nullableGoType(a.Spec.Type)
		}
		fields = append(fields, eval.EnvField{Name: a.Name, Type: goTy})
		out.List = append(out.List, arg)
	}
	out.Schema = map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		out.Schema["required"] = required
	}
	out.Type = cty.Object(attrTypes)
	out.Env = eval.EnvType(fields)
	c.checkDefaults(out, compiled)
	scope := c.scope(out, where)
	for _, a := range args {
		if a.Spec != nil {
			out.Validations = append(out.Validations, c.compileValidations(a.Spec.Validations, scope)...)
		}
	}
	out.Validations = append(out.Validations, c.compileValidations(validations, scope)...)
	c.share(out)
	return out
}

// share replaces the schema and types of compiled arguments with the
// copies other items already hold, once nothing changes them any more.
func (c *compiler) share(args *Args) {
	args.Schema = c.shareDoc(args.Schema)
	args.Type = c.shareType(args.Type)
	for _, a := range args.List {
		a.Type = c.shareType(a.Type)
		a.Name, a.Description = c.shareStr(a.Name), c.shareStr(a.Description)
		a.Enum = c.shareStrs(a.Enum)
		a.Default = eval.CompactValue(a.Default)
	}
	for _, v := range args.Validations {
		v.Uses = c.shareStrs(v.Uses)
	}
}

// compileJSONSchema compiles doc under the name url, which validation
// errors quote.
func compileJSONSchema(url string, doc map[string]any) (*jsonschema.Schema, error) {
	s, _, err := compileSchemaDoc(url, doc)
	return s, err
}

// compileSchemaDoc is compileJSONSchema that also returns the document as
// the library read it (numbers as json.Number).
func compileSchemaDoc(url string, doc map[string]any) (*jsonschema.Schema, any, error) {
	// Round-trip through JSON so numbers have the types the compiler expects.
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, nil, err
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
	if err != nil {
		return nil, nil, err
	}
	comp := jsonschema.NewCompiler()
	comp.DefaultDraft(jsonschema.Draft2020)
	comp.AssertFormat()
	if err := comp.AddResource(url, v); err != nil {
		return nil, nil, err
	}
	s, err := comp.Compile(url)
	return s, v, err
}

// compileChecked compiles a schema with the library and its fast checker.
func compileChecked(url string, doc map[string]any) (*jsonschema.Schema, *fastschema.Schema, error) {
	lib, read, err := compileSchemaDoc(url, doc)
	if err != nil {
		return nil, nil, err
	}
	return lib, fastschema.Compile(read, lib), nil
}

// checkDefaults validates each default against its own argument's schema,
// so a default outside an enum or range is caught at load time.
func (c *compiler) checkDefaults(out *Args, args []*lang.Arg) {
	for i, arg := range out.List {
		if arg.Default == cty.NilVal || !arg.Default.IsWhollyKnown() {
			continue
		}
		prop := out.Schema["properties"].(map[string]any)[arg.Name].(map[string]any)
		if problem := c.defaultProblem(prop, arg.Default); problem != "" {
			c.add(hcl.Diagnostics{errorf(args[i].Spec.Default.Expr.Range(), "Invalid default value",
				"The default of %q does not satisfy its own constraints: %s.", arg.Name, problem)})
		}
	}
}

// defaultProblem is what is wrong with value under the argument's schema
// prop, "" when nothing is (or when the schema does not compile, which is
// reported with the whole schema). An imported API gives thousands of
// arguments the same schema and default (a page size, a state filter),
// and compiling a schema is the dearest step of an argument, so each pair
// is checked once.
func (c *compiler) defaultProblem(prop map[string]any, value cty.Value) string {
	val, err := eval.ToJSON(value)
	if err != nil {
		if _, cerr := compileJSONSchema("mcpdecl:argument.json", prop); cerr != nil {
			return ""
		}
		return err.Error()
	}
	key, err := json.Marshal([]any{prop, val})
	if err != nil { // not JSON: check it without the memo
		return c.checkDefault(prop, val)
	}
	c.memo.mu.Lock()
	problem, ok := c.memo.defaultChecks[string(key)]
	c.memo.mu.Unlock()
	if ok {
		return problem
	}
	problem = c.checkDefault(prop, val)
	c.memo.mu.Lock()
	c.memo.defaultChecks[string(key)] = problem
	c.memo.mu.Unlock()
	return problem
}

func (c *compiler) checkDefault(prop map[string]any, val any) string {
	s, err := compileJSONSchema("mcpdecl:argument.json", prop)
	if err != nil {
		return ""
	}
	if err := s.Validate(val); err != nil {
		return schemaErrorText(err)
	}
	return ""
}

func schemaErrorText(err error) string {
	if ve, ok := err.(*jsonschema.ValidationError); ok {
		var parts []string
		for _, cause := range leafErrors(ve) {
			parts = append(parts, SchemaErrorText(cause.ErrorKind))
		}
		if len(parts) > 0 {
			return strings.Join(parts, "; ")
		}
	}
	return err.Error()
}

// SchemaErrorText is the text of one schema violation. A format
// violation says how such a value is written (YYYY-MM-DD) instead of the
// validator's text, which shows Go's reference layout ("2006-01-02").
func SchemaErrorText(k jsonschema.ErrorKind) string {
	if f, ok := k.(*kind.Format); ok {
		cause := ""
		if f.Err != nil {
			cause = f.Err.Error()
		}
		return eval.FormatProblem(f.Want, fmt.Sprint(f.Got), cause)
	}
	return k.LocalizedString(englishPrinter)
}

// englishPrinter renders validation messages; the validator needs one.
var englishPrinter = message.NewPrinter(language.English)

func leafErrors(ve *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(ve.Causes) == 0 {
		return []*jsonschema.ValidationError{ve}
	}
	var out []*jsonschema.ValidationError
	for _, c := range ve.Causes {
		out = append(out, leafErrors(c)...)
	}
	return out
}

func (c *compiler) compileValidations(vs []*lang.Validation, scope interface {
	CheckDynamic(*hcl.Attribute, cty.Type) (cty.Value, hcl.Diagnostics)
}) []*Validation {
	var out []*Validation
	for _, v := range vs {
		_, d1 := scope.CheckDynamic(v.Condition, cty.Bool)
		_, d2 := scope.CheckDynamic(v.ErrorMessage, cty.String)
		c.add(d1)
		c.add(d2)
		if len(eval.Variables(v.Condition.Expr)) == 0 && !d1.HasErrors() {
			c.add(hcl.Diagnostics{warnf(v.Condition.Expr.Range(), "Condition does not use the arguments",
				"This validation condition refers to no argument, so it is always true or always false. Refer to args.<name>.")})
		}
		val := &Validation{Condition: v.Condition.Expr, ErrorMessage: v.ErrorMessage.Expr}
		val.Uses, val.UsesAll = argsUsed(v.Condition.Expr, v.ErrorMessage.Expr)
		out = append(out, val)
	}
	return out
}

// argsUsed lists the arguments the expressions refer to as args.<name>;
// all is set when one refers to args otherwise (args[k], args itself).
func argsUsed(exprs ...hcl.Expression) (names []string, all bool) {
	seen := map[string]bool{}
	for _, e := range exprs {
		for _, t := range eval.Variables(e) {
			if t.RootName() != "args" {
				continue
			}
			var step hcl.TraverseAttr
			ok := false
			if len(t) > 1 {
				step, ok = t[1].(hcl.TraverseAttr)
			}
			if !ok {
				all = true
				continue
			}
			if !seen[step.Name] {
				seen[step.Name] = true
				names = append(names, step.Name)
			}
		}
	}
	return names, all
}

// goType is the Go type of a value of t inside expr-lang programs. A
// number is open (eval.Number): it holds the client's json.Number, so a value a
// double cannot hold as written (12345678901234567.89, 304.80) reaches
// templates and structured output with its digits; the programs convert
// it where they compute (eval.NumberOf), as they do a backend's numbers.
func goType(t *lang.Type) reflect.Type {
	if t == nil {
		return eval.AnyType
	}
	switch t.Kind {
	case lang.KindString:
		return reflect.TypeOf("")
	case lang.KindNumber:
		return eval.NumberType
	case lang.KindInteger:
		return reflect.TypeOf(0)
	case lang.KindBool:
		return reflect.TypeOf(false)
	case lang.KindList, lang.KindSet:
		return reflect.TypeOf([]any{})
	case lang.KindMap:
		return reflect.TypeOf(map[string]any{})
	case lang.KindObject:
		if t.Attrs == nil {
			return reflect.TypeOf(map[string]any{})
		}
		fields := make([]eval.EnvField, len(t.Attrs))
		for i, a := range t.Attrs {
			ty := goType(a.Type)
			if a.Optional {
				ty = nullableGoType(a.Type)
			}
			fields[i] = eval.EnvField{Name: a.Name, Type: ty}
		}
		return eval.EnvType(fields)
	}
	return eval.AnyType
}

// nullableGoType is the Go type of a value of t that may be null in
// expr-lang programs (an optional argument without a default, a nullable
// one, an optional attribute of an object): a list or a map is a nil one,
// an object a nil pointer to its struct, which keeps the names of its
// fields checked at load time; a string, a number or a bool is an open
// value (nil, or the value sent). An integer keeps its own type, so that a
// value sent is an int, as a required integer's is.
func nullableGoType(t *lang.Type) reflect.Type {
	if t != nil && t.Kind == lang.KindInteger {
		return eval.IntegerType
	}
	ty := goType(t)
	switch ty.Kind() {
	case reflect.Slice, reflect.Map, reflect.Interface:
		return ty
	case reflect.Struct:
		return reflect.PointerTo(ty)
	}
	return eval.AnyType
}

// mayBeNull reports whether an argument can be null in a call: it is
// optional without a default, or nullable.
func (c *compiler) mayBeNull(a *lang.Arg, arg *Arg) bool {
	if !arg.Required && arg.DefaultJSON == nil {
		return true
	}
	nullable, _ := c.staticBool(a.Spec.Nullable)
	return nullable
}
