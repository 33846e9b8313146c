package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/eval"
)

// callArgs are validated arguments in the two forms the call needs.
type callArgs struct {
	JSON map[string]any // with defaults applied
	Cty  cty.Value      // an object of the declared types; absent ones null
	// Extra are further variables of HCL expressions (answers, in prompts
	// that ask the client questions).
	Extra map[string]cty.Value
}

// argProblem is an argument error written for the model.
type argProblem struct{ msg string }

func (e *argProblem) Error() string { return e.msg }

// decodeArgs validates raw JSON arguments against the compiled schema and
// the validation blocks. Problems come back as an *argProblem listing every
// violation, so the model can fix them all in one retry.
func decodeArgs(a *dispatch.Args, static *eval.Static, raw json.RawMessage) (*callArgs, error) {
	instance, err := parseArgs(raw)
	if err != nil {
		return nil, err
	}
	validator, err := a.Validator()
	if err != nil {
		return nil, fmt.Errorf("compile argument schema: %w", err)
	}
	obj, _ := instance.(map[string]any)
	out := &callArgs{JSON: applyDefaults(a, obj)}
	var problems []string
	var lines []string
	if err := validator.Validate(instance); err != nil {
		lines = append(lines, violationLines(err, "arguments", "argument")...)
	}
	lines = append(lines, outOfRange(a.Schema, instance)...)
	if len(lines) > 0 {
		problems = append(problems, "The arguments are not valid; fix these and call again:\n"+strings.Join(lines, "\n"))
	}
	// The validation blocks run even when the schema found problems, as
	// long as the values convert, so the model learns everything at once.
	var convErr error
	if out.Cty, convErr = toCty(a, out.JSON); convErr == nil {
		problems = append(problems, failedValidations(a, static, out.Cty)...)
	} else if len(problems) == 0 {
		problems = append(problems, "invalid arguments: "+convErr.Error())
	}
	if len(problems) > 0 {
		return nil, &argProblem{strings.Join(problems, "\n")}
	}
	return out, nil
}

func parseArgs(raw json.RawMessage) (any, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]any{}, nil
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(raw)))
	if err != nil {
		return nil, &argProblem{"the arguments are not valid JSON: " + err.Error()}
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, &argProblem{"the arguments must be a JSON object of named values"}
	}
	return v, nil
}

var printer = message.NewPrinter(language.English)

// violations lists a validation error's leaves, one "- where: what" line
// each, sorted; whole names the root and part a location inside it.
func violations(err error, whole, part string) string {
	return strings.Join(violationLines(err, whole, part), "\n")
}

func violationLines(err error, whole, part string) []string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []string{"- " + whole + ": " + err.Error()}
	}
	var lines []string
	for _, leaf := range leaves(ve) {
		where := whole
		if len(leaf.InstanceLocation) > 0 {
			where = part + " " + strings.Join(leaf.InstanceLocation, ".")
		}
		lines = append(lines, fmt.Sprintf("- %s: %s", where, leaf.ErrorKind.LocalizedString(printer)))
	}
	sort.Strings(lines)
	return dedupe(lines)
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

func dedupe(sorted []string) []string {
	out := sorted[:0]
	for i, s := range sorted {
		if i == 0 || s != sorted[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// applyDefaults returns the arguments with each absent one set to its
// default (when it has one).
func applyDefaults(a *dispatch.Args, obj map[string]any) map[string]any {
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

// toCty converts the arguments to an object of the declared types; absent
// optional arguments are null.
func toCty(a *dispatch.Args, obj map[string]any) (cty.Value, error) {
	attrs := make(map[string]cty.Value, len(a.List))
	for _, arg := range a.List {
		v, ok := obj[arg.Name]
		if !ok || v == nil {
			attrs[arg.Name] = cty.NullVal(arg.Type)
			continue
		}
		if pv, ok := primitiveCty(v, arg.Type); ok {
			attrs[arg.Name] = pv
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			return cty.NilVal, err
		}
		ty := arg.Type
		if ty == cty.DynamicPseudoType {
			// A value of any type takes the type its JSON implies.
			if ty, err = ctyjson.ImpliedType(b); err != nil {
				return cty.NilVal, fmt.Errorf("%s: %w", arg.Name, err)
			}
		}
		val, err := eval.FromJSON(b, ty)
		if err != nil {
			return cty.NilVal, fmt.Errorf("%s: %w", arg.Name, err)
		}
		attrs[arg.Name] = val
	}
	return cty.ObjectVal(attrs), nil
}

// failedValidations evaluates the validation blocks and returns the
// message of each condition that does not hold.
func failedValidations(a *dispatch.Args, static *eval.Static, args cty.Value) []string {
	var msgs []string
	for _, v := range a.Validations {
		ok, err := evalBool(v.Condition, static, args)
		if err != nil || ok {
			continue // a condition that cannot be evaluated (null args) does not block the call
		}
		msgs = append(msgs, evalMessage(v.ErrorMessage, static, args))
	}
	return msgs
}

func evalBool(expr hcl.Expression, static *eval.Static, args cty.Value) (bool, error) {
	v, diags := eval.Value(expr, static.WithArgs(expr, args))
	if diags.HasErrors() {
		return false, diags
	}
	v, err := convert.Convert(v, cty.Bool)
	if err != nil || v.IsNull() || !v.IsKnown() {
		return false, fmt.Errorf("condition is not a bool")
	}
	return v.True(), nil
}

func evalMessage(expr hcl.Expression, static *eval.Static, args cty.Value) string {
	v, diags := eval.Value(expr, static.WithArgs(expr, args))
	if diags.HasErrors() || v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return "The arguments are not valid."
	}
	return v.AsString()
}

// primitiveCty converts the common case, a string, number or bool
// argument, without a round trip through JSON.
func primitiveCty(v any, ty cty.Type) (cty.Value, bool) {
	switch {
	case ty == cty.String:
		if s, ok := v.(string); ok {
			return cty.StringVal(s), true
		}
	case ty == cty.Bool:
		if b, ok := v.(bool); ok {
			return cty.BoolVal(b), true
		}
	case ty == cty.Number:
		switch n := v.(type) {
		case json.Number:
			if val, err := cty.ParseNumberVal(string(n)); err == nil {
				return val, true
			}
		case int64:
			return cty.NumberIntVal(n), true
		case float64:
			return cty.NumberFloatVal(n), true
		}
	}
	return cty.NilVal, false
}
