package lint

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpdecl/mcpdecl/table"
)

// ToolsetTokens estimates the tokens of the tools/list result of a
// toolset's endpoint: its tools, or the meta-tools in the dynamic mode
// (of the toolset or the server), in total and per tool (largest first).
func ToolsetTokens(t *table.Table, ts *table.Toolset) (total int, perTool []ToolCost) {
	if ts.Dynamic || t.Dynamic {
		return MetaToolsTokens(), nil
	}
	return listingTokensOf(t, func(tool *table.Tool) bool { return ts.Has(tool.Name) })
}

// MetaToolsTokens estimates the tokens of the tools/list result of the
// dynamic mode, the same whatever the tools.
func MetaToolsTokens() int {
	b, err := json.Marshal(map[string]any{"tools": table.MetaTools()})
	if err != nil {
		return 0
	}
	return EstimateTokens(b)
}

// checkToolsetBudgets applies the token budget to each toolset's
// endpoint that lists its tools.
func (c *checker) checkToolsetBudgets() {
	for i, ts := range c.table.Toolsets {
		if ts.Dynamic || c.table.Dynamic || len(ts.Tools) == 0 {
			continue
		}
		total, perTool := ToolsetTokens(c.table, ts)
		if total <= c.budget {
			continue
		}
		var largest []string
		for _, tc := range perTool[:min(largestShown, len(perTool))] {
			largest = append(largest, fmt.Sprintf("%q about %d tokens (%s:%d)", tc.Name, tc.Tokens, tc.At.Filename, tc.At.Start.Line))
		}
		c.report(CodeTokenBudget, nil, c.cfg.Toolsets[i].NameRange,
			"The tools/list result of the toolset %q (%d tools) costs a model about %d tokens, over the budget of %d, on every request that lists them. The largest: %s. Split the toolset, shorten long descriptions, or set dynamic = true in it so that the model searches its tools instead; or raise server { lint { token_budget = N } }.",
			ts.Name, len(ts.Tools), total, c.budget, strings.Join(largest, ", "))
	}
}
