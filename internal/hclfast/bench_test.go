package hclfast

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// The generated configuration of 1,000 tools (about 900 KB), parsed whole
// by each parser.

func BenchmarkParseLarge(b *testing.B) {
	src := largeConfig(b, 1000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := ParseBody(src, "large.hcl", hcl.InitialPos); !ok {
			b.Fatal("bailed")
		}
	}
}

func BenchmarkParseLargeHCLSyntax(b *testing.B) {
	src := largeConfig(b, 1000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, diags := hclsyntax.ParseConfig(src, "large.hcl", hcl.InitialPos); diags.HasErrors() {
			b.Fatal(diags)
		}
	}
}
