package lint

import (
	"fmt"
	"math/big"
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/internal/diagcode"
	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/lang"
)

// DefaultTokenBudget is the token budget of the tools/list result when the
// server's lint block sets none.
const DefaultTokenBudget = 8000

// parseIgnore reads a lint block's ignore list: literal strings, each a
// code or a rule name. An unknown one is reported with the closest code.
func (c *checker) parseIgnore(l *lang.Lint) map[string]bool {
	out := map[string]bool{}
	if l.Ignore == nil {
		return out
	}
	exprs, diags := hcl.ExprList(l.Ignore.Expr)
	if diags.HasErrors() {
		c.errorAt(l.Ignore.Expr.Range(), "Invalid lint ignore", `ignore is a list of codes written out, as in ignore = ["MCPD101", "unused-arg"].`)
		return out
	}
	for _, e := range exprs {
		v, d := e.Value(nil)
		if d.HasErrors() || v.Type() != cty.String || v.IsNull() {
			c.errorAt(e.Range(), "Invalid lint ignore", `Each element of ignore is a code or rule name written as a string, such as "MCPD101" or "missing-description".`)
			continue
		}
		name := v.AsString()
		if r, ok := RuleOf(name); ok && r.Lint {
			out[r.Code] = true
			continue
		}
		unknown := &hcl.Diagnostic{
			Severity: hcl.DiagWarning,
			Summary:  "Unknown code in lint ignore",
			Detail:   fmt.Sprintf("%q is not a lint code or rule name, so nothing is ignored by it.%s Codes are listed in docs/lint.md.", name, rule.DidYouMean(name, lintNames())),
			Subject:  e.Range().Ptr(),
			Extra:    &Extra{Code: CodeUnknownCode},
		}
		if s := rule.Closest(name, lintNames()); s != "" {
			diagcode.Suggest(unknown, strconv.Quote(s), e.Range())
		}
		c.diags = append(c.diags, unknown)
	}
	return out
}

// lintNames are the codes and names of the lint rules, which an ignore
// may give.
func lintNames() []string {
	var candidates []string
	for _, r := range Rules {
		if r.Lint {
			candidates = append(candidates, r.Code, r.Name)
		}
	}
	return candidates
}

// parseBudget reads server { lint { token_budget = N } }.
func (c *checker) parseBudget() int {
	for _, l := range c.server {
		if l.TokenBudget == nil {
			continue
		}
		v, d := l.TokenBudget.Expr.Value(nil)
		if !d.HasErrors() && v.Type() == cty.Number && !v.IsNull() {
			if n, acc := v.AsBigFloat().Int64(); acc == big.Exact && n >= 1 {
				return int(n)
			}
		}
		c.errorAt(l.TokenBudget.Expr.Range(), "Invalid token budget",
			"token_budget is a whole number of tokens, at least 1, written out, such as token_budget = 8000.")
	}
	return DefaultTokenBudget
}
