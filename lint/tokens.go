package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/table"
)

// EstimateTokens estimates how many tokens a model's tokenizer makes of
// JSON text, the way byte-pair tokenizers split English and JSON: a word
// of up to 6 letters is one token and each further 6 letters one more; a
// number is a token per 3 digits; punctuation pairs up ("}, {" is two
// tokens); a space before a word joins it; any other character outside
// ASCII is a token. It is an estimate for comparing with a budget, not a
// count any one model would bill.
func EstimateTokens(text []byte) int {
	var e estimator
	e.Write(text)
	return e.Total()
}

// estimator is EstimateTokens over text given in parts: the runs of
// letters, digits, spaces and punctuation may cross from one part to the
// next, so the total is the same as for the parts joined, without joining
// them. A part must not end inside a multi-byte character.
type estimator struct {
	n int
	// kind is the run in progress (0: none) and length its length; a
	// space whose next byte is not known yet is pending.
	kind    byte
	length  int
	pending bool
}

const (
	runLetters = 1 + iota
	runDigits
	runSpaces
	runPunct
)

// Write adds text; it never fails.
func (e *estimator) Write(text []byte) (int, error) {
	i := e.resume(text)
	for i < len(text) {
		c := text[i]
		j := i + 1
		var kind byte
		switch {
		case isLetter(c):
			for j < len(text) && isLetter(text[j]) {
				j++
			}
			kind = runLetters
		case c >= '0' && c <= '9':
			for j < len(text) && text[j] >= '0' && text[j] <= '9' {
				j++
			}
			kind = runDigits
		case c == ' ' && j == len(text):
			e.pending = true // whether it joins a word, the next part says
			return len(text), nil
		case c == ' ' && isLetter(text[j]):
			i = j // joins the word after it
			continue
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			for j < len(text) && isSpace(text[j]) {
				j++
			}
			kind = runSpaces
		case c < utf8.RuneSelf:
			for j < len(text) && isPunct(text[j]) {
				j++
			}
			kind = runPunct
		default:
			_, size := utf8.DecodeRune(text[i:])
			e.n++
			i += size
			continue
		}
		if j == len(text) { // the run may go on in the next part
			e.kind, e.length = kind, j-i
			return len(text), nil
		}
		e.n += runTokens(kind, j-i)
		i = j
	}
	return len(text), nil
}

// resume continues what the previous part left (a pending space, a run
// in progress) into text, and returns where text's own runs start.
func (e *estimator) resume(text []byte) int {
	if len(text) == 0 {
		return 0
	}
	if e.pending {
		e.pending = false
		if isLetter(text[0]) {
			e.kind, e.length = runLetters, 0 // the space joins this word
		} else {
			e.kind, e.length = runSpaces, 1
		}
	}
	if e.kind == 0 {
		return 0
	}
	j := 0
	for j < len(text) && continues(e.kind, text[j]) {
		j++
	}
	e.length += j
	if j < len(text) {
		e.end()
	}
	return j
}

// continues reports whether c goes on with a run of kind.
func continues(kind, c byte) bool {
	switch kind {
	case runLetters:
		return isLetter(c)
	case runDigits:
		return c >= '0' && c <= '9'
	case runSpaces:
		return isSpace(c)
	}
	return isPunct(c)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// Total is the estimate of everything written so far.
func (e *estimator) Total() int {
	n := e.n
	switch {
	case e.pending:
		n++ // a space at the very end
	case e.kind != 0:
		n += runTokens(e.kind, e.length)
	}
	return n
}

// end counts the run in progress.
func (e *estimator) end() {
	if e.kind != 0 {
		e.n += runTokens(e.kind, e.length)
	}
	e.kind, e.length = 0, 0
}

func runTokens(kind byte, length int) int {
	switch kind {
	case runLetters:
		return 1 + (length-1)/6
	case runDigits:
		return (length + 2) / 3
	case runSpaces:
		return 1
	}
	return (length + 1) / 2
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isPunct(c byte) bool {
	return c < utf8.RuneSelf && c > ' ' && !isLetter(c) && (c < '0' || c > '9')
}

// ToolCost is the estimated cost of one tool in the listing.
type ToolCost struct {
	Name   string
	At     hcl.Range
	Tokens int
}

// ListingTokens estimates the tokens of the tools/list result the server
// sends for t, in total and per tool (largest first). The JSON is that of
// the listing the server builds its answer from, without whitespace.
func ListingTokens(t *table.Table) (total int, perTool []ToolCost) {
	return listingTokensOf(t, nil)
}

// listingTokensOf is ListingTokens of the tools for which keep holds
// (nil: all).
func listingTokensOf(t *table.Table, keep func(*table.Tool) bool) (total int, perTool []ToolCost) {
	listing := t.Listing().Tools
	// {"tools":[tool,tool,...]}: the bytes json.Marshal gives for the
	// whole result, estimated part by part as they are made (each tool's
	// alone too), so the whole listing is never held at once.
	var whole estimator
	whole.Write([]byte(`{"tools":[`))
	first := true
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(true)
	for i := range listing {
		if keep != nil && !keep(t.Tools[i]) {
			continue
		}
		buf.Reset()
		if err := enc.Encode(&listing[i]); err != nil {
			continue
		}
		b := bytes.TrimSuffix(buf.Bytes(), []byte("\n")) // Encode ends each value with a newline
		if !first {
			whole.Write([]byte{','})
		}
		first = false
		whole.Write(b)
		perTool = append(perTool, ToolCost{listing[i].Name, t.Tools[i].DeclRange, EstimateTokens(b)})
	}
	whole.Write([]byte("]}"))
	sort.SliceStable(perTool, func(i, j int) bool { return perTool[i].Tokens > perTool[j].Tokens })
	return whole.Total(), perTool
}

// largestShown is how many of the costliest tools a finding names.
const largestShown = 3

func (c *checker) checkTokenBudget() {
	if len(c.table.Tools) == 0 || c.table.Dynamic {
		// In the dynamic mode the endpoint lists the three meta-tools.
		return
	}
	total, perTool := ListingTokens(c.table)
	if total <= c.budget {
		return
	}
	var largest []string
	for _, tc := range perTool[:min(largestShown, len(perTool))] {
		largest = append(largest, fmt.Sprintf("%q about %d tokens (%s:%d)", tc.Name, tc.Tokens, tc.At.Filename, tc.At.Start.Line))
	}
	c.report(CodeTokenBudget, nil, c.budgetRange(),
		"The tools/list result of %d tools costs a model about %d tokens, over the budget of %d, on every request that lists them. The largest: %s. Shorten long descriptions, drop output schemas and enums a model does not need, or split the tools into toolset blocks (each served at an endpoint of its own), or serve them in the dynamic mode (server { dynamic = true }); or raise server { lint { token_budget = N } }.",
		len(c.table.Tools), total, c.budget, strings.Join(largest, ", "))
}

// budgetRange is where a token budget finding points: the budget when it
// is set, else the server block, else the first tool.
func (c *checker) budgetRange() hcl.Range {
	for _, l := range c.server {
		if l.TokenBudget != nil {
			return l.TokenBudget.Expr.Range()
		}
	}
	if c.cfg.Server != nil {
		return c.cfg.Server.DeclRange
	}
	return c.cfg.Tools[0].NameRange
}
