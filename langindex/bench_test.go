package langindex

import (
	"bytes"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/internal/largecfg"
	"github.com/mcpdecl/mcpdecl/lang"
)

// largeConfig is internal/largecfg's configuration of n tools, split as
// an editor would see a big folder: the tools in one file, and a second
// small file that is the one being edited.
func largeConfig(b *testing.B, n int) map[string][]byte {
	var buf bytes.Buffer
	if err := largecfg.Write(&buf, n); err != nil {
		b.Fatal(err)
	}
	return map[string][]byte{
		"tools.hcl": buf.Bytes(),
		"edit.hcl":  []byte("tool \"edited\" {\n  arg \"q\" {\n    type = string\n  }\n  http \"api\" {\n    path = \"/x/${args.q}\"\n  }\n}\n"),
	}
}

func BenchmarkBuild1000Tools(b *testing.B) {
	files := largeConfig(b, 1000)
	b.SetBytes(int64(len(files["tools.hcl"])))
	b.ReportAllocs()
	for b.Loop() {
		Build(files)
	}
}

// An edit in the small file of a 1,000-tool folder, then a question that
// needs every file's declarations (go to the backend's definition).
func BenchmarkWithEdit1000Tools(b *testing.B) {
	files := largeConfig(b, 1000)
	idx := Build(files)
	edit := files["edit.hcl"]
	at := hcl.Pos{Byte: bytes.Index(edit, []byte(`"api"`)) + 1}
	b.ReportAllocs()
	for b.Loop() {
		next := idx.With("edit.hcl", edit)
		if _, ok := next.Definition("edit.hcl", at); !ok {
			b.Fatal("the backend has no definition")
		}
	}
}

func BenchmarkReferences1000Tools(b *testing.B) {
	files := largeConfig(b, 1000)
	idx := Build(files)
	src := files["tools.hcl"]
	at := hcl.Pos{Byte: bytes.Index(src, []byte(`backend "http" "api"`)) + len(`backend "http" "a`)}
	b.ReportAllocs()
	for b.Loop() {
		if refs := idx.References("tools.hcl", at, true); len(refs) < 1000 {
			b.Fatalf("%d references of the backend", len(refs))
		}
	}
}

// The baseline: lang reading the same source, which the language server
// does for diagnostics anyway.
func BenchmarkLangLoadSource1000Tools(b *testing.B) {
	files := largeConfig(b, 1000)
	b.SetBytes(int64(len(files["tools.hcl"])))
	b.ReportAllocs()
	for b.Loop() {
		lang.LoadSource("tools.hcl", files["tools.hcl"])
	}
}
