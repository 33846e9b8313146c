package eval

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// EnvField is one name an expr-lang program may use, with its Go type.
type EnvField struct {
	Name string
	Type reflect.Type
	// LowerKeys says the field is a map whose keys are all lower case
	// (HTTP response headers): a literal key with a capital letter would
	// never be found, so it is a load-time error.
	LowerKeys bool
	// Hidden maps names that exist under this field but may not be used
	// here (a step that runs later) to the sentence that says why; a
	// program naming one gets that sentence instead of "no field".
	Hidden map[string]string
}

// EnvType builds the struct type that is an expr-lang environment with the
// given fields. Programs compiled against it refuse unknown names (`statuz`)
// and mismatched types (`status == "404"`) at load time.
func EnvType(fields []EnvField) reflect.Type {
	key := envKey(fields)
	envTypes.mu.Lock()
	defer envTypes.mu.Unlock()
	if t, ok := envTypes.byKey[key]; ok {
		return t
	}
	t := buildEnvType(fields)
	envTypes.byKey[key] = t
	return t
}

// envTypes holds every environment type built, by its fields: a big
// configuration asks for the same few shapes thousands of times, and
// reflect.StructOf builds the whole type before finding it has one. It
// grows as reflect's own cache of struct types does, by distinct shapes.
var envTypes = struct {
	mu     sync.Mutex
	byKey  map[string]reflect.Type
	typeID map[reflect.Type]int
}{byKey: map[string]reflect.Type{}, typeID: map[reflect.Type]int{}}

// envKey says everything of fields that makes their struct type: names,
// tags and field types (each by a number of its own).
func envKey(fields []EnvField) string {
	var b strings.Builder
	for _, f := range fields {
		b.WriteString(f.Name)
		b.WriteByte(0)
		if f.LowerKeys {
			b.WriteByte('l')
		}
		if len(f.Hidden) > 0 {
			hidden, _ := json.Marshal(f.Hidden)
			b.Write(hidden)
		}
		b.WriteByte(0)
		b.WriteString(strconv.Itoa(envTypeID(f.Type)))
		b.WriteByte(0)
	}
	return b.String()
}

func envTypeID(t reflect.Type) int {
	envTypes.mu.Lock()
	defer envTypes.mu.Unlock()
	id, ok := envTypes.typeID[t]
	if !ok {
		id = len(envTypes.typeID)
		envTypes.typeID[t] = id
	}
	return id
}

func buildEnvType(fields []EnvField) reflect.Type {
	sf := make([]reflect.StructField, len(fields))
	for i, f := range fields {
		// The json name matters when a program returns a whole struct
		// (`args`, or toJSON(args)): the value then shows its fields by name.
		tag := fmt.Sprintf(`expr:%q json:%q`, f.Name, f.Name)
		if f.LowerKeys {
			tag += ` keys:"lower"`
		}
		if len(f.Hidden) > 0 {
			hidden, _ := json.Marshal(f.Hidden)
			tag += fmt.Sprintf(` hidden:%q`, hidden)
		}
		sf[i] = reflect.StructField{
			Name: fmt.Sprintf("F%d", i),
			Type: f.Type,
			Tag:  reflect.StructTag(tag),
		}
	}
	return reflect.StructOf(sf)
}

// AnyType is the Go type of a value of unknown shape, such as a JSON body.
var AnyType = reflect.TypeOf((*any)(nil)).Elem()

// Number is the type of a client's number (a number argument) in
// expr-lang programs: open like any, so it holds the json.Number the
// client sent (or nil, for an optional one left out).
type Number any

// NumberType is the reflect.Type of Number.
var NumberType = reflect.TypeOf((*Number)(nil)).Elem()

// Integer is the type of a client's integer in expr-lang programs when it
// may be null (an optional integer argument left out): nil, or an int as a
// required integer is. It is named so that the value sent can be made an
// int where it is set.
type Integer any

// IntegerType is the reflect.Type of Integer.
var IntegerType = reflect.TypeOf((*Integer)(nil)).Elem()

// Program is a compiled expr-lang program with its source.
type Program struct {
	*vm.Program
	Source string
	Range  hcl.Range
}

// CompileProgram compiles the expr-lang program held by the HCL string attr
// against the environment type env. asBool requires a boolean result (for
// `when` conditions).
func CompileProgram(attr *hcl.Attribute, env reflect.Type, asBool bool, files map[string]*hcl.File) (*Program, hcl.Diagnostics) {
	text, diags := literalString(attr, "an expr-lang expression")
	if diags.HasErrors() {
		return nil, diags
	}
	src := newExprSource(text, attr.Expr.Range(), files)
	return compileText(text, 0, src, attr, env, asBool)
}

func compileText(text string, offset int, src *exprSource, attr *hcl.Attribute, env reflect.Type, asBool bool) (*Program, hcl.Diagnostics) {
	if strings.TrimSpace(text) == "" {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Empty expression",
			Detail:   "This needs an expr-lang expression, for example status == 404.",
			Subject:  attr.Expr.Range().Ptr(),
		}}
	}
	prog, err := compileExpr(text, env, asBool)
	if err != nil {
		return nil, exprDiag(err, text, offset, src, attr, env)
	}
	if err := checkLowerKeys(prog.Node(), env); err != nil {
		return nil, exprDiag(err, text, offset, src, attr, env)
	}
	return &Program{Program: prog, Source: text, Range: attr.Expr.Range()}, nil
}

// checkLowerKeys finds a literal key with a capital letter used on a field
// whose keys are lower case (headers['Link'], steps.page.headers['Link']):
// expr-lang would give the empty string for it, silently.
func checkLowerKeys(root ast.Node, env reflect.Type) error {
	v := &lowerKeyVisitor{env: env}
	ast.Walk(&root, v)
	return v.err
}

type lowerKeyVisitor struct {
	env reflect.Type
	err error
}

func (v *lowerKeyVisitor) Visit(node *ast.Node) {
	m, ok := (*node).(*ast.MemberNode)
	if !ok || v.err != nil {
		return
	}
	key, ok := m.Property.(*ast.StringNode)
	if !ok || key.Value == strings.ToLower(key.Value) {
		return
	}
	f, path, ok := envFieldOf(m.Node, v.env)
	if !ok || f.Tag.Get("keys") != "lower" {
		return
	}
	loc := key.Location()
	v.err = &file.Error{Location: loc, Message: fmt.Sprintf("the keys of %s are lower case: write %s['%s'] (%s['%s'] would be empty)",
		path, path, strings.ToLower(key.Value), path, key.Value)}
}

// envFieldOf finds the environment field a name or a chain of members
// (steps.page.headers) stands for, with its path as written.
func envFieldOf(n ast.Node, env reflect.Type) (reflect.StructField, string, bool) {
	switch n := n.(type) {
	case *ast.IdentifierNode:
		f, ok := fieldByTag(env, n.Value)
		return f, n.Value, ok
	case *ast.MemberNode:
		prop, ok := n.Property.(*ast.StringNode)
		if !ok {
			return reflect.StructField{}, "", false
		}
		parent, path, ok := envFieldOf(n.Node, env)
		if !ok {
			return reflect.StructField{}, "", false
		}
		f, ok := fieldByTag(parent.Type, prop.Value)
		return f, path + "." + prop.Value, ok
	}
	return reflect.StructField{}, "", false
}

func exprDiag(err error, text string, offset int, src *exprSource, attr *hcl.Attribute, env reflect.Type) hcl.Diagnostics {
	r := attr.Expr.Range()
	msg := err.Error()
	var fe *file.Error
	if errors.As(err, &fe) {
		msg = fe.Message
		start := src.pos(offset+fe.From, r.Start)
		end := src.pos(offset+max(fe.To, fe.From+1), r.End)
		if end.Byte <= start.Byte {
			end = src.pos(offset+fe.From+1, r.End)
		}
		r = hcl.Range{Filename: r.Filename, Start: start, End: end}
		if at, ch := unclosedBracket(text); at >= 0 && strings.Contains(msg, "unexpected token") {
			p := src.pos(offset+at, r.Start)
			msg = fmt.Sprintf("the %c at line %d, column %d is never closed; add %s where what it encloses ends", ch, p.Line, p.Column, closingOf[ch])
			r = hcl.Range{Filename: r.Filename, Start: p, End: src.pos(offset+at+1, r.End)}
		}
		if strings.HasPrefix(msg, "unknown name ") && isCalled(src.text, offset+fe.From) {
			msg = "unknown function " + strings.TrimPrefix(msg, "unknown name ")
		}
		if strings.Contains(msg, "has no field ") {
			msg = noFieldHint(memberPath(src.text, offset+fe.From), env)
		}
		if strings.HasPrefix(msg, "array elements can only be selected using an integer") {
			if hint, ok := listHint(memberPath(src.text, offset+fe.From), env); ok {
				msg = hint
			}
		}
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid expression",
		Detail:   exprHint(msg, env),
		Subject:  &r,
		Context:  attr.Range.Ptr(),
	}}
}

// exprHint turns an expr-lang compile message into a sentence that says
// what to do.
func exprHint(msg string, env reflect.Type) string {
	msg = readableTypes(strings.TrimSpace(msg))
	out := upperFirst(msg)
	if !strings.HasSuffix(out, "?") && !strings.HasSuffix(out, ".") {
		out += "."
	}
	switch {
	case strings.HasPrefix(msg, "unknown name"):
		names := envNames(env)
		out += fmt.Sprintf(" The names available here are %s.", strings.Join(names, ", "))
		if strings.TrimSpace(strings.TrimPrefix(msg, "unknown name ")) == "each" {
			out += " each is only known in the error rules (and the call) of a step with for_each, not in its when, which runs once for the whole step: add for_each to the step, or read the answers as a list after it, as in map(steps.<name>, #.body)."
		} else if s := closestName(strings.TrimPrefix(msg, "unknown name "), names); s != "" {
			out += fmt.Sprintf(" Did you mean %q?", s)
		}
	case strings.HasPrefix(msg, "unknown function "):
		out += functionHint(strings.TrimSpace(strings.TrimPrefix(msg, "unknown function ")))
	case strings.Contains(msg, "literal not terminated"):
		out += " An expr-lang string cannot hold a raw line break; inside an HCL string write '\\n' as '\\\\n'."
	case strings.Contains(msg, "mismatched types"):
		out += " Compare values of the same type: numbers without quotes (status == 409), strings in quotes (body.state == 'open')."
	case strings.Contains(msg, "expected bool"):
		out += " A condition must be true or false, for example status == 404."
	case strings.Contains(msg, "unexpected token Operator(\":\")"):
		out += " To build a map inside map(...), wrap it in parentheses: map(body, ({'id': #.id}))."
	}
	return out
}

// literalString returns the value of an attribute that must be a plain
// string: expr-lang source is not an HCL template.
func literalString(attr *hcl.Attribute, what string) (string, hcl.Diagnostics) {
	if !isTemplate(attr.Expr) && len(Variables(attr.Expr)) > 0 {
		return "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Expected a quoted string",
			Detail:   fmt.Sprintf("%s is %s, kept as text and evaluated after the call, so it goes in quotes: %s.", attr.Name, what, quotedExample(attr.Name, what)),
			Subject:  attr.Expr.Range().Ptr(),
		}}
	}
	if isInterpolated(attr.Expr) {
		how := "Write names directly, as in args.id or status"
		if what == "a message template" {
			how = "Write {{ ... }} pieces instead, as in {{ args.id }}"
		}
		return "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Interpolation in expr-lang",
			Detail:   fmt.Sprintf("%s is %s, evaluated after the call; ${...} is HCL interpolation and is not allowed in it. %s (use $${ for a literal ${).", attr.Name, what, how),
			Subject:  attr.Expr.Range().Ptr(),
		}}
	}
	v, diags := attr.Expr.Value(nil)
	if diags.HasErrors() {
		return "", diags
	}
	if v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Expected a string",
			Detail:   fmt.Sprintf("%s must be a string holding %s, for example \"status == 404\".", attr.Name, what),
			Subject:  attr.Expr.Range().Ptr(),
		}}
	}
	return v.AsString(), nil
}

func isTemplate(e hcl.Expression) bool {
	switch e.(type) {
	case *hclsyntax.TemplateExpr, *hclsyntax.TemplateWrapExpr:
		return true
	}
	return false
}

func quotedExample(name, what string) string {
	if what == "a message template" {
		return name + ` = "Nothing matches {{ args.query }}."`
	}
	return name + ` = "status == 404"`
}

func isInterpolated(e hcl.Expression) bool {
	if len(Variables(e)) > 0 {
		return true
	}
	if t, ok := e.(*hclsyntax.TemplateExpr); ok {
		for _, p := range t.Parts {
			if _, lit := p.(*hclsyntax.LiteralValueExpr); !lit {
				return true
			}
		}
	}
	_, wrapped := e.(*hclsyntax.TemplateWrapExpr)
	return wrapped
}

// envNames lists the top-level names of an environment type.
func envNames(env reflect.Type) []string {
	var out []string
	for i := range env.NumField() {
		out = append(out, env.Field(i).Tag.Get("expr"))
	}
	return out
}

func closestName(given string, names []string) string {
	return closest(strings.TrimSpace(given), plainNames(names))
}

// memberPath returns the names before the member that starts at rune i of
// text: for "answers.smaple" and the position of "smaple", ["answers",
// "smaple"]. It reads back over "name." and "name?." steps.
func memberPath(text string, i int) []string {
	runes := []rune(text)
	if i < 0 || i > len(runes) {
		return nil
	}
	end := i
	for end < len(runes) && isNameRune(runes[end]) {
		end++
	}
	path := []string{string(runes[i:end])}
	for j := i; ; {
		if j > 0 && runes[j-1] == '.' {
			j--
		} else {
			break
		}
		if j > 0 && runes[j-1] == '?' {
			j--
		}
		for j > 0 && runes[j-1] == ']' { // an index: steps.pages[0].body
			k := j - 1
			for k > 0 && runes[k-1] >= '0' && runes[k-1] <= '9' {
				k--
			}
			if k == j-1 || k == 0 || runes[k-1] != '[' {
				return path
			}
			path = append([]string{string(runes[k-1 : j])}, path...)
			j = k - 1
		}
		k := j
		for k > 0 && isNameRune(runes[k-1]) {
			k--
		}
		if k == j {
			break
		}
		path = append([]string{string(runes[k:j])}, path...)
		j = k
	}
	return path
}

func isNameRune(r rune) bool {
	return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// noFieldHint explains a name missing from one of the typed namespaces
// (args, answers, sample, ...): what is there, and the closest name.
func noFieldHint(path []string, env reflect.Type) string {
	if len(path) < 2 {
		return "unknown field"
	}
	if hint, ok := listHint(path, env); ok {
		return hint
	}
	ty, missing := env, path[len(path)-1]
	ownerName := joinPath(path[:len(path)-1])
	var owner reflect.StructField
	for _, name := range path[:len(path)-1] {
		if strings.HasPrefix(name, "[") && ty.Kind() == reflect.Slice && ty.Elem().Kind() == reflect.Struct {
			ty = ty.Elem() // an item of a list
			continue
		}
		f, ok := fieldByTag(ty, name)
		if !ok || f.Type.Kind() != reflect.Struct && !(f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Struct) {
			return fmt.Sprintf("%s has no field %s", ownerName, missing)
		}
		ty, owner = f.Type, f
	}
	if ty.Kind() != reflect.Struct {
		return fmt.Sprintf("%s has no field %s", ownerName, missing)
	}
	if why := hiddenOf(owner)[missing]; why != "" {
		return why
	}
	names := plainNames(envNames(ty))
	var out string
	switch ownerName {
	case "args":
		out = fmt.Sprintf("there is no argument named %s; the arguments are %s", missing, listOrNone(names))
		if len(names) == 0 {
			out = fmt.Sprintf("there is no argument named %s; this block has no arguments", missing)
		}
	case "answers":
		out = fmt.Sprintf("there is no question key %s in answers; the keys are %s", missing, listOrNone(names))
	case "steps":
		out = fmt.Sprintf("there is no step named %s; the steps that can be used here are %s", missing, listOrNone(names))
		if len(names) == 0 {
			out = fmt.Sprintf("there is no step named %s; no step can be used here", missing)
		}
	default:
		out = fmt.Sprintf("there is no field %s in %s; its fields are %s", missing, ownerName, listOrNone(names))
	}
	if s := closestName(missing, names); s != "" {
		out += fmt.Sprintf(". Did you mean %s.%s?", ownerName, s)
	}
	return out
}

// listHint explains a name read on a list of answers without picking an
// item first (steps.pages.body, where steps.pages has one answer per item
// of its for_each); ok is false when path is not that.
func listHint(path []string, env reflect.Type) (string, bool) {
	if len(path) < 2 {
		return "", false
	}
	ty := env
	for _, name := range path[:len(path)-1] {
		if strings.HasPrefix(name, "[") && ty.Kind() == reflect.Slice {
			ty = ty.Elem()
			continue
		}
		f, ok := fieldByTag(ty, name)
		if !ok {
			return "", false
		}
		ty = f.Type
	}
	if ty.Kind() != reflect.Slice || ty.Elem().Kind() != reflect.Struct {
		return "", false
	}
	list, name := joinPath(path[:len(path)-1]), path[len(path)-1]
	names := plainNames(envNames(ty.Elem()))
	if !slices.Contains(names, name) {
		return fmt.Sprintf("there is one answer per item in %s, a list with %s in each; pick an item first, as in %s[0].<name>, or map over it, as in map(%s, #.<name>)", list, strings.Join(names, ", "), list, list), true
	}
	return fmt.Sprintf("there is one answer per item in %s, a list with %s in each; write %s[0].%s for the first, or map(%s, #.%s) for all of them", list, strings.Join(names, ", "), list, name, list, name), true
}

// joinPath writes a member path as it reads: steps.pages[0].body.
func joinPath(path []string) string {
	var b strings.Builder
	for i, p := range path {
		if i > 0 && !strings.HasPrefix(p, "[") {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

// hiddenOf reads the Hidden names of an environment field from its tag.
func hiddenOf(f reflect.StructField) map[string]string {
	tag := f.Tag.Get("hidden")
	if tag == "" {
		return nil
	}
	var out map[string]string
	if json.Unmarshal([]byte(tag), &out) != nil {
		return nil
	}
	return out
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// fieldByTag finds the field of an environment struct named name. A
// field that is a pointer to a struct (an object that may be null) is
// given as the struct it points to.
func fieldByTag(ty reflect.Type, name string) (reflect.StructField, bool) {
	if ty.Kind() != reflect.Struct {
		return reflect.StructField{}, false
	}
	for i := range ty.NumField() {
		if f := ty.Field(i); f.Tag.Get("expr") == name {
			if f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Struct {
				f.Type = f.Type.Elem()
			}
			return f, true
		}
	}
	return reflect.StructField{}, false
}
