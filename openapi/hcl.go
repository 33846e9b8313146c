package openapi

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

// writer builds HCL text line by line; hclwrite.Format then aligns it the
// way `mcpdecl fmt` does.
type writer struct {
	b      strings.Builder
	indent int
}

func (w *writer) line(s string) {
	w.b.WriteString(strings.Repeat("  ", w.indent))
	w.b.WriteString(s)
	w.b.WriteByte('\n')
}

func (w *writer) open(typ string, labels ...string) {
	parts := []string{typ}
	for _, l := range labels {
		parts = append(parts, str(l))
	}
	w.line(strings.Join(parts, " ") + " {")
	w.indent++
}

func (w *writer) close() {
	w.indent--
	w.line("}")
}

func (w *writer) blank() { w.b.WriteByte('\n') }

func (w *writer) attr(name, expr string) { w.line(name + " = " + expr) }

// comment writes text as # lines of at most about 100 characters.
func (w *writer) comment(text string) {
	for _, para := range strings.Split(text, "\n") {
		for _, l := range wrap(oneLine(para), 96) {
			w.line("# " + l)
		}
	}
}

func wrap(s string, width int) []string {
	var out []string
	cur := ""
	for _, word := range strings.Fields(s) {
		if cur != "" && len(cur)+1+len(word) > width {
			out = append(out, cur)
			cur = ""
		}
		if cur != "" {
			cur += " "
		}
		cur += word
	}
	if cur != "" || len(out) == 0 {
		out = append(out, cur)
	}
	return out
}

// oneLine drops control characters (see cleanText) and makes line breaks
// spaces, so that a comment cannot end early and text from a document
// cannot start a line of configuration.
func oneLine(s string) string { return cleanLine(s) }

func (w *writer) bytes() []byte { return hclwrite.Format([]byte(w.b.String())) }

// str is a quoted HCL string; ${ and %{ are escaped, so text from the
// document is never a template.
func str(s string) string { return string(hclwrite.TokensForValue(cty.StringVal(s)).Bytes()) }

// literal writes a value decoded from the document. ok is false for a
// value HCL cannot hold (NaN).
func literal(v any) (string, bool) {
	cv, ok := ctyValue(v)
	if !ok {
		return "", false
	}
	return string(hclwrite.TokensForValue(cv).Bytes()), true
}

func ctyValue(v any) (cty.Value, bool) {
	switch x := v.(type) {
	case nil:
		return cty.NullVal(cty.DynamicPseudoType), true
	case string:
		return cty.StringVal(x), true
	case bool:
		return cty.BoolVal(x), true
	case int64:
		return cty.NumberIntVal(x), true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return cty.NilVal, false
		}
		return cty.NumberFloatVal(x), true
	case []any:
		var els []cty.Value
		for _, e := range x {
			ev, ok := ctyValue(e)
			if !ok {
				return cty.NilVal, false
			}
			els = append(els, ev)
		}
		if len(els) == 0 {
			return cty.EmptyTupleVal, true
		}
		return cty.TupleVal(els), true
	case map[string]any:
		m := map[string]cty.Value{}
		for k, e := range x {
			ev, ok := ctyValue(e)
			if !ok {
				return cty.NilVal, false
			}
			m[k] = ev
		}
		return cty.ObjectVal(m), true
	}
	return cty.NilVal, false
}

// number writes a bound or multiple.
func number(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// key is an object key: bare when it is an identifier HCL would not read
// as something else, quoted otherwise.
func key(k string) string {
	switch k {
	case "null", "true", "false", "for", "if", "in", "else", "endif", "endfor":
		return str(k)
	}
	if hclsyntax.ValidIdentifier(k) {
		return k
	}
	return str(k)
}

type entry struct{ k, v string }

// object writes { k = v, ... } on one line, keys in the order given.
func object(entries []entry) string {
	parts := make([]string, len(entries))
	for i, e := range entries {
		parts[i] = key(e.k) + " = " + e.v
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

// stringList writes ["a", "b"].
func stringList(items []string) string {
	parts := make([]string, len(items))
	for i, s := range items {
		parts[i] = str(s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// templateLiteral escapes literal text for the inside of an HCL quoted
// template.
func templateLiteral(s string) string {
	q := str(s)
	return q[1 : len(q)-1]
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// text trims a description, drops its control characters (see
// cleanText) and caps its length at a word boundary.
func text(s string, max int) string {
	s = strings.TrimSpace(cleanText(strings.ReplaceAll(s, "\r\n", "\n")))
	for strings.Contains(s, "\n\n\n") {
		s = strings.ReplaceAll(s, "\n\n\n", "\n\n")
	}
	if len(s) <= max {
		return s
	}
	cutAt := strings.LastIndexAny(s[:max], " \n")
	if cutAt < max/2 {
		cutAt = max
	}
	for cutAt > 0 && !validBoundary(s, cutAt) {
		cutAt--
	}
	return strings.TrimSpace(s[:cutAt]) + " …"
}

func validBoundary(s string, i int) bool { return i >= len(s) || s[i]&0xC0 != 0x80 }
