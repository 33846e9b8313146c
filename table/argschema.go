package table

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/lang"
)

// checkUntypedDefault warns when an argument without a type (a string)
// has a number or bool default: it would be offered and sent as text,
// which is rarely what was meant.
func (c *compiler) checkUntypedDefault(spec *lang.ArgSpec) {
	if spec.TypeExpr != nil {
		return
	}
	v, diags := spec.Default.Expr.Value(nil)
	if diags.HasErrors() || !v.IsKnown() || v.IsNull() {
		return
	}
	text, err := convert.Convert(v, cty.String)
	if err != nil {
		return
	}
	var want string
	switch v.Type() {
	case cty.Number:
		want = "number (or integer)"
	case cty.Bool:
		want = "bool"
	default:
		return
	}
	c.add(hcl.Diagnostics{{
		Severity: hcl.DiagWarning,
		Summary:  "Default of another type",
		Detail:   fmt.Sprintf("This argument has no type, so it is a string, and its default becomes the text %q. Add type = %s if it is not meant as text.", text.AsString(), want),
		Subject:  spec.Default.Expr.Range().Ptr(),
	}})
}

// compileArg compiles one argument into its JSON Schema and its Arg.
func (c *compiler) compileArg(a *lang.Arg) (map[string]any, *Arg) {
	spec := a.Spec
	schema := c.specSchema(spec, a.Name)
	// The type is read after the schema: property blocks (of the argument
	// or of its items) make a bare object's fields known.
	arg := &Arg{Name: a.Name, Type: spec.Type.CtyType().WithoutOptionalAttributesDeep(), DeclRange: a.DeclRange, Default: cty.NilVal}
	arg.Description = c.staticString(spec.Description)
	arg.Sensitive = schema["writeOnly"] == true
	if spec.Default != nil {
		c.checkUntypedDefault(spec)
		arg.Default = c.typedValue(spec.Default, arg.Type, a.Name)
		if v, ok := c.jsonOf(spec.Default, arg.Default); ok {
			schema["default"] = v
			arg.DefaultJSON = plainNumbers(v)
		}
	}
	arg.Required = c.isRequired(a, arg.Default != cty.NilVal)
	if enum, ok := schema["enum"].([]any); ok {
		arg.Enum = jsonStrings(enum)
	}
	arg.Completions = c.stringListAttr(spec.Completions)
	if spec.Complete != nil {
		arg.Complete = c.compileComplete(spec.Complete, a.Name)
	}
	return schema, arg
}

// isRequired decides whether an argument must be given: yes unless it has
// a default, or says required = false or optional = true.
func (c *compiler) isRequired(a *lang.Arg, hasDefault bool) bool {
	req, reqSet := c.staticBool(a.Spec.Required)
	opt, optSet := c.staticBool(a.Spec.Optional)
	if reqSet && optSet && req == opt {
		c.add(hcl.Diagnostics{errorf(a.Spec.Optional.NameRange, "Conflicting required and optional",
			"The argument %q sets both required and optional to contradicting values; keep one of them.", a.Name)})
	}
	if reqSet && req && hasDefault {
		c.add(hcl.Diagnostics{errorf(a.Spec.Required.NameRange, "Required argument with a default",
			"The argument %q has a default, so it is never missing. Remove required = true or the default.", a.Name)})
	}
	switch {
	case hasDefault:
		return false
	case reqSet:
		return req
	case optSet:
		return !opt
	}
	return true
}

// specSchema builds the JSON Schema of one value.
func (c *compiler) specSchema(spec *lang.ArgSpec, name string) map[string]any {
	t := spec.Type
	sensitive, _ := c.staticBool(spec.Sensitive)
	s := typeSchema(t)
	if sensitive {
		// JSON Schema's word for a value that is sent but never shown back.
		s["writeOnly"] = true
	}
	c.applyItems(s, spec, name)
	c.applyProperties(s, spec, name)
	if nullable, _ := c.staticBool(spec.Nullable); nullable {
		if ty, ok := s["type"].(string); ok {
			s["type"] = []any{ty, "null"}
		}
	}
	c.putString(s, "title", spec.Title)
	c.putString(s, "description", spec.Description)
	ty := t.CtyType().WithoutOptionalAttributesDeep()
	if v := c.enumValue(spec, ty); v != cty.NilVal {
		if j, ok := c.jsonOf(spec.Enum, v); ok {
			s["enum"] = j
		}
	}
	if spec.Const != nil {
		if j, ok := c.jsonOf(spec.Const, c.typedValue(spec.Const, ty, name)); ok {
			s["const"] = j
		}
	}
	if spec.Examples != nil {
		if j, ok := c.jsonOf(spec.Examples, c.typedValue(spec.Examples, cty.List(ty), name)); ok {
			s["examples"] = j
		}
	}
	c.applyConstraints(s, spec, name)
	return s
}

func typeSchema(t *lang.Type) map[string]any {
	if t == nil { // a type that did not parse; already reported
		return map[string]any{}
	}
	switch t.Kind {
	case lang.KindString:
		return map[string]any{"type": "string"}
	case lang.KindNumber:
		return map[string]any{"type": "number"}
	case lang.KindInteger:
		return map[string]any{"type": "integer"}
	case lang.KindBool:
		return map[string]any{"type": "boolean"}
	case lang.KindList, lang.KindSet:
		s := map[string]any{"type": "array"}
		if t.Elem != nil {
			s["items"] = typeSchema(t.Elem)
		}
		if t.Kind == lang.KindSet {
			s["uniqueItems"] = true
		}
		return s
	case lang.KindMap:
		s := map[string]any{"type": "object"}
		if t.Elem != nil {
			s["additionalProperties"] = typeSchema(t.Elem)
		}
		return s
	case lang.KindObject:
		return objectTypeSchema(t)
	}
	return map[string]any{}
}

func objectTypeSchema(t *lang.Type) map[string]any {
	s := map[string]any{"type": "object"}
	if t.Attrs == nil {
		return s
	}
	props := map[string]any{}
	required := []any{}
	for _, a := range t.Attrs {
		props[a.Name] = typeSchema(a.Type)
		if !a.Optional {
			required = append(required, a.Name)
		}
	}
	s["properties"] = props
	s["additionalProperties"] = false
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// applyItems merges an `items` block into an array schema.
func (c *compiler) applyItems(s map[string]any, spec *lang.ArgSpec, name string) {
	if spec.Items == nil {
		return
	}
	if spec.Type.Kind != lang.KindList && spec.Type.Kind != lang.KindSet {
		c.add(hcl.Diagnostics{errorf(spec.ItemsBlocks[0].DeclRange, "Items on a non-list argument",
			"An items block describes the elements of a list or set; %q is %s. Use type = list(...) or remove the block.", name, spec.Type)})
		return
	}
	if spec.Type.Elem != nil && spec.Items.TypeExpr != nil && spec.Items.Type.String() != spec.Type.Elem.String() {
		c.add(hcl.Diagnostics{errorf(spec.Items.TypeExpr.Expr.Range(), "Conflicting item type",
			"The argument %q is %s but its items block says %s. Say the element type once.", name, spec.Type, spec.Items.Type)})
	}
	c.refuseNestedValidations(spec.Items, name)
	s["items"] = c.specSchema(spec.Items, name+"[]")
	if spec.Type.Elem != nil && spec.Type.Elem.Kind == lang.KindObject && spec.Type.Elem.Attrs == nil {
		// items { property ... } describes the elements' fields.
		spec.Type.Elem = spec.Items.Type
	}
}

// applyProperties merges `property` blocks into an object schema.
func (c *compiler) applyProperties(s map[string]any, spec *lang.ArgSpec, name string) {
	if len(spec.Properties) == 0 {
		return
	}
	if spec.Type.Kind != lang.KindObject || spec.Type.Attrs != nil && !spec.Type.FromProperties {
		c.add(hcl.Diagnostics{errorf(spec.Properties[0].DeclRange, "Properties on a non-object argument",
			"property blocks describe the fields of an argument with type = object; %q is %s. Use type = object, or describe the fields in the type expression only.", name, spec.Type)})
		return
	}
	props := map[string]any{}
	required := []any{}
	var attrs []*lang.TypeAttr
	for _, p := range spec.Properties {
		if p.Spec == nil {
			continue
		}
		c.refuseNestedValidations(p.Spec, name+"."+p.Name)
		ps, parg := c.compileArg(p)
		props[p.Name] = ps
		if parg.Required {
			required = append(required, p.Name)
		}
		attrs = append(attrs, &lang.TypeAttr{Name: p.Name, Type: p.Spec.Type, Optional: !parg.Required})
	}
	sort.Slice(attrs, func(i, j int) bool { return attrs[i].Name < attrs[j].Name })
	spec.Type.Attrs = attrs // the object's type is now known field by field
	spec.Type.FromProperties = true
	s["properties"] = props
	s["additionalProperties"] = false
	if len(required) > 0 {
		s["required"] = required
	}
}

// constraint says which JSON Schema keyword an attribute becomes and which
// kinds of argument it applies to.
type constraint struct {
	attr    func(*lang.ArgSpec) *hcl.Attribute
	keyword string
	kinds   []lang.Kind
	ty      cty.Type
}

var numberKinds = []lang.Kind{lang.KindNumber, lang.KindInteger}
var arrayKinds = []lang.Kind{lang.KindList, lang.KindSet}

var constraints = []constraint{
	{func(s *lang.ArgSpec) *hcl.Attribute { return s.Minimum }, "minimum", numberKinds, cty.Number},
	{func(s *lang.ArgSpec) *hcl.Attribute { return s.Maximum }, "maximum", numberKinds, cty.Number},
	{func(s *lang.ArgSpec) *hcl.Attribute { return s.ExclusiveMinimum }, "exclusiveMinimum", numberKinds, cty.Number},
	{func(s *lang.ArgSpec) *hcl.Attribute { return s.ExclusiveMaximum }, "exclusiveMaximum", numberKinds, cty.Number},
	{func(s *lang.ArgSpec) *hcl.Attribute { return s.MultipleOf }, "multipleOf", numberKinds, cty.Number},
	{func(s *lang.ArgSpec) *hcl.Attribute { return s.MinLength }, "minLength", []lang.Kind{lang.KindString}, cty.Number},
	{func(s *lang.ArgSpec) *hcl.Attribute { return s.MaxLength }, "maxLength", []lang.Kind{lang.KindString}, cty.Number},
	{func(s *lang.ArgSpec) *hcl.Attribute { return s.Pattern }, "pattern", []lang.Kind{lang.KindString}, cty.String},
	{func(s *lang.ArgSpec) *hcl.Attribute { return s.Format }, "format", []lang.Kind{lang.KindString}, cty.String},
	{func(s *lang.ArgSpec) *hcl.Attribute { return s.MinItems }, "minItems", arrayKinds, cty.Number},
	{func(s *lang.ArgSpec) *hcl.Attribute { return s.MaxItems }, "maxItems", arrayKinds, cty.Number},
	{func(s *lang.ArgSpec) *hcl.Attribute { return s.UniqueItems }, "uniqueItems", arrayKinds, cty.Bool},
}

func (c *compiler) applyConstraints(s map[string]any, spec *lang.ArgSpec, name string) {
	for _, k := range constraints {
		attr := k.attr(spec)
		if attr == nil {
			continue
		}
		if !kindIn(spec.Type.Kind, k.kinds) {
			c.add(hcl.Diagnostics{errorf(attr.NameRange, "Constraint does not apply",
				"%s applies to %s arguments, but %q is %s. Remove it or change the type.", attr.Name, kindNames(k.kinds), name, spec.Type)})
			continue
		}
		v := c.staticValue(attr, k.ty)
		if v == cty.NilVal || !v.IsWhollyKnown() || v.IsNull() {
			continue
		}
		j, _ := eval.ToJSON(v)
		s[k.keyword] = j
	}
	c.checkConstraintValues(s, spec, name)
}

// knownFormats are the JSON Schema formats the validator checks.
var knownFormats = []string{"date", "date-time", "time", "duration", "email", "idn-email", "hostname", "idn-hostname",
	"ipv4", "ipv6", "uri", "uri-reference", "iri", "iri-reference", "uri-template", "uuid", "regex", "json-pointer", "relative-json-pointer"}

func (c *compiler) checkConstraintValues(s map[string]any, spec *lang.ArgSpec, name string) {
	if p, ok := s["pattern"].(string); ok {
		if _, err := regexp.Compile(p); err != nil {
			c.add(hcl.Diagnostics{errorf(spec.Pattern.Expr.Range(), "Invalid pattern", "The pattern of %q is not a valid regular expression: %s.", name, err)})
			delete(s, "pattern")
		}
	}
	if f, ok := s["format"].(string); ok && !contains(knownFormats, f) {
		c.add(hcl.Diagnostics{errorf(spec.Format.Expr.Range(), "Unknown format",
			"%q is not a format the argument validator knows.%s Known formats: date, date-time, time, email, uri, uuid, hostname, ipv4, ipv6 and more (see docs/language.md).", f, rule.DidYouMean(f, knownFormats))})
		delete(s, "format")
	}
	c.checkOrder(s, spec.Maximum, "minimum", "maximum", name)
	c.checkOrder(s, spec.MaxLength, "minLength", "maxLength", name)
	c.checkOrder(s, spec.MaxItems, "minItems", "maxItems", name)
	for _, k := range []struct {
		key  string
		attr *hcl.Attribute
	}{{"minLength", spec.MinLength}, {"maxLength", spec.MaxLength}, {"minItems", spec.MinItems}, {"maxItems", spec.MaxItems}} {
		if v, ok := s[k.key]; ok && !isNonNegativeInt(v) {
			c.add(hcl.Diagnostics{errorf(k.attr.Expr.Range(), "Invalid constraint value", "%s must be a whole number of zero or more.", k.attr.Name)})
			delete(s, k.key)
		}
	}
}

func (c *compiler) checkOrder(s map[string]any, maxAttr *hcl.Attribute, lo, hi, name string) {
	a, okA := toFloat(s[lo])
	b, okB := toFloat(s[hi])
	if okA && okB && a > b {
		c.add(hcl.Diagnostics{errorf(maxAttr.Expr.Range(), "Impossible constraint",
			"For %q, %s (%v) is greater than %s (%v), so no value is valid.", name, lo, s[lo], hi, s[hi])})
	}
}

// enumValue evaluates enum as a list of the argument's type.
func (c *compiler) enumValue(spec *lang.ArgSpec, ty cty.Type) cty.Value {
	if spec.Enum == nil {
		return cty.NilVal
	}
	v := c.staticValue(spec.Enum, cty.List(ty))
	if v != cty.NilVal && v.IsWhollyKnown() && !v.IsNull() && v.LengthInt() == 0 {
		c.add(hcl.Diagnostics{errorf(spec.Enum.Expr.Range(), "Empty enum", "An empty enum allows no value at all; list the allowed values or remove enum.")})
	}
	return v
}

// typedValue evaluates a static attribute and converts it to ty.
func (c *compiler) typedValue(attr *hcl.Attribute, ty cty.Type, name string) cty.Value {
	v, d := c.staticScope().StaticValue(attr, cty.DynamicPseudoType)
	if d.HasErrors() {
		c.add(d)
		return cty.NilVal
	}
	out, err := convert.Convert(v, ty)
	if err != nil {
		c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), "Invalid value type",
			"%s of %q must be %s: %s.", attr.Name, name, ty.FriendlyName(), err)})
		return cty.NilVal
	}
	return out
}

func (c *compiler) jsonOf(attr *hcl.Attribute, v cty.Value) (any, bool) {
	if v == cty.NilVal || !v.IsWhollyKnown() {
		return nil, false
	}
	j, err := eval.ToJSON(v)
	if err != nil {
		c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), "Invalid value", "%s cannot be written as JSON: %s.", attr.Name, err)})
		return nil, false
	}
	return j, true
}

func (c *compiler) putString(s map[string]any, key string, attr *hcl.Attribute) {
	if v := c.staticString(attr); v != "" {
		s[key] = v
	}
}

func (c *compiler) stringListAttr(attr *hcl.Attribute) []string {
	return stringList(c.staticValue(attr, cty.List(cty.String)))
}

func stringList(v cty.Value) []string {
	if v == cty.NilVal || v.IsNull() || !v.IsWhollyKnown() || !v.CanIterateElements() {
		return nil
	}
	var out []string
	for _, e := range v.AsValueSlice() {
		if s, err := eval.PartString(e); err == nil {
			out = append(out, s)
		}
	}
	return out
}

func kindIn(k lang.Kind, kinds []lang.Kind) bool {
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}

func kindNames(kinds []lang.Kind) string {
	switch len(kinds) {
	case 1:
		return string(kinds[0])
	case 2:
		return fmt.Sprintf("%s or %s", kinds[0], kinds[1])
	}
	return fmt.Sprint(kinds)
}

func jsonStrings(list []any) []string {
	out := make([]string, 0, len(list))
	for _, v := range list {
		out = append(out, fmt.Sprint(v))
	}
	return out
}

// refuseNestedValidations reports validation blocks inside items and
// property blocks: conditions are checked once per call, over all the
// arguments, so they belong on a top-level argument or on the tool.
func (c *compiler) refuseNestedValidations(spec *lang.ArgSpec, name string) {
	for _, v := range spec.Validations {
		c.add(hcl.Diagnostics{errorf(v.DeclRange, "Misplaced validation block",
			"Validation blocks are checked over all the arguments, so they go on a top-level argument or on the tool, not inside %q. Move it up and refer to the value as args.<name>.", name)})
	}
}

// plainNumbers returns a copy of a JSON value with json.Number replaced by
// int64 (whole numbers that fit) or float64, the forms decoded arguments
// take, except a number no float64 holds as written: that one keeps its
// digits as a json.Number, as a client's argument would (rule.Number).
func plainNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		return rule.Number(string(x))
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = plainNumbers(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plainNumbers(e)
		}
		return out
	}
	return v
}

// compileComplete compiles the call of a complete block. Its expressions
// see args.value, the text typed so far, and nothing else of the request.
func (c *compiler) compileComplete(call *lang.Call, name string) *CompleteCall {
	valueArg := &lang.Arg{Name: "value", Spec: &lang.ArgSpec{Type: &lang.Type{Kind: lang.KindString}}}
	args := c.compileArgs([]*lang.Arg{valueArg}, nil, fmt.Sprintf("The complete block of %q", name))
	scope := c.scope(args, fmt.Sprintf("the complete block of %q (args.value is the text typed so far)", name))
	return &CompleteCall{Action: c.compileCall(call, fmt.Sprintf("complete block of %q", name), scope), Kind: call.Kind, Args: args}
}
