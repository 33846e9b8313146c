package eval

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// CheckLiteralArgs checks the arguments of function calls that are written
// as literals, when the function would refuse them only at run time: a
// regular expression that does not compile, a formatdate() format, a
// timeadd() duration, a name given to env() that is not a literal. Inside
// can() and try() such an error is not even an error at run time, just
// "false" for every value, so any call there whose literal arguments
// already fail is reported as well.
func CheckLiteralArgs(expr hcl.Expression) hcl.Diagnostics {
	node, ok := expr.(hclsyntax.Node)
	if !ok {
		return nil // the JSON syntax has no function calls to inspect
	}
	if !mayHoldCall(expr) {
		return nil
	}
	var calls []*hclsyntax.FunctionCallExpr
	var guarded []hcl.Range // the arguments of can() and try()
	hclsyntax.VisitAll(node, func(n hclsyntax.Node) hcl.Diagnostics {
		if call, ok := n.(*hclsyntax.FunctionCallExpr); ok {
			calls = append(calls, call)
			if call.Name == "can" || call.Name == "try" {
				for _, a := range call.Args {
					guarded = append(guarded, a.Range())
				}
			}
		}
		return nil
	})
	var diags hcl.Diagnostics
	for _, call := range calls {
		diags = append(diags, checkCall(call, within(call.Range(), guarded))...)
	}
	return diags
}

func within(r hcl.Range, outer []hcl.Range) bool {
	for _, o := range outer {
		if o.Filename == r.Filename && o.Start.Byte <= r.Start.Byte && r.End.Byte <= o.End.Byte {
			return true
		}
	}
	return false
}

// patternParam is the position of the regular expression of each function
// that takes one.
var patternParam = map[string]int{"regex": 0, "regexall": 0, "regex_replace": 1}

func checkCall(call *hclsyntax.FunctionCallExpr, guarded bool) hcl.Diagnostics {
	if call.Name == "env" {
		return checkEnvName(call)
	}
	if i, ok := patternParam[call.Name]; ok && i < len(call.Args) {
		if d := checkPattern(call, call.Args[i], guarded); d != nil {
			return hcl.Diagnostics{d}
		}
	}
	if call.Name == "format" && !guarded {
		return checkFormatString(call)
	}
	return probeCall(call, guarded)
}

// formatProblems are the errors of format() that come from the format
// string itself, whatever the values are.
var formatProblems = []string{"unrecognized format character", "invalid format string", "extraneous characters",
	"not enough arguments", "unsupported format verb", "too many arguments"}

// checkFormatString runs format() with its literal format string and a
// number for each value known only per call, and reports the errors that
// the format string alone causes (an unknown verb, too few values).
func checkFormatString(call *hclsyntax.FunctionCallExpr) hcl.Diagnostics {
	if len(call.Args) == 0 || call.ExpandFinal {
		return nil
	}
	format, ok := literalValue(call.Args[0])
	if !ok || format.IsNull() || format.Type() != cty.String {
		return nil
	}
	args := []cty.Value{format}
	for _, a := range call.Args[1:] {
		v, ok := literalValue(a)
		if !ok {
			v = cty.NumberIntVal(1)
		}
		args = append(args, v)
	}
	_, err := probeFunctions["format"].Call(args)
	if err == nil {
		return nil
	}
	msg := err.Error()
	if !slices.ContainsFunc(formatProblems, func(p string) bool { return strings.HasPrefix(msg, p) }) {
		return nil // a value of the wrong kind for its verb: only the call can tell
	}
	subject := call.Args[0].Range()
	if ae, ok := err.(function.ArgError); ok && ae.Index > 0 && ae.Index < len(call.Args) {
		subject = call.Args[ae.Index].Range()
	}
	return hcl.Diagnostics{{
		Severity:   hcl.DiagError,
		Summary:    "Invalid format string",
		Detail:     fmt.Sprintf("format() would fail on every call: %s. Verbs are %%s, %%d, %%f, %%q, %%v and %%%% for a literal %%, one per value after the format.", msg),
		Subject:    subject.Ptr(),
		Expression: call,
	}}
}

// checkEnvName refuses env(var.x): the name decides what the configuration
// may read, so it must be visible in the file, like allow_env.
func checkEnvName(call *hclsyntax.FunctionCallExpr) hcl.Diagnostics {
	if len(call.Args) == 0 {
		return nil // the call itself reports the missing name
	}
	if _, ok := literalValue(call.Args[0]); ok {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Computed environment variable name",
		Detail: "env() takes the variable name as a literal string, as in env(\"API_TOKEN\"): the names a configuration reads " +
			"are listed in allow_env and must be visible where they are read. Write the name itself here.",
		Subject:    call.Args[0].Range().Ptr(),
		Expression: call,
	}}
}

// checkPattern compiles a literal regular expression.
func checkPattern(call *hclsyntax.FunctionCallExpr, arg hclsyntax.Expression, guarded bool) *hcl.Diagnostic {
	v, ok := literalValue(arg)
	if !ok || v.IsNull() || v.Type() != cty.String {
		return nil
	}
	_, err := regexp.Compile(v.AsString())
	if err == nil {
		return nil
	}
	msg := err.Error()
	if se := (*syntax.Error)(nil); errors.As(err, &se) {
		msg = fmt.Sprintf("%s in %s", se.Code, se.Expr)
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid regular expression",
		Detail: fmt.Sprintf("The pattern of %s() does not compile: %s. Patterns use Go's RE2 syntax (no look-around, no back-references); "+
			"in an HCL string a backslash is written twice, as in \"\\\\d\".%s", call.Name, msg, guardNote(guarded)),
		Subject:    arg.Range().Ptr(),
		Expression: call,
	}
}

func guardNote(guarded bool) string {
	if guarded {
		return " As it is, can() is false and try() falls back for every value."
	}
	return ""
}

// probeCall calls the function with its literal arguments and unknown
// values for the others (or sample values where the function checks its
// literals only once every argument is known), and reports the error it
// gives. Unguarded calls with no argument left to vary are evaluated, and
// reported, by the normal type check.
func probeCall(call *hclsyntax.FunctionCallExpr, guarded bool) hcl.Diagnostics {
	fn, ok := probeFunctions[call.Name]
	if !ok || call.ExpandFinal {
		return nil
	}
	samples := probeSamples[call.Name]
	args := make([]cty.Value, len(call.Args))
	literals := 0
	for i, a := range call.Args {
		if v, ok := literalValue(a); ok {
			args[i] = v
			literals++
			continue
		}
		if s, ok := samples[i]; ok {
			args[i] = s
			continue
		}
		args[i] = cty.UnknownVal(paramType(fn, i))
	}
	if literals == 0 || !guarded && literals == len(args) || !guarded && samples == nil {
		return nil
	}
	if len(args) < len(fn.Params()) || len(args) > len(fn.Params()) && fn.VarParam() == nil {
		return nil // the normal type check says how many arguments it takes
	}
	_, err := fn.Call(args)
	if err == nil {
		return nil
	}
	subject := onlyLiteral(call)
	if ae, ok := err.(function.ArgError); ok {
		if ae.Index < len(call.Args) {
			if _, lit := literalValue(call.Args[ae.Index]); !lit {
				return nil // the sample value failed, not the user's literal
			}
			subject = call.Args[ae.Index].Range()
		}
	}
	return hcl.Diagnostics{{
		Severity:   hcl.DiagError,
		Summary:    "Invalid function argument",
		Detail:     fmt.Sprintf("%s() refuses this value: %s.%s", call.Name, functionErrorText(call.Name, err), guardNote(guarded)),
		Subject:    subject.Ptr(),
		Expression: call,
	}}
}

// onlyLiteral is the range of the call's one literal argument, which an
// error without an argument index must be about; else the whole call.
func onlyLiteral(call *hclsyntax.FunctionCallExpr) hcl.Range {
	var found []hcl.Range
	for _, a := range call.Args {
		if _, ok := literalValue(a); ok {
			found = append(found, a.Range())
		}
	}
	if len(found) == 1 {
		return found[0]
	}
	return call.Range()
}

// probeFunctions are the functions probed: the pure ones (env and file
// have checks of their own).
var probeFunctions = func() map[string]function.Function {
	out := map[string]function.Function{
		"base64encode": base64EncodeFunc, "base64decode": base64DecodeFunc, "urlencode": urlEncodeFunc,
	}
	for name, fn := range stdlibFunctions {
		out[name] = fn
	}
	return out
}()

// sampleTime is a valid timestamp standing in for one known only per call.
var sampleTime = cty.StringVal("2000-01-01T00:00:00Z")

// probeSamples gives, per function, values for the arguments the function
// needs known before it checks the others.
var probeSamples = map[string]map[int]cty.Value{
	"formatdate": {1: sampleTime},
	"timeadd":    {0: sampleTime, 1: cty.StringVal("1s")},
	"parseint":   {0: cty.StringVal("0")},
}

func paramType(fn function.Function, i int) cty.Type {
	params := fn.Params()
	switch {
	case i < len(params):
		return params[i].Type
	case fn.VarParam() != nil:
		return fn.VarParam().Type
	}
	return cty.DynamicPseudoType
}

// literalValue is the value of an expression that refers to nothing and
// calls nothing.
func literalValue(e hclsyntax.Expression) (cty.Value, bool) {
	if len(e.Variables()) > 0 {
		return cty.NilVal, false
	}
	calls := false
	hclsyntax.VisitAll(e, func(n hclsyntax.Node) hcl.Diagnostics {
		if _, ok := n.(*hclsyntax.FunctionCallExpr); ok {
			calls = true
		}
		return nil
	})
	if calls {
		return cty.NilVal, false
	}
	v, diags := e.Value(nil)
	if diags.HasErrors() || !v.IsWhollyKnown() {
		return cty.NilVal, false
	}
	return v, true
}

// functionErrorText rewrites the errors of the time functions in the
// terms a configuration uses.
func functionErrorText(name string, err error) string {
	msg := strings.TrimSuffix(err.Error(), ".")
	switch {
	case strings.HasPrefix(msg, "time: "):
		return fmt.Sprintf("%s; a duration is a number and a unit, as in \"90s\", \"15m\" or \"1h30m\" (units ns, us, ms, s, m, h)",
			strings.TrimPrefix(msg, "time: "))
	case strings.Contains(msg, "RFC3339 timestamp"):
		return msg + "; a timestamp is written YYYY-MM-DDThh:mm:ssZ, as in \"2026-11-03T09:30:00Z\" (or with an offset such as +01:00 instead of Z)"
	case name == "formatdate":
		return msg + "; a format is made of YYYY, MM, DD, hh, mm, ss and similar letters, with other text in single quotes, as in \"DD MMM YYYY 'at' hh:mm\""
	}
	return msg
}
