package dispatch

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/internal/english"
	"github.com/mcpdecl/mcpdecl/internal/jsonenc"
	"github.com/mcpdecl/mcpdecl/table"
)

// outcome is an answer mapped through error rules and the result block,
// before it is shaped for tools/call or resources/read.
type outcome struct {
	isError bool
	// failed is set when the error is the adapter's own failure (a non-2xx
	// status, a non-zero exit), not a rule of the configuration.
	failed     bool
	text       string
	structured any // nil when there is none
	media      *adapter.Media
	// encoded is structured as JSON, once it has been encoded.
	encoded json.RawMessage
}

// structuredJSON is the structured value as JSON, encoded once per call.
// A value JSON cannot carry (NaN or an infinity from an expression) is an
// error, not a crash.
func (o *outcome) structuredJSON() (json.RawMessage, error) {
	if o.encoded == nil {
		b, err := jsonenc.Marshal(o.structured)
		if err != nil {
			return nil, fmt.Errorf("the structured answer cannot be written as JSON: %w", err)
		}
		o.encoded = b
	}
	return o.encoded, nil
}

// mapAnswer applies the answer rules to what a call produced (res nil for
// a tool without a call): the first matching error rule wins; otherwise an
// adapter-reported failure is an error; otherwise the result block (or the
// adapter's default answer) gives the content.
func mapAnswer(ans *table.Answer, res *adapter.Result, args map[string]any) (*outcome, error) {
	var fields map[string]any
	if res != nil {
		fields = res.Fields
	}
	if len(ans.Errors) == 0 && ans.Result == nil {
		return defaultOutcome(res), nil // no program to run: skip building its environment
	}
	env := buildEnv(ans.Env, fields, args)
	for _, rule := range ans.Errors {
		hit, err := runProgram(rule.When.Program, env)
		if err != nil {
			return nil, fmt.Errorf("error rule %q: %w", rule.When.Source, err)
		}
		if hit == true {
			msg, err := renderTemplate(rule.Message, env, "error message")
			if err != nil {
				return nil, err
			}
			return &outcome{isError: true, text: msg}, nil
		}
	}
	if res != nil && res.Failure != "" {
		return &outcome{isError: true, failed: true, text: res.Failure}, nil
	}
	if ans.Result != nil {
		return mapResult(ans.Result, env)
	}
	return defaultOutcome(res), nil
}

// readsNoFields reports whether the answer rules read nothing of a call's
// fields: with no error rule and no result block, only the adapter's own
// answer counts (see adapter.Request.AnswerOnly).
func readsNoFields(ans *table.Answer) bool { return len(ans.Errors) == 0 && ans.Result == nil }

// defaultOutcome is the adapter's own answer: its failure, or its text,
// media and structured content.
func defaultOutcome(res *adapter.Result) *outcome {
	out := &outcome{}
	if res == nil {
		return out
	}
	if res.Failure != "" {
		return &outcome{isError: true, failed: true, text: res.Failure}
	}
	out.text, out.media = res.Text, res.Media
	switch {
	case res.StructuredJSON != nil:
		// Already JSON: written as it is, never decoded (nothing reads it).
		out.structured, out.encoded = res.StructuredJSON, res.StructuredJSON
	case res.Structured != nil:
		out.structured = res.Structured
	}
	return out
}

func mapResult(r *table.ResultMap, env any) (*outcome, error) {
	out := &outcome{}
	if r.Structured != nil {
		v, err := runProgram(r.Structured.Program, env)
		if err != nil {
			return nil, fmt.Errorf("result structured %q: %w", r.Structured.Source, err)
		}
		out.structured = v
	}
	if r.IsError != nil {
		v, err := runProgram(r.IsError.Program, env)
		if err != nil {
			return nil, fmt.Errorf("result is_error %q: %w", r.IsError.Source, err)
		}
		out.isError = v == true
	}
	cutNotice := ""
	if r.MaxItems > 0 {
		var total int
		if out.structured, total = cutItems(out.structured, r.MaxItems); total > 0 {
			cutNotice = fmt.Sprintf("\n[cut: lists were limited to %s (the longest had %d); ask for fewer]", english.Count(r.MaxItems, "item"), total)
		}
	}
	switch {
	case r.TextTemplate != nil:
		s, err := renderTemplate(r.TextTemplate, env, "result text")
		if err != nil {
			return nil, err
		}
		out.text = s
	case r.Text != nil:
		v, err := runProgram(r.Text.Program, env)
		if err != nil {
			return nil, fmt.Errorf("result text %q: %w", r.Text.Source, err)
		}
		out.text = formatValue(v)
	case out.structured != nil:
		b, err := out.structuredJSON()
		if err != nil {
			return nil, err
		}
		out.text = string(b)
	}
	switch {
	case r.MaxBytes > len(cutNotice) && len(out.text)+len(cutNotice) > r.MaxBytes:
		// Both cuts: the items notice is kept after the shortened text.
		out.text = cut(out.text, r.MaxBytes-len(cutNotice)) + cutNotice
	case r.MaxBytes > 0:
		out.text = cut(out.text+cutNotice, r.MaxBytes)
	default:
		out.text += cutNotice
	}
	return out, nil
}

// cutItems limits a list, or each list-valued field of an object, to max
// items. It returns the longest original length when anything was cut
// (and 0 otherwise); a cut object also gets "truncated": true.
func cutItems(v any, max int) (any, int) {
	if list, n := cutList(v, max); n > 0 {
		return list, n
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return v, 0
	}
	longest := 0
	out := make(map[string]any, len(obj)+1)
	for k, e := range obj {
		if list, n := cutList(e, max); n > 0 {
			longest, e = maxInt(longest, n), list
		}
		out[k] = e
	}
	if longest == 0 {
		return v, 0
	}
	out["truncated"] = true
	return out, longest
}

// cutList cuts a slice of any element type (expr-lang builds []int,
// []string, []any ...) and returns its original length when it cut.
func cutList(v any, max int) (any, int) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice || rv.Type().Elem().Kind() == reflect.Uint8 || rv.Len() <= max {
		return v, 0
	}
	return rv.Slice(0, max).Interface(), rv.Len()
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// renderTemplate fills a template's {{ }} pieces; what names the template
// in errors ("error message", "result text").
func renderTemplate(t *eval.Template, env any, what string) (string, error) {
	var sb strings.Builder
	for _, p := range t.Parts {
		if p.Program == nil {
			sb.WriteString(p.Text)
			continue
		}
		v, err := runProgram(p.Program.Program, env)
		if err != nil {
			return "", fmt.Errorf("%s piece {{%s}}: %w", what, p.Program.Source, err)
		}
		sb.WriteString(formatValue(v))
	}
	return sb.String(), nil
}

// cut shortens text to at most max bytes, notice included, on a
// character boundary, and says so, so the model knows it did not see
// everything.
func cut(text string, max int) string {
	if len(text) <= max {
		return text
	}
	notice := func(end int) string {
		return fmt.Sprintf("\n[cut: showing the first %d of %s; ask for less to see the rest]", end, english.Count(len(text), "byte"))
	}
	end := max - len(notice(max))
	if end < 0 {
		end = 0
	}
	for end > 0 && !utf8.RuneStart(text[end]) {
		end--
	}
	return text[:end] + notice(end)
}
