package lint_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/lint"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
)

func TestEstimateTokens(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{``, 0},
		{`search`, 1},
		{`international`, 3}, // 13 letters: 6 + 6 + 1
		{`Find books by title.`, 5},
		{`2026`, 2},
		{`{"name":"search"}`, 6},
		{`"é"`, 3}, // a quote, a letter outside ASCII, a quote
	} {
		if got := lint.EstimateTokens([]byte(c.text)); got != c.want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", c.text, got, c.want)
		}
	}
}

// manyTools writes n tools, each with a description of words words.
func manyTools(n, words int) string {
	var b strings.Builder
	desc := strings.TrimSpace(strings.Repeat("Find the books whose title holds these words. ", words/8+1))
	for i := range n {
		fmt.Fprintf(&b, `
tool "find_books_%c%c" {
  description = %q
  arg "words" {
    description = "Words from the title."
  }
  result {
    text = "args.words"
  }
}
`, 'a'+i/26, 'a'+i%26, desc)
	}
	return b.String()
}

func TestTokenBudget(t *testing.T) {
	src := "server {\n  lint {\n    token_budget = 500\n  }\n}\n" + manyTools(3, 8) + strings.Replace(manyTools(1, 200), "find_books_aa", "find_books_long", 1)
	diags := wantFindings(t, src, lint.CodeTokenBudget, "MCPD301 3:20")
	d := detailOf(t, diags, lint.CodeTokenBudget)
	for _, want := range []string{"The tools/list result of 4 tools costs a model about", "over the budget of 500", `The largest: "find_books_long" about`} {
		if !strings.Contains(d, want) {
			t.Errorf("detail %q lacks %q", d, want)
		}
	}
	// The default budget holds a few tools easily.
	wantFindings(t, manyTools(3, 8), lint.CodeTokenBudget)
	// Without a budget of its own, a large listing is reported at the server block.
	wantFindings(t, "server {\n  name = \"books\"\n}\n"+manyTools(100, 40), lint.CodeTokenBudget, "MCPD301 1:1")
	wantFindings(t, "server {\n  lint {\n    token_budget = 500\n    ignore = [\"token-budget\"]\n  }\n}\n"+manyTools(10, 40), lint.CodeTokenBudget)
}

// TestListingTokensAreTheWire: the estimate is of the JSON the server
// sends for tools/list, give or take the order of object keys.
func TestListingTokensAreTheWire(t *testing.T) {
	cfg, diags := lang.LoadSource("main.hcl", []byte(manyTools(20, 30)+tool("get_item", "annotations {\n    read_only = true\n  }", `result {
    text = "args.id"
  }`)))
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	tbl, d := table.Compile(cfg, all.Registry(), table.Options{})
	if d.HasErrors() {
		t.Fatal(d.Error())
	}
	tools, err := server.New(tbl, nil).ListTools(context.Background(), &mcp.Request{})
	if err != nil {
		t.Fatal(err)
	}
	wire, err := json.Marshal(map[string]any{"tools": tools})
	if err != nil {
		t.Fatal(err)
	}
	total, perTool := lint.ListingTokens(tbl)
	onWire := lint.EstimateTokens(wire)
	if total < onWire*97/100 || total > onWire*103/100 {
		t.Errorf("listing estimate %d, the wire's %d: more than 3%% apart", total, onWire)
	}
	if len(perTool) != 21 || perTool[0].Tokens < perTool[20].Tokens {
		t.Errorf("per-tool costs %v: want 21, largest first", perTool)
	}
}
