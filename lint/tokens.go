package lint

import (
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
	n := 0
	for i := 0; i < len(text); {
		c := text[i]
		j := i + 1
		switch {
		case isLetter(c):
			for j < len(text) && isLetter(text[j]) {
				j++
			}
			n += 1 + (j-i-1)/6
		case c >= '0' && c <= '9':
			for j < len(text) && text[j] >= '0' && text[j] <= '9' {
				j++
			}
			n += (j - i + 2) / 3
		case c == ' ' && j < len(text) && isLetter(text[j]):
			// joins the word after it
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r') {
				j++
			}
			n++
		case c < utf8.RuneSelf:
			for j < len(text) && isPunct(text[j]) {
				j++
			}
			n += (j - i + 1) / 2
		default:
			_, size := utf8.DecodeRune(text[i:])
			j = i + size
			n++
		}
		i = j
	}
	return n
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
	// whole result, built from each tool's, which are estimated alone too.
	whole := []byte(`{"tools":[`)
	first := true
	for i, tl := range listing {
		if keep != nil && !keep(t.Tools[i]) {
			continue
		}
		b, err := json.Marshal(tl)
		if err != nil {
			continue
		}
		if !first {
			whole = append(whole, ',')
		}
		first = false
		whole = append(whole, b...)
		perTool = append(perTool, ToolCost{tl.Name, t.Tools[i].DeclRange, EstimateTokens(b)})
	}
	whole = append(whole, "]}"...)
	sort.SliceStable(perTool, func(i, j int) bool { return perTool[i].Tokens > perTool[j].Tokens })
	return EstimateTokens(whole), perTool
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
