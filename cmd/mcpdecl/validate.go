package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

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
		cfg, tbl, diags, err := compile([]string{p}, v.loadFlags, nil)
		if err != nil {
			return err
		}
		if cfg != nil {
			maps.Copy(files, cfg.Files)
		}
		tests := 0
		if !diags.HasErrors() {
			var d hcl.Diagnostics
			tests, d = v.checkTests(p, files)
			diags = dedupe(append(diags, d...))
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
	sortDiagnostics(all)
	if err := v.write(s, all, files, summaries); err != nil {
		return err
	}
	if errs, warns := count(all); errs > 0 || v.Strict && warns > 0 {
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
func (v *validateCmd) checkTests(p string, files map[string]*hcl.File) (int, hcl.Diagnostics) {
	suites, err := testrun.Discover([]string{p})
	if err != nil {
		return 0, nil // p compiled, so it exists; Discover has nothing to add
	}
	vars, err := v.varMap()
	if err != nil {
		return 0, nil // compile reported it
	}
	n := 0
	var diags hcl.Diagnostics
	for _, suite := range suites {
		prep, d := testrun.Prepare(suite, table.Options{Vars: vars})
		if prep.Config != nil {
			maps.Copy(files, prep.Config.Files)
		}
		n += len(prep.Cases)
		diags = append(diags, d...)
	}
	return n, diags
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
		return writeJSONDiagnostics(s.out, diags, files)
	case "github":
		writeGitHubDiagnostics(s.out, diags)
		return nil
	case "sarif":
		return writeSARIF(s.out, diags)
	}
	if err := writeTextDiagnostics(s.err, diags, files); err != nil {
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
	apps := appCount(t)
	if apps > 0 {
		return fmt.Sprintf("valid: %s, %s, %s, %s and %s.",
			plural(len(t.Tools), "tool"), plural(len(t.Resources)-apps, "resource"),
			plural(len(t.Templates), "resource template"), plural(len(t.Prompts), "prompt"), plural(apps, "app"))
	}
	return fmt.Sprintf("valid: %s, %s, %s and %s.",
		plural(len(t.Tools), "tool"), plural(len(t.Resources), "resource"),
		plural(len(t.Templates), "resource template"), plural(len(t.Prompts), "prompt"))
}

// appCount is how many of the table's resources are apps.
func appCount(t *table.Table) int {
	n := 0
	for _, r := range t.Resources {
		if r.App != nil {
			n++
		}
	}
	return n
}

func plural(n int, word string) string {
	return english.Count(n, word)
}

// sortDiagnostics orders diagnostics by file and position, so output is
// stable and reads top to bottom.
func sortDiagnostics(diags hcl.Diagnostics) {
	sort.SliceStable(diags, func(i, j int) bool {
		a, b := diags[i].Subject, diags[j].Subject
		switch {
		case a == nil || b == nil:
			return a == nil && b != nil
		case a.Filename != b.Filename:
			return a.Filename < b.Filename
		}
		return a.Start.Byte < b.Start.Byte
	})
}

func count(diags hcl.Diagnostics) (errs, warns int) {
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			errs++
		} else {
			warns++
		}
	}
	return errs, warns
}

// jsonDiagnostic is the JSON form of a diagnostic (Terraform's shape).
type jsonDiagnostic struct {
	Severity string     `json:"severity"`
	Code     string     `json:"code"`
	Summary  string     `json:"summary"`
	Detail   string     `json:"detail,omitempty"`
	Range    *jsonRange `json:"range,omitempty"`
	Snippet  string     `json:"snippet,omitempty"`
}

type jsonRange struct {
	Filename string  `json:"filename"`
	Start    jsonPos `json:"start"`
	End      jsonPos `json:"end"`
}

type jsonPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

type jsonReport struct {
	Valid        bool             `json:"valid"`
	ErrorCount   int              `json:"error_count"`
	WarningCount int              `json:"warning_count"`
	Diagnostics  []jsonDiagnostic `json:"diagnostics"`
}

func writeJSONDiagnostics(w io.Writer, diags hcl.Diagnostics, files map[string]*hcl.File) error {
	errs, warns := count(diags)
	rep := jsonReport{Valid: errs == 0, ErrorCount: errs, WarningCount: warns, Diagnostics: []jsonDiagnostic{}}
	for _, d := range diags {
		jd := jsonDiagnostic{Severity: severityName(d.Severity), Code: lint.CodeOf(d), Summary: d.Summary, Detail: d.Detail}
		if r := d.Subject; r != nil {
			jd.Range = &jsonRange{Filename: r.Filename,
				Start: jsonPos{r.Start.Line, r.Start.Column, r.Start.Byte},
				End:   jsonPos{r.End.Line, r.End.Column, r.End.Byte}}
			jd.Snippet = sourceLine(files, r)
		}
		rep.Diagnostics = append(rep.Diagnostics, jd)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

func severityName(s hcl.DiagnosticSeverity) string {
	if s == hcl.DiagWarning {
		return "warning"
	}
	return "error"
}

func sourceLine(files map[string]*hcl.File, r *hcl.Range) string {
	f, ok := files[r.Filename]
	if !ok {
		return ""
	}
	lines := strings.Split(string(f.Bytes), "\n")
	if r.Start.Line < 1 || r.Start.Line > len(lines) {
		return ""
	}
	return lines[r.Start.Line-1]
}

// writeGitHubDiagnostics writes GitHub Actions workflow commands, which show
// as annotations on the pull request's changed lines.
func writeGitHubDiagnostics(w io.Writer, diags hcl.Diagnostics) {
	for _, d := range diags {
		level := "error"
		if d.Severity == hcl.DiagWarning {
			level = "warning"
		}
		props := []string{"title=" + ghEscapeProp(d.Summary+ownCode(d))}
		if r := d.Subject; r != nil {
			props = append([]string{
				"file=" + ghEscapeProp(r.Filename),
				fmt.Sprintf("line=%d", r.Start.Line), fmt.Sprintf("col=%d", r.Start.Column),
				fmt.Sprintf("endLine=%d", r.End.Line), fmt.Sprintf("endColumn=%d", r.End.Column),
			}, props...)
		}
		fmt.Fprintf(w, "::%s %s::%s\n", level, strings.Join(props, ","), ghEscapeData(d.Detail))
	}
}

// ownCode is " [MCPD101]" for a diagnostic with a code of its own (a lint
// finding), and "" for the compiler's, whose generic codes (MCPD001,
// MCPD002) would only add noise to text meant for people.
func ownCode(d *hcl.Diagnostic) string {
	if e, ok := d.Extra.(*lint.Extra); ok {
		return " [" + e.Code + "]"
	}
	return ""
}

func ghEscapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghEscapeProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
