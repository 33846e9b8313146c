package dispatch

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/internal/jsondec"
	"github.com/mcpdecl/mcpdecl/table"
)

// callArgs are validated arguments in the two forms the call needs.
type callArgs struct {
	JSON map[string]any // with defaults applied
	Cty  cty.Value      // an object of the declared types; absent ones null
}

// argProblem is an argument error written for the model.
type argProblem struct{ msg string }

func (e *argProblem) Error() string { return e.msg }

// decode validates raw JSON arguments against the compiled schema and
// the validation blocks. Problems come back as an *argProblem listing every
// violation, so the model can fix them all in one retry.
func decode(a *table.Args, static *eval.Static, raw json.RawMessage) (*callArgs, error) {
	instance, err := parseArgs(raw)
	if err != nil {
		return nil, err
	}
	if _, err := a.Validator(); err != nil {
		return nil, fmt.Errorf("compile argument schema: %w", err)
	}
	obj, _ := instance.(map[string]any)
	out := &callArgs{JSON: applyDefaults(a, obj)}
	var problems []string
	var found []violation
	if err := a.Validate(instance); err != nil {
		found = append(found, schemaViolations(err)...)
	}
	found = append(found, outOfRange(a.Schema, instance)...)
	if len(found) > 0 {
		problems = append(problems, notValid+renderViolations(found, "arguments", "argument"))
	}
	if len(found) > maxViolations {
		// The list is cut short anyway: a flood of wrong items costs no
		// conversion and no validation blocks on top of the schema.
		return nil, &argProblem{problems[0]}
	}
	// The validation blocks run even when the schema found problems, as
	// long as the values convert, so the model learns everything at once.
	var convErr error
	if out.Cty, convErr = toCty(a, out.JSON); convErr == nil {
		problems = append(problems, failedValidations(a, static, out.Cty, reportedArgs(found))...)
	} else if len(problems) == 0 {
		problems = append(problems, "invalid arguments: "+convErr.Error())
	}
	if len(problems) > 0 {
		return nil, &argProblem{strings.Join(problems, "\n")}
	}
	return out, nil
}

// notValid heads the list of an invalid call's problems.
const notValid = "The arguments are not valid; fix these and call again:\n"

// parseArgs decodes the arguments, numbers as json.Number, and refuses
// numbers of absurd size before any schema work sees them.
func parseArgs(raw json.RawMessage) (any, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]any{}, nil
	}
	// One copy of the text; strings are slices of it, and no reader buffer
	// grows with the input (a 4 MiB body costs about one more 4 MiB).
	v, err := jsondec.DecodeNumbers(string(raw))
	if err != nil {
		return nil, &argProblem{"the arguments are not valid JSON: " + err.Error()}
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, &argProblem{"the arguments must be a JSON object of named values"}
	}
	if absurd := absurdNumbers(v); len(absurd) > 0 {
		return nil, &argProblem{notValid + renderViolations(absurd, "arguments", "argument")}
	}
	return v, nil
}

// violations lists a validation error's leaves, one "- where: what" line
// each, in the order of the value's locations and at most maxViolations
// of them; whole names the root and part a location inside it.
func violations(err error, whole, part string) string {
	return renderViolations(schemaViolations(err), whole, part)
}

// maxViolations is how many problems a message lists before it counts the
// rest: enough for the model to fix a call, short for 100,000 wrong items.
const maxViolations = 20

// violation is one problem at a location of a value; its text is written
// only when it is shown.
type violation struct {
	loc  []string
	leaf *jsonschema.ValidationError // the schema's
	big  json.Number                 // or a number too large for its type
	// integer says big is an integer's
	integer bool
	text    string // or this
}

func (v violation) what() string {
	switch {
	case v.leaf != nil:
		return readable(table.SchemaErrorText(v.leaf.ErrorKind))
	case v.big != "":
		return tooLarge(v.big, v.integer)
	}
	return v.text
}

func schemaViolations(err error) []violation {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []violation{{text: err.Error()}}
	}
	var out []violation
	for _, leaf := range leaves(ve) {
		out = append(out, violation{loc: leaf.InstanceLocation, leaf: leaf})
	}
	return out
}

// renderViolations writes the first maxViolations distinct problems, by
// location (list indexes in numeric order), and counts the others. Only
// the lines shown are formatted, so a flood of problems costs a sort.
func renderViolations(found []violation, whole, part string) string {
	sort.SliceStable(found, func(i, j int) bool { return locationLess(found[i].loc, found[j].loc) })
	type line struct {
		loc  []string
		text string
	}
	var shown []line
	seen := map[string]bool{}
	used := 0
	for _, v := range found {
		if len(shown) == maxViolations {
			break
		}
		used++
		where := whole
		if len(v.loc) > 0 {
			where = part + " " + strings.Join(v.loc, ".")
		}
		text := "- " + where + ": " + v.what()
		if !seen[text] {
			seen[text] = true
			shown = append(shown, line{v.loc, text})
		}
	}
	// Problems at one location come in the validator's order; sort them.
	sort.SliceStable(shown, func(i, j int) bool {
		if locationLess(shown[i].loc, shown[j].loc) || locationLess(shown[j].loc, shown[i].loc) {
			return locationLess(shown[i].loc, shown[j].loc)
		}
		return shown[i].text < shown[j].text
	})
	lines := make([]string, 0, len(shown)+1)
	for _, l := range shown {
		lines = append(lines, l.text)
	}
	if rest := len(found) - used; rest > 0 {
		lines = append(lines, fmt.Sprintf("- and %d more", rest))
	}
	return strings.Join(lines, "\n")
}

// locationLess orders locations segment by segment, list indexes as
// numbers (2 before 10), a location before those inside it.
func locationLess(a, b []string) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] == b[i] {
			continue
		}
		if isIndex(a[i]) && isIndex(b[i]) && len(a[i]) != len(b[i]) {
			return len(a[i]) < len(b[i])
		}
		return a[i] < b[i]
	}
	return len(a) < len(b)
}

func isIndex(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func leaves(ve *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(ve.Causes) == 0 {
		return []*jsonschema.ValidationError{ve}
	}
	var out []*jsonschema.ValidationError
	for _, c := range ve.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

// applyDefaults returns the arguments with each absent one set to its
// default (when it has one).
func applyDefaults(a *table.Args, obj map[string]any) map[string]any {
	if !missesDefault(a, obj) && obj != nil {
		return obj // nothing to add: the decoded arguments serve as they are
	}
	out := make(map[string]any, len(a.List))
	for k, v := range obj {
		out[k] = v
	}
	for _, arg := range a.List {
		if _, ok := out[arg.Name]; ok || arg.DefaultJSON == nil {
			continue
		}
		out[arg.Name] = arg.DefaultJSON
	}
	return out
}

// missesDefault reports whether an argument with a default is absent.
func missesDefault(a *table.Args, obj map[string]any) bool {
	for _, arg := range a.List {
		if _, ok := obj[arg.Name]; !ok && arg.DefaultJSON != nil {
			return true
		}
	}
	return false
}

// toCty converts the arguments to an object of the declared types; absent
// optional arguments are null.
func toCty(a *table.Args, obj map[string]any) (cty.Value, error) {
	// cty.ObjectVal copies the attributes, so their map is kept for the
	// next call.
	attrs := attrMaps.Get().(map[string]cty.Value)
	defer func() {
		if len(attrs) <= 64 { // a rare huge one is not kept
			clear(attrs)
			attrMaps.Put(attrs)
		}
	}()
	for _, arg := range a.List {
		val, err := eval.FromGoJSON(obj[arg.Name], arg.Type)
		if err != nil {
			return cty.NilVal, fmt.Errorf("%s: %w", arg.Name, err)
		}
		attrs[arg.Name] = val
	}
	if v, ok := eval.ObjectOfType(a.Type, attrs); ok {
		return v, nil
	}
	return cty.ObjectVal(attrs), nil
}

var attrMaps = sync.Pool{New: func() any { return map[string]cty.Value{} }}

// failedValidations evaluates the validation blocks and returns the
// message of each condition that does not hold. A validation about an
// argument the schema already reported (missing, of the wrong type) adds
// nothing to that report.
func failedValidations(a *table.Args, static *eval.Static, args cty.Value, reported map[string]bool) []string {
	var msgs []string
	for _, v := range a.Validations {
		if usesReported(v, reported) {
			continue
		}
		ok, err := evalBool(v.Condition, static, args)
		if err != nil || ok {
			continue // a condition that cannot be evaluated (null args) does not block the call
		}
		msg, err := evalMessage(v.ErrorMessage, static, args)
		if err != nil && usesNull(v, args) {
			// The message cannot be written about a value that is not
			// there (an absent optional argument): the condition was
			// about that value, so it does not apply.
			continue
		}
		msgs = append(msgs, msg)
	}
	return msgs
}

func usesReported(v *table.Validation, reported map[string]bool) bool {
	if len(reported) > 0 && v.UsesAll {
		return true
	}
	for _, name := range v.Uses {
		if reported[name] {
			return true
		}
	}
	return false
}

func usesNull(v *table.Validation, args cty.Value) bool {
	for _, name := range v.Uses {
		if args.Type().HasAttribute(name) && args.GetAttr(name).IsNull() {
			return true
		}
	}
	return false
}

// reportedArgs names the arguments the schema's problems are about: where
// they are, or the missing ones of a "required" at the top.
func reportedArgs(found []violation) map[string]bool {
	if len(found) == 0 {
		return nil
	}
	out := map[string]bool{}
	for _, v := range found {
		if len(v.loc) > 0 {
			out[v.loc[0]] = true
			continue
		}
		if v.leaf == nil {
			continue
		}
		switch k := v.leaf.ErrorKind.(type) {
		case *kind.Required:
			for _, name := range k.Missing {
				out[name] = true
			}
		case *kind.DependentRequired:
			for _, name := range k.Missing {
				out[name] = true
			}
		}
	}
	return out
}

func evalBool(expr hcl.Expression, static *eval.Static, args cty.Value) (bool, error) {
	v, diags := evalBorrowed(static, expr, args, nil)
	if diags.HasErrors() {
		return false, diags
	}
	v, err := convert.Convert(v, cty.Bool)
	if err != nil || v.IsNull() || !v.IsKnown() {
		return false, fmt.Errorf("condition is not a bool")
	}
	return v.True(), nil
}

// evalMessage writes a validation's message; when it cannot, the text
// is a generic one and err says why.
func evalMessage(expr hcl.Expression, static *eval.Static, args cty.Value) (string, error) {
	v, diags := evalBorrowed(static, expr, args, nil)
	if diags.HasErrors() {
		return "The arguments are not valid.", diags
	}
	if v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return "The arguments are not valid.", errors.New("the message is not a string")
	}
	return v.AsString(), nil
}

// readable undoes the \u escapes the schema validator's Go-style quoting
// writes for characters it deems unprintable (the joiner inside an emoji
// sequence, a combining accent), so the message shows the client's and the
// config's text as written. Escaped control characters, quotes and
// backslashes stay escaped: a line break is still shown as \n.
func readable(msg string) string {
	if !strings.Contains(msg, `\u`) && !strings.Contains(msg, `\U`) {
		return msg
	}
	var sb strings.Builder
	for i := 0; i < len(msg); i++ {
		c := msg[i]
		if c != '\\' || i+1 >= len(msg) {
			sb.WriteByte(c)
			continue
		}
		width := 0
		switch msg[i+1] {
		case 'u':
			width = 4
		case 'U':
			width = 8
		}
		if width > 0 && i+2+width <= len(msg) {
			if r, err := strconv.ParseUint(msg[i+2:i+2+width], 16, 32); err == nil && utf8.ValidRune(rune(r)) && !unicode.IsControl(rune(r)) {
				sb.WriteRune(rune(r))
				i += 1 + width
				continue
			}
		}
		sb.WriteByte(c) // an escape kept as it is, with what follows
		sb.WriteByte(msg[i+1])
		i++
	}
	return sb.String()
}

// evalBorrowed evaluates expr in a pooled context. Diagnostics point at
// their context, so one that reported errors is not given back.
func evalBorrowed(static *eval.Static, expr hcl.Expression, args cty.Value, extra map[string]cty.Value) (cty.Value, hcl.Diagnostics) {
	ctx := static.Borrow(expr, args, extra)
	v, diags := eval.Value(expr, ctx)
	if len(diags) == 0 {
		eval.Return(ctx)
	}
	return v, diags
}
