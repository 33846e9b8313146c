package lint_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/lint"
	"github.com/mcpdecl/mcpdecl/table"
)

// TestToolsetTokenBudget: the budget applies to each toolset's endpoint
// that lists its tools, reported at the toolset's name; a dynamic toolset
// lists three meta-tools and is not over it; with server { dynamic = true }
// no endpoint lists the tools themselves.
func TestToolsetTokenBudget(t *testing.T) {
	budget := "server {\n  lint {\n    token_budget = 600\n  }\n}\n"
	tools := manyTools(4, 8) + strings.Replace(manyTools(6, 80), "find_books_a", "big_books_a", -1)
	// The whole listing is over the budget (at the budget), and so is the
	// toolset of the big tools (at its name); the small one is not.
	src := budget + tools + `
toolset "small" {
  tools = ["find_books_*"]
}
toolset "big" {
  tools = ["big_books_*"]
}
`
	lines := strings.Count(budget+tools, "\n")
	diags := wantFindings(t, src, lint.CodeTokenBudget, "MCPD301 3:20", "MCPD301 "+strconv.Itoa(lines+5)+":9")
	var detail string
	for _, d := range diags {
		if lint.CodeOf(d) == lint.CodeTokenBudget && strings.Contains(d.Detail, "toolset") && strings.Contains(d.Detail, `"big"`) {
			detail = d.Detail
		}
	}
	if !strings.Contains(detail, `The tools/list result of the toolset "big" (6 tools) costs a model about`) || !strings.Contains(detail, "dynamic = true") {
		t.Errorf("detail: %q", detail)
	}
	// A dynamic toolset is not over the budget.
	wantFindings(t, budget+tools+"toolset \"big\" {\n  tools   = [\"big_books_*\"]\n  dynamic = true\n}\n", lint.CodeTokenBudget, "MCPD301 3:20")
	// Nor is anything when the server is dynamic.
	wantFindings(t, "server {\n  dynamic = true\n  lint {\n    token_budget = 600\n  }\n}\n"+tools+"toolset \"big\" {\n  tools = [\"big_books_*\"]\n}\n", lint.CodeTokenBudget)
}

// TestToolsetTokens: a toolset's estimate is that of its tools' listing,
// less than the whole; a dynamic one's is the meta-tools'.
func TestToolsetTokens(t *testing.T) {
	src := manyTools(10, 40) + "toolset \"few\" {\n  tools = [\"find_books_aa\", \"find_books_ab\"]\n}\ntoolset \"dyn\" {\n  tools   = [\"*\"]\n  dynamic = true\n}\n"
	cfg, diags := lang.LoadSource("t.hcl", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, nil, table.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	all, _ := lint.ListingTokens(tbl)
	few, perTool := lint.ToolsetTokens(tbl, tbl.Toolset("few"))
	dyn, _ := lint.ToolsetTokens(tbl, tbl.Toolset("dyn"))
	if len(perTool) != 2 || few <= 0 || few >= all/3 || dyn != lint.MetaToolsTokens() || dyn <= 0 || dyn >= all {
		t.Errorf("all %d, few %d (%d tools), dynamic %d", all, few, len(perTool), dyn)
	}
}
