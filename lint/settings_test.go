package lint_test

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/lint"
	"github.com/mcpdecl/mcpdecl/table"
)

func TestUnknownIgnoredCode(t *testing.T) {
	src := tools("run") + `
server {
  lint {
    ignore = ["MCPD2O2", "unclear-nme", "MCPD101"]
  }
}`
	diags := check(t, src)
	got := found(diags)
	want := []string{"MCPD003 13:15", "MCPD003 13:26", "MCPD202 1:6"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("findings %q, want %q%s", got, want, describe(diags))
	}
	if d := diags[0].Detail; !strings.Contains(d, `"MCPD2O2" is not a lint code`) || !strings.Contains(d, `Did you mean "MCPD202"?`) {
		t.Errorf("detail %q", d)
	}
	if d := diags[1].Detail; !strings.Contains(d, `Did you mean "unclear-name"?`) {
		t.Errorf("detail %q", d)
	}
	if diags[0].Severity != hcl.DiagWarning {
		t.Error("an unknown code is a warning")
	}
}

// TestIgnoreIsPerBlock: a tool's lint block turns codes off for that tool
// only.
func TestIgnoreIsPerBlock(t *testing.T) {
	src := strings.Replace(tools("run", "exec"), "  result {", "  lint {\n    ignore = [\"unclear-name\"]\n  }\n  result {", 1)
	wantFindings(t, src, lint.CodeUnclearName, "MCPD202 13:6")
}

func TestInvalidLintSettings(t *testing.T) {
	for _, c := range []struct{ settings, want string }{
		{`ignore = "MCPD101"`, "ignore is a list of codes written out"},
		{`ignore = [1]`, "Each element of ignore is a code or rule name written as a string"},
		{`token_budget = 0`, "token_budget is a whole number of tokens, at least 1"},
		{`token_budget = "lots"`, "token_budget is a whole number of tokens, at least 1"},
		{`token_budget = 10.5`, "token_budget is a whole number of tokens, at least 1"},
	} {
		diags := check(t, "server {\n  lint {\n    "+c.settings+"\n  }\n}\n"+tools("search_books"))
		if !diags.HasErrors() || !strings.Contains(diags.Error(), c.want) {
			t.Errorf("%s: got %v, want an error saying %q", c.settings, diags, c.want)
			continue
		}
		if r := diags[0].Subject; r == nil || r.Start.Line != 3 {
			t.Errorf("%s: error at %v, want line 3", c.settings, r)
		}
	}
}

func TestRulesAreComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range lint.Rules {
		if seen[r.Code] || seen[r.Name] {
			t.Errorf("duplicate code or name %s %s", r.Code, r.Name)
		}
		seen[r.Code], seen[r.Name] = true, true
		if len(r.Code) != 7 || !strings.HasPrefix(r.Code, "MCPD") || r.Short == "" || r.Full == "" {
			t.Errorf("incomplete rule %+v", r)
		}
	}
}

// TestIgnoreInJSONSyntax: lint blocks read the same in JSON syntax, in a
// tool and in a backend.
func TestIgnoreInJSONSyntax(t *testing.T) {
	src := `{
  "backend": {"http": {"spare": {"base_url": "http://127.0.0.1:9", "lint": {"ignore": ["unused-backend"]}}}},
  "tool": {"run": {
    "description": "Say the given word back, unchanged.",
    "lint": {"ignore": ["MCPD202", "MCPD9"]},
    "arg": {"word": {"description": "Any word."}},
    "result": {"text": "args.word"}
  }}
}`
	cfg, diags := lang.LoadSource("main.hcl.json", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	tbl, d := table.Compile(cfg, all.Registry(), table.Options{})
	if d.HasErrors() {
		t.Fatal(d.Error())
	}
	if got := found(lint.Check(cfg, tbl)); strings.Join(got, ",") != "MCPD003 5:36" {
		t.Errorf("findings %q, want only the unknown code MCPD9", got)
	}
}
