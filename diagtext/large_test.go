package diagtext

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestBlockContextAgreesWithHCL checks the binary search against HCL's own
// walk of the blocks at every offset of a file: inside blocks, between
// them, in attributes outside any block, and past the end.
func TestBlockContextAgreesWithHCL(t *testing.T) {
	const src = "server {\n  name = \"s\"\n}\n\nx = 1\n\ntool \"a\" {\n  arg \"q\" {\n    type = string\n  }\n}\nbackend \"http\" \"api\" {\n  base_url = \"http://127.0.0.1\"\n}\n\n# the end\n"
	file, diags := hclsyntax.ParseConfig([]byte(src), "x.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	type contextStringer interface{ ContextString(offset int) string }
	hclNav := file.Nav.(contextStringer)
	seen := map[string]bool{}
	for off := 0; off <= len(src)+1; off++ {
		got, want := blockContext(file, off), hclNav.ContextString(off)
		if got != want {
			t.Errorf("offset %d (%q): got %q, want %q as HCL says", off, src[min(off, len(src)):min(off+8, len(src))], got, want)
		}
		seen[got] = true
	}
	for _, want := range []string{"", "server", `tool "a"`, `backend "http" "api"`} {
		if !seen[want] {
			t.Errorf("no offset gave context %q; the file does not test what it should", want)
		}
	}
}

// BenchmarkWriteTextManyFindings renders one finding per block of a
// 1,000- and a 10,000-block file. Each finding should cost the same
// however far into the file it is, so ns/finding stays flat as the file
// grows (it grew tenfold when each finding walked the file from line 1).
func BenchmarkWriteTextManyFindings(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var src bytes.Buffer
			for i := range n {
				fmt.Fprintf(&src, "tool \"t%d\" {\n  description = \"d\"\n}\n", i)
			}
			file, diags := hclsyntax.ParseConfig(src.Bytes(), "big.hcl", hcl.InitialPos)
			if diags.HasErrors() {
				b.Fatal(diags)
			}
			files := map[string]*hcl.File{"big.hcl": file}
			var found hcl.Diagnostics
			for _, blk := range file.Body.(*hclsyntax.Body).Blocks {
				r := blk.LabelRanges[0]
				found = append(found, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Unclear name", Subject: &r})
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := WriteText(io.Discard, found, files); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/finding")
		})
	}
}
