package table_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// compilePaths runs the whole load-time pipeline as `mcpdecl validate` does.
func compilePaths(paths ...string) (*lang.Config, *table.Table, hcl.Diagnostics) {
	cfg, diags := lang.Load(paths...)
	if cfg.Incomplete {
		return cfg, nil, diags
	}
	tbl, d := table.Compile(cfg, all.Registry(), table.Options{})
	return cfg, tbl, append(diags, d...)
}

// configsIn lists each config under dir: every file on its own, and every
// subdirectory as one multi-file config.
func configsIn(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() || lang.IsConfigFile(e.Name()) && !lang.IsTestFile(e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	if len(out) == 0 {
		t.Fatalf("no configurations in %s", dir)
	}
	return out
}

func TestValidConfigs(t *testing.T) {
	paths := append(configsIn(t, "../testdata/valid"), configsIn(t, "../examples")...)
	for _, p := range paths {
		t.Run(p, func(t *testing.T) {
			_, tbl, diags := compilePaths(p)
			if len(diags) > 0 {
				t.Fatalf("want no diagnostics, got:\n%s", render(diags))
			}
			if tbl == nil {
				t.Fatal("no table")
			}
			checkSchemasCompile(t, tbl)
		})
	}
}

// marker is an expected diagnostic written in the file as
// `# ERROR: <summary>` or `# WARNING: <summary>` on the line where the
// diagnostic must start.
type marker struct {
	line     int
	severity hcl.DiagnosticSeverity
	summary  string
}

var markerRE = regexp.MustCompile(`(?:#|//)\s*(ERROR|WARNING):\s*(.+?)\s*$`)

func readMarkers(t *testing.T, path string) []marker {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []marker
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		m := markerRE.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		sev := hcl.DiagError
		if m[1] == "WARNING" {
			sev = hcl.DiagWarning
		}
		out = append(out, marker{line: n, severity: sev, summary: m[2]})
	}
	return out
}

func TestInvalidConfigs(t *testing.T) {
	files := configsIn(t, "../testdata/invalid")
	total := 0
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			want := readMarkers(t, path)
			if len(want) == 0 {
				t.Fatalf("%s has no # ERROR: markers", path)
			}
			total += len(want)
			_, _, diags := compilePaths(path)
			checkMarkers(t, path, want, diags)
		})
	}
	if total < 40 {
		t.Errorf("the invalid corpus has %d expected diagnostics; keep at least 40 distinct mistakes", total)
	}
}

func checkMarkers(t *testing.T, path string, want []marker, diags hcl.Diagnostics) {
	t.Helper()
	used := make([]bool, len(diags))
	for _, m := range want {
		found := false
		for i, d := range diags {
			if !used[i] && d.Severity == m.severity && d.Summary == m.summary && d.Subject != nil &&
				d.Subject.Start.Line == m.line && filepath.Base(d.Subject.Filename) == filepath.Base(path) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			t.Errorf("%s:%d: missing diagnostic %q", path, m.line, m.summary)
		}
	}
	for i, d := range diags {
		if !used[i] && d.Severity == hcl.DiagError {
			t.Errorf("unexpected diagnostic: %s", render(hcl.Diagnostics{d}))
		}
	}
	if t.Failed() {
		t.Logf("all diagnostics:\n%s", render(diags))
	}
}

func render(diags hcl.Diagnostics) string {
	var lines []string
	for _, d := range diags {
		pos := "(no position)"
		if d.Subject != nil {
			pos = d.Subject.String()
		}
		lines = append(lines, pos+": "+d.Summary+": "+d.Detail)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// checkSchemasCompile compiles every argument schema, which the compiler
// leaves to first use.
func checkSchemasCompile(t *testing.T, tbl *table.Table) {
	t.Helper()
	var all []*table.Args
	for _, tool := range tbl.Tools {
		all = append(all, tool.Args)
	}
	for _, tm := range tbl.Templates {
		all = append(all, tm.Args)
	}
	for _, p := range tbl.Prompts {
		all = append(all, p.Args)
	}
	for _, a := range all {
		if _, err := a.Validator(); err != nil {
			t.Errorf("schema %v does not compile: %v", a.Schema, err)
		}
	}
}
