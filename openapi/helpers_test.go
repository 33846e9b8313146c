package openapi

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// importFile reads, parses and generates a whole document, as the command
// does without filters.
func importFile(t testing.TB, path string, f Filter) []byte {
	t.Helper()
	src, err := Read(context.Background(), path, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	api, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	ops, err := f.Select(api.Operations)
	if err != nil {
		t.Fatal(err)
	}
	return Generate(api, ops, Options{Source: filepath.Base(path)})
}

// checkConfig validates a generated configuration the way `mcpdecl
// validate` does (load and compile, no I/O to the backend) and checks that
// `mcpdecl fmt --check` would leave it alone. It returns the warnings.
func checkConfig(t testing.TB, name string, out []byte) hcl.Diagnostics {
	t.Helper()
	if got := hclwrite.Format(out); !bytes.Equal(got, out) {
		t.Errorf("%s: not formatted as mcpdecl fmt would", name)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "import.hcl")
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := lang.Load(file)
	if !cfg.Incomplete {
		_, d := table.Compile(cfg, all.Registry(), table.Options{})
		diags = append(diags, d...)
	}
	var warnings hcl.Diagnostics
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			t.Errorf("%s: %s", name, d.Error())
		} else {
			warnings = append(warnings, d)
		}
	}
	if t.Failed() {
		t.Logf("%s: the generated configuration:\n%s", name, numbered(out))
	}
	return warnings
}

func numbered(b []byte) string {
	var sb strings.Builder
	for i, l := range strings.Split(string(b), "\n") {
		if i > 400 {
			sb.WriteString("...\n")
			break
		}
		sb.WriteString(strings.Repeat(" ", 4-len(itoa(i+1))) + itoa(i+1) + "  " + l + "\n")
	}
	return sb.String()
}

func itoa(i int) string { return strconv.Itoa(i) }

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./openapi -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output (run go test ./openapi -update and review the diff):\n%s", path, firstDiff(string(want), string(got)))
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return "line " + itoa(i+1) + ":\n- " + x + "\n+ " + y
		}
	}
	return ""
}
