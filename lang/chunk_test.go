package lang

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mcpdecl/mcpdecl/internal/hclfast"
)

// bigConfig returns a config with tricky text for the splitter: heredocs,
// braces inside strings and interpolations, comments with braces.
func bigConfig(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `# tool %d { not a block
tool "t%d" {
  description = "braces } in { a string and ${upper("}")}"
  /* a { comment */
  arg "id" {
    type = integer
  }
  result {
    text = <<-EOT
      {{ args.id }} } {
    EOT
  }
}
`, i, i)
	}
	return b.String()
}

func TestChunkedParseMatchesWholeParse(t *testing.T) {
	old := chunkSize
	chunkSize = 300
	defer func() { chunkSize = old }()
	src := []byte(bigConfig(40))
	if cuts := topLevelCuts(src, chunkSize); len(cuts) < 10 {
		t.Fatalf("want the file cut into many pieces, got %d cuts", len(cuts))
	}
	chunked, d1 := parseNative(src, "big.hcl")
	whole, d2 := hclsyntax.ParseConfig(src, "big.hcl", hcl.InitialPos)
	if d1.HasErrors() || d2.HasErrors() {
		t.Fatal(d1, d2)
	}
	a, b := blockRanges(chunked), blockRanges(whole)
	if diff := cmp.Diff(b, a); diff != "" {
		t.Errorf("block ranges differ (-whole +chunked):\n%s", diff)
	}
	// The enclosing block of a position deep in the file is found, for the
	// "in tool ..." line of rendered diagnostics.
	offset := strings.Index(string(src), `tool "t33"`) + 30
	nav, ok := chunked.Nav.(interface{ ContextString(int) string })
	if !ok {
		t.Fatal("the chunked file has no navigation")
	}
	if got := nav.ContextString(offset); got != `tool "t33"` {
		t.Errorf("ContextString = %q", got)
	}
}

func blockRanges(f *hcl.File) []string {
	var out []string
	for _, blk := range f.Body.(*hclsyntax.Body).Blocks {
		out = append(out, fmt.Sprintf("%s %v %v", blk.Type, blk.Labels, blk.Range()))
		for _, inner := range blk.Body.Blocks {
			out = append(out, fmt.Sprintf("  %s %v", inner.Type, inner.Range()))
		}
	}
	return out
}

func TestChunkedParseFallsBackOnErrors(t *testing.T) {
	old := chunkSize
	chunkSize = 300
	defer func() { chunkSize = old }()
	src := bigConfig(10) + "tool \"broken\" {\n  description = \n}\n"
	_, got := parseNative([]byte(src), "big.hcl")
	_, want := hclsyntax.ParseConfig([]byte(src), "big.hcl", hcl.InitialPos)
	if got.Error() != want.Error() {
		t.Errorf("diagnostics differ:\n got %s\nwant %s", got, want)
	}
}

// TestFastParserFailureFallsBack: a panic in the fast parser makes the
// load parse that piece with hclsyntax, with the same result, instead of
// crashing.
func TestFastParserFailureFallsBack(t *testing.T) {
	var src strings.Builder
	for i := range 200 {
		fmt.Fprintf(&src, "tool \"t%d\" {\n  description = \"Tool %d.\"\n  result {\n    text = \"'ok'\"\n  }\n}\n", i, i)
	}
	want, wantDiags := LoadSource("t.hcl", []byte(src.String()))
	var calls atomic.Int32
	fastParser = func([]byte, string, hcl.Pos) (*hclsyntax.Body, bool) { calls.Add(1); panic("a bug") }
	defer func() { fastParser = hclfast.ParseBody }()
	got, diags := LoadSource("t.hcl", []byte(src.String()))
	if calls.Load() == 0 {
		t.Fatal("the fast parser was not tried: the text is too small to be cut")
	}
	if len(diags) != len(wantDiags) || len(got.Tools) != len(want.Tools) || len(got.Tools) != 200 {
		t.Errorf("after a failing fast parser: %d tools and %v; want %d and %v", len(got.Tools), diags, len(want.Tools), wantDiags)
	}
}
