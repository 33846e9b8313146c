package testrun

import (
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/lang"
)

// expectation is a checked expect block.
type expectation struct {
	isError    *bool
	text       *textMatch
	err        *textMatch
	structured []pathValue
}

// textMatch holds the checks of a text: equals, contains, matches.
type textMatch struct {
	equals, contains *string
	matches          *regexp.Regexp
}

// pathValue is one expected value at a path of the structured content.
type pathValue struct {
	path  string
	steps []any // string keys and int indexes
	want  any
}

func (c *checker) expectation(e *lang.Expect) *expectation {
	out := &expectation{}
	if e.IsError != nil {
		v, ok := c.value(e.IsError)
		if ok && (v.Type() != cty.Bool || v.IsNull()) {
			c.errorf(e.IsError.Expr.Range(), "Bool expected", "is_error is true or false.")
		} else if ok {
			b := v.True()
			out.isError = &b
		}
	}
	out.text = c.textMatch(e.Text)
	out.err = c.textMatch(e.Error)
	if e.Structured != nil {
		out.structured = c.pathValues(e.Structured)
	}
	return out
}

// textMatch reads "exact text" or { equals, contains, matches }.
func (c *checker) textMatch(attr *hcl.Attribute) *textMatch {
	if attr == nil {
		return nil
	}
	v, ok := c.jsonValue(attr)
	if !ok {
		return nil
	}
	if s, isString := v.(string); isString {
		return &textMatch{equals: &s}
	}
	obj, isObj := v.(map[string]any)
	if !isObj || len(obj) == 0 {
		c.errorf(attr.Expr.Range(), "Invalid text check", "%s is a text, or an object of equals, contains and matches (an RE2 pattern), such as { contains = \"Dune\" }.", attr.Name)
		return nil
	}
	m := &textMatch{}
	for k, x := range obj {
		s, isString := x.(string)
		if !isString {
			c.errorf(attr.Expr.Range(), "Invalid text check", "%s.%s must be a string.", attr.Name, k)
			continue
		}
		switch k {
		case "equals":
			m.equals = &s
		case "contains":
			m.contains = &s
		case "matches":
			m.matches = c.regexp(attr, s)
		default:
			c.errorf(attr.Expr.Range(), "Invalid text check", "%s has no check %q: use equals, contains or matches.%s", attr.Name, k, rule.DidYouMean(k, []string{"equals", "contains", "matches"}))
		}
	}
	return m
}

// check returns what is wrong with got, or "".
func (m *textMatch) check(what, got string) string {
	switch {
	case m.equals != nil && got != *m.equals:
		return fmt.Sprintf("%s is %q, want %q", what, clip(got), *m.equals)
	case m.contains != nil && !strings.Contains(got, *m.contains):
		return fmt.Sprintf("%s %q does not contain %q", what, clip(got), *m.contains)
	case m.matches != nil && !m.matches.MatchString(got):
		return fmt.Sprintf("%s %q does not match %s", what, clip(got), m.matches)
	}
	return ""
}

func clip(s string) string {
	const max = 500
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}

// pathValues reads { "items[0].title" = "Dune", ... }.
func (c *checker) pathValues(attr *hcl.Attribute) []pathValue {
	v, ok := c.jsonValue(attr)
	if !ok {
		return nil
	}
	obj, isObj := v.(map[string]any)
	if !isObj {
		c.errorf(attr.Expr.Range(), "Object expected", "structured maps paths to values, such as { \"items[0].title\" = \"Dune\", count = 1 }.")
		return nil
	}
	var out []pathValue
	for _, path := range sortedKeys(obj) {
		steps, err := parsePath(path)
		if err != "" {
			c.errorf(attr.Expr.Range(), "Invalid path", "The path %q %s. Write names separated by dots and list indexes in brackets, as in items[0].title.", path, err)
			continue
		}
		out = append(out, pathValue{path: path, steps: steps, want: obj[path]})
	}
	return out
}

// parsePath splits a.b[0].c into its steps; "" (or ".") is the whole value.
func parsePath(path string) ([]any, string) {
	var steps []any
	rest := strings.TrimPrefix(path, ".")
	for rest != "" {
		switch {
		case rest[0] == '[':
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return nil, "has a [ without ]"
			}
			n, err := strconv.Atoi(rest[1:end])
			if err != nil || n < 0 {
				return nil, "has an index that is not a number"
			}
			steps = append(steps, n)
			rest = strings.TrimPrefix(rest[end+1:], ".")
		default:
			end := strings.IndexAny(rest, ".[")
			if end < 0 {
				end = len(rest)
			}
			if end == 0 {
				return nil, "has an empty name"
			}
			steps = append(steps, rest[:end])
			rest = strings.TrimPrefix(rest[end:], ".")
		}
	}
	return steps, ""
}

// lookup finds the value at steps, or says where the path ends.
func lookup(v any, steps []any) (any, string) {
	for i, s := range steps {
		switch s := s.(type) {
		case string:
			obj, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Sprintf("%s is not an object", describeAt(steps[:i]))
			}
			if v, ok = obj[s]; !ok {
				return nil, fmt.Sprintf("%s has no field %q.%s", describeAt(steps[:i]), s, rule.DidYouMean(s, sortedKeys(obj)))
			}
		case int:
			list, ok := v.([]any)
			if !ok {
				return nil, fmt.Sprintf("%s is not a list", describeAt(steps[:i]))
			}
			if s >= len(list) {
				return nil, fmt.Sprintf("%s has %d items, not an item %d", describeAt(steps[:i]), len(list), s)
			}
			v = list[s]
		}
	}
	return v, ""
}

func describeAt(steps []any) string {
	if len(steps) == 0 {
		return "the structured content"
	}
	var b strings.Builder
	for _, s := range steps {
		switch s := s.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s)
		case int:
			fmt.Fprintf(&b, "[%d]", s)
		}
	}
	return b.String()
}

// sameJSON compares decoded JSON values; numbers by value (1 and 1.0 are
// the same).
func sameJSON(a, b any) bool {
	switch a := a.(type) {
	case json.Number:
		bn, ok := b.(json.Number)
		return ok && sameNumber(a, bn)
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, v := range a {
			if w, ok := bm[k]; !ok || !sameJSON(v, w) {
				return false
			}
		}
		return true
	case []any:
		bl, ok := b.([]any)
		if !ok || len(a) != len(bl) {
			return false
		}
		for i := range a {
			if !sameJSON(a[i], bl[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

func sameNumber(a, b json.Number) bool {
	x, okA := new(big.Float).SetString(string(a))
	y, okB := new(big.Float).SetString(string(b))
	return okA && okB && x.Cmp(y) == 0
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// check compares the outcome with the expectation and says what differs.
func (e *expectation) check(o *Outcome) []string {
	var out []string
	switch {
	case o.Err != nil && e.err == nil:
		return []string{fmt.Sprintf("the call ended with protocol error %d: %s", o.Err.Code, o.Err.Message)}
	case o.Err != nil:
		if p := e.err.check("the protocol error", o.Err.Message); p != "" {
			out = append(out, p)
		}
		return out
	case e.err != nil:
		out = append(out, "the call succeeded, but the test expects a protocol error")
	}
	wantError := e.isError != nil && *e.isError
	if gotError := o.Tool != nil && o.Tool.IsError; gotError != wantError {
		out = append(out, fmt.Sprintf("isError is %v, want %v; the text is %q", gotError, wantError, clip(o.Text())))
	}
	if e.text != nil {
		if p := e.text.check("the text", o.Text()); p != "" {
			out = append(out, p)
		}
	}
	return append(out, e.checkStructured(o)...)
}

func (e *expectation) checkStructured(o *Outcome) []string {
	if len(e.structured) == 0 {
		return nil
	}
	raw := o.Structured()
	if raw == nil {
		return []string{"there is no structured content to check"}
	}
	got := decodeJSON(raw)
	var out []string
	for _, pv := range e.structured {
		v, problem := lookup(got, pv.steps)
		switch {
		case problem != "":
			out = append(out, fmt.Sprintf("structured %q: %s", pv.path, problem))
		case !sameJSON(v, pv.want):
			out = append(out, fmt.Sprintf("structured %q is %s, want %s", pv.path, clip(jsonText(v)), clip(jsonText(pv.want))))
		}
	}
	return out
}
