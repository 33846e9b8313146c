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

// The same text in pieces of about 2 KB, as lang parses a big file.

func benchPieces(b *testing.B, parse func(piece []byte, start hcl.Pos) bool) {
	src := largeConfig(b, 1000)
	starts := pieces(src, 2<<10)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		for i, s := range starts {
			end := len(src)
			if i+1 < len(starts) {
				end = starts[i+1]
			}
			if !parse(src[s:end], hcl.Pos{Line: 1, Column: 1, Byte: s}) {
				b.Fatal("failed")
			}
		}
	}
}

func BenchmarkParseLargePieces(b *testing.B) {
	benchPieces(b, func(piece []byte, start hcl.Pos) bool {
		_, ok := ParseBody(piece, "large.hcl", start)
		return ok
	})
}

func BenchmarkParseLargePiecesHCLSyntax(b *testing.B) {
	benchPieces(b, func(piece []byte, start hcl.Pos) bool {
		_, diags := hclsyntax.ParseConfig(piece, "large.hcl", start)
		return !diags.HasErrors()
	})
}
