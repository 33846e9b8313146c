package lint_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/lint"
	"github.com/mcpdecl/mcpdecl/table"
)

// TestRepositoryConfigsLintClean: the examples and the valid test
// configurations follow the rules (or say, in a lint block, why not).
func TestRepositoryConfigsLintClean(t *testing.T) {
	var paths []string
	for _, dir := range []string{"../examples", "../testdata/valid"} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() || lang.IsConfigFile(e.Name()) {
				paths = append(paths, filepath.Join(dir, e.Name()))
			}
		}
	}
	if len(paths) < 10 {
		t.Fatalf("only %d configurations found", len(paths))
	}
	for _, p := range paths {
		cfg, diags := lang.Load(p)
		tbl, d := table.Compile(cfg, all.Registry(), table.Options{})
		diags = append(diags, d...)
		if diags.HasErrors() {
			t.Errorf("%s: %s", p, diags.Error())
			continue
		}
		if findings := lint.Check(cfg, tbl); len(findings) > 0 {
			t.Errorf("%s:%s", p, describe(findings))
		}
	}
}

// TestEveryCodeDocumented: docs/lint.md has a section per code, whose
// anchor the SARIF output links to, and mentions each rule's name.
func TestEveryCodeDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/lint.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range lint.Rules {
		if !strings.Contains(string(doc), "\n### "+r.Code+"\n") {
			t.Errorf("docs/lint.md has no section ### %s", r.Code)
		}
		if !strings.Contains(string(doc), "**"+r.Name+"**") {
			t.Errorf("docs/lint.md does not name the rule %s (%s)", r.Name, r.Code)
		}
	}
}
