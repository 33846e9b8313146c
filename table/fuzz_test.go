package table_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// FuzzLoad feeds arbitrary bytes through loading and compiling. Neither may
// panic, and every diagnostic that has a position must point inside the
// file.
func FuzzLoad(f *testing.F) {
	for _, pattern := range []string{"../testdata/valid/*.hcl", "../testdata/invalid/*.hcl", "../examples/*.hcl", "../testdata/conformance/*.hcl"} {
		files, _ := filepath.Glob(pattern)
		for _, name := range files {
			src, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
	reg := all.Registry()
	f.Fuzz(func(t *testing.T, src []byte) {
		cfg, diags := lang.LoadSource("fuzz.hcl", src)
		if len(src) > 64<<10 {
			return // parsing time grows with size; small inputs find the bugs
		}
		checkRanges(t, diags, len(src))
		if cfg.Incomplete {
			return
		}
		tbl, diags := table.Compile(cfg, reg, table.Options{})
		checkRanges(t, diags, len(src))
		if tbl != nil {
			checkSchemasCompile(t, tbl)
		}
	})
}

func checkRanges(t *testing.T, diags hcl.Diagnostics, size int) {
	t.Helper()
	for _, d := range diags {
		if d.Subject == nil || d.Subject.Filename != "fuzz.hcl" {
			continue
		}
		if d.Subject.Start.Byte < 0 || d.Subject.End.Byte > size || d.Subject.Start.Byte > d.Subject.End.Byte {
			t.Fatalf("diagnostic %q has range %v outside the %d-byte file", d.Summary, d.Subject, size)
		}
	}
}
