package dispatch_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/lang"
)

// generatedConfig returns a config of n HTTP tools, each with three
// arguments, a validation, an error rule and a result block: the size a
// large REST API wrapped by one file reaches.
func generatedConfig(n int) []byte {
	var b strings.Builder
	b.WriteString("backend \"http\" \"api\" {\n  base_url = \"http://127.0.0.1:9\"\n}\n\n")
	for i := range n {
		fmt.Fprintf(&b, `tool "tool_%d" {
  description = "Tool number %d."
  arg "id" {
    type    = integer
    minimum = 1
  }
  arg "q" {
    type       = string
    max_length = 100
    required   = false
  }
  arg "kind" {
    type = string
    enum = ["a", "b", "c"]
    default = "a"
  }
  validation {
    condition     = args.id < 1000000
    error_message = "id ${args.id} is too large"
  }
  http "api" {
    path  = "/items/${args.id}"
    query = { q = args.q, kind = args.kind }
  }
  error {
    when    = "status == 404"
    message = "No item {{ args.id }}."
  }
  result {
    structured = "body"
    text       = "body?.name ?? 'unnamed'"
  }
}
`, i, i)
	}
	return []byte(b.String())
}

// BenchmarkCompile1000Tools measures load plus compile of 1,000 tools.
// Target: ≤ 200 ms and ≤ 100 MB allocated per op.
func BenchmarkCompile1000Tools(b *testing.B) {
	src := generatedConfig(1000)
	reg := all.Registry()
	b.ReportAllocs()
	for b.Loop() {
		cfg, diags := lang.LoadSource("gen.hcl", src)
		if diags.HasErrors() {
			b.Fatal(diags)
		}
		if _, diags := dispatch.Compile(cfg, reg, dispatch.Options{}); diags.HasErrors() {
			b.Fatal(diags)
		}
	}
}
