package main

import (
	"fmt"
	"maps"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/diagtext"
	"github.com/mcpdecl/mcpdecl/internal/english"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/lint"
	"github.com/mcpdecl/mcpdecl/table"
	"github.com/mcpdecl/mcpdecl/testrun"
)

type validateCmd struct {
	Format string   `enum:"text,json,github,sarif" default:"text" help:"Output format: text (file:line:col and a source snippet, on stderr), json (for editors and scripts), github (workflow annotations) or sarif (SARIF 2.1.0, for code scanning)."`
	NoLint bool     `name:"no-lint" help:"Skip the lint rules (descriptions, names, token budget, annotations, unused declarations); report only what makes the configuration invalid."`
	Strict bool     `help:"Fail (exit status 1) on warnings too, lint findings included."`
	Paths  []string `arg:"" optional:"" name:"path" help:"Files or directories to check (default: the current directory)."`
	loadFlags
}

func (v *validateCmd) Run(s streams) error {
	paths := v.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	// Each PATH is a configuration of its own (a directory is one
	// configuration of all its files), so `validate examples/*.hcl` checks
	// several servers in one run.
	var all hcl.Diagnostics
	files := map[string]*hcl.File{}
	var summaries []string
	for _, p := range paths {
		cfg, tbl, diags, err := v.compile([]string{p}, nil)
		if err != nil {
			return err
		}
		if cfg != nil {
			maps.Copy(files, cfg.Files)
		}
		tests := 0
		if !diags.HasErrors() {
			var d hcl.Diagnostics
			tests, d = v.checkTests(p, files, cfg)
			diags = diagtext.Dedupe(append(diags, d...))
		}
		if !diags.HasErrors() && !v.NoLint {
			diags = append(diags, lint.Check(cfg, tbl)...)
		}
		all = append(all, diags...)
		switch {
		case diags.HasErrors():
		case lang.IsTestFile(p):
			// A test file named alone is checked with its configuration;
			// it declares nothing to count but its tests.
			summaries = append(summaries, p+": valid: "+english.Count(tests, "test")+" checked.")
		default:
			summaries = append(summaries, p+": "+successLine(tbl)+testsLine(tests))
		}
	}
	diagtext.Sort(all)
	if err := v.write(s, all, files, summaries); err != nil {
		return err
	}
	if errs, warns := diagtext.Count(all); errs > 0 || v.Strict && warns > 0 {
		return exitCode(1)
	}
	return nil
}

// checkTests checks the test blocks of the configuration at p, and of
// its test files (orders_test.hcl beside orders.hcl, a directory's
// *_test.hcl), as mcpdecl test would before running them: each names a
// target that exists, with arguments its schema takes, mocks of HTTP
// backends it has, patterns that compile. It returns how many tests it
// checked and their problems; the files it read join files, for the
// snippets of the report.
func (v *validateCmd) checkTests(p string, files map[string]*hcl.File, cfg *lang.Config) (int, hcl.Diagnostics) {
	vars, err := v.varMap()
	if err != nil {
		return 0, nil // compile reported it
	}
	return testrun.CheckPath(p, vars, files, cfg)
}

// testsLine completes the success line with the tests checked, if any.
func testsLine(n int) string {
	if n == 0 {
		return ""
	}
	return " " + english.Count(n, "test") + " checked."
}

func (v *validateCmd) write(s streams, diags hcl.Diagnostics, files map[string]*hcl.File, summaries []string) error {
	switch v.Format {
	case "json":
		return diagtext.WriteJSON(s.out, diags, files)
	case "github":
		diagtext.WriteGitHub(s.out, diags)
		return nil
	case "sarif":
		return diagtext.WriteSARIF(s.out, diags, buildVersion())
	}
	if err := diagtext.WriteText(s.err, diags, files); err != nil {
		return err
	}
	for _, line := range summaries {
		fmt.Fprintln(s.out, line)
	}
	return nil
}

func successLine(t *table.Table) string {
	if t == nil {
		return "valid."
	}
	apps := table.AppCount(t)
	if apps > 0 {
		return fmt.Sprintf("valid: %s, %s, %s, %s and %s.",
			plural(len(t.Tools), "tool"), plural(len(t.Resources)-apps, "resource"),
			plural(len(t.Templates), "resource template"), plural(len(t.Prompts), "prompt"), plural(apps, "app"))
	}
	return fmt.Sprintf("valid: %s, %s, %s and %s.",
		plural(len(t.Tools), "tool"), plural(len(t.Resources), "resource"),
		plural(len(t.Templates), "resource template"), plural(len(t.Prompts), "prompt"))
}

func plural(n int, word string) string {
	return english.Count(n, word)
}
