package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/lint"
)

// validateJSON runs `mcpdecl validate --format json` on path and returns
// the diagnostics of its report.
func validateJSON(t *testing.T, args ...string) []jsonDiag {
	t.Helper()
	var out, errOut bytes.Buffer
	run(append([]string{"validate", "--format", "json"}, args...), &out, &errOut)
	var rep struct {
		Diagnostics []jsonDiag `json:"diagnostics"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("validate %s: %v\n%s%s", args, err, out.String(), errOut.String())
	}
	return rep.Diagnostics
}

type jsonDiag struct {
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail"`
	Range    *struct {
		Filename string `json:"filename"`
		Start    struct {
			Line int `json:"line"`
		} `json:"start"`
	} `json:"range"`
}

// TestEveryErrorHasAClass: every error the invalid configurations and
// the configurations of the command scripts produce has the code of its
// class, not the generic MCPD001, and the code is one of the rules (so
// SARIF describes it and docs/lint.md has its section).
func TestEveryErrorHasAClass(t *testing.T) {
	var paths []string
	invalid, _ := filepath.Glob("../../testdata/invalid/*.hcl")
	paths = append(paths, invalid...)
	scripts, _ := filepath.Glob("testdata/script/*.txtar")
	for _, s := range scripts {
		a, err := txtar.ParseFile(s)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(s), ".txtar"))
		for _, f := range a.Files {
			p := filepath.Join(dir, f.Name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			if lang.IsConfigFile(f.Name) && !lang.IsTestFile(f.Name) {
				paths = append(paths, p)
			}
		}
	}
	if len(invalid) < 10 || len(paths) < 30 {
		t.Fatalf("only %d configurations found", len(paths))
	}
	errs := 0
	for _, p := range paths {
		for _, d := range validateJSON(t, p) {
			if d.Severity != "error" {
				continue
			}
			errs++
			if d.Code == lint.CodeError {
				t.Errorf("%s: %q has the generic code %s: give its class in internal/diagcode", p, d.Summary, d.Code)
			} else if !lint.IsError(d.Code) {
				t.Errorf("%s: %q has the code %s, which is not a class of errors", p, d.Summary, d.Code)
			}
		}
	}
	if errs < 100 {
		t.Errorf("only %d errors seen: the corpus was not read", errs)
	}
}
