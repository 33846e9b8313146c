package table_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/internal/largecfg"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// generatedConfig returns a config of n HTTP tools of the size a REST API
// wrapped by one file has: a description, two arguments (one constrained,
// one optional), a call with a path and a query, and one error rule.
func generatedConfig(n int) []byte {
	var b strings.Builder
	b.WriteString("backend \"http\" \"api\" {\n  base_url = \"http://127.0.0.1:9\"\n}\n\n")
	for i := range n {
		fmt.Fprintf(&b, `tool "get_item_%d" {
  description = "Fetch item kind %d by id."
  arg "id" {
    type    = integer
    minimum = 1
  }
  arg "fields" {
    type     = string
    required = false
  }
  http "api" {
    path  = "/items/%d/${args.id}"
    query = { fields = args.fields }
  }
  error {
    when    = "status == 404"
    message = "No item {{ args.id }}."
  }
}
`, i, i, i)
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
		if _, diags := table.Compile(cfg, reg, table.Options{}); diags.HasErrors() {
			b.Fatal(diags)
		}
	}
}

// BenchmarkParse1000Tools measures HCL parsing and decoding alone (the part
// of BenchmarkCompile1000Tools spent in the hcl library and lang).
func BenchmarkParse1000Tools(b *testing.B) {
	src := generatedConfig(1000)
	b.ReportAllocs()
	for b.Loop() {
		if _, diags := lang.LoadSource("gen.hcl", src); diags.HasErrors() {
			b.Fatal(diags)
		}
	}
}

// BenchmarkCompileOnly1000Tools measures table.Compile alone on an
// already decoded configuration.
func BenchmarkCompileOnly1000Tools(b *testing.B) {
	benchCompileOnly(b, "gen.hcl", generatedConfig(1000))
}

// BenchmarkCompileOnlyImportLike1000 is table.Compile alone on 1,000 tools
// shaped like an OpenAPI import (internal/largecfg: path, query and body
// arguments, enums, nested objects), the shape of the big configurations
// scripts/bench-large.sh loads.
func BenchmarkCompileOnlyImportLike1000(b *testing.B) {
	var src bytes.Buffer
	if err := largecfg.Write(&src, 1000); err != nil {
		b.Fatal(err)
	}
	benchCompileOnly(b, "large.hcl", src.Bytes())
}

// benchCompileOnly compiles the configuration src, decoded once, b.N
// times (a compile leaves the decoded configuration as it was).
func benchCompileOnly(b *testing.B, name string, src []byte) {
	cfg, diags := lang.LoadSource(name, src)
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	reg := all.Registry()
	b.ReportAllocs()
	for b.Loop() {
		if _, diags := table.Compile(cfg, reg, table.Options{}); diags.HasErrors() {
			b.Fatal(diags)
		}
	}
}
