package lint_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/lint"
	"github.com/mcpdecl/mcpdecl/table"
)

// bigConfig is n HTTP tools of the size a wrapped REST API has (as in
// table's compile benchmark), with findings for most rules: arguments
// without descriptions, writing tools without hints, an unused argument,
// and a listing far over the token budget.
func bigConfig(n int) []byte {
	var b strings.Builder
	b.WriteString("backend \"http\" \"api\" {\n  base_url = \"http://127.0.0.1:9\"\n}\n\n")
	for i := range n {
		method := "GET"
		if i%3 == 0 {
			method = "POST"
		}
		fmt.Fprintf(&b, `tool "get_item_%d" {
  description = "Fetch item kind %d by id, with the fields asked for."
  arg "id" {
    type    = integer
    minimum = 1
  }
  arg "fields" {
    type     = string
    required = false
  }
  arg "unused" {
    description = "Never read."
  }
  http "api" {
    method = %q
    path   = "/items/%d/${args.id}"
    query  = { fields = args.fields }
  }
  error {
    when    = "status == 404"
    message = "No item {{ args.id }}."
  }
}
`, i, i, method, i)
	}
	return []byte(b.String())
}

func compileBig(b *testing.B, n int) (*lang.Config, *table.Table) {
	cfg, diags := lang.LoadSource("gen.hcl", bigConfig(n))
	tbl, d := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() || d.HasErrors() {
		b.Fatal(diags, d)
	}
	return cfg, tbl
}

// BenchmarkLoadCompile1000Tools is the baseline: what validate does
// before lint.
func BenchmarkLoadCompile1000Tools(b *testing.B) {
	src := bigConfig(1000)
	reg := all.Registry()
	b.ReportAllocs()
	for b.Loop() {
		cfg, diags := lang.LoadSource("gen.hcl", src)
		if _, d := table.Compile(cfg, reg, table.Options{}); diags.HasErrors() || d.HasErrors() {
			b.Fatal(diags, d)
		}
	}
}

// BenchmarkLintOverCompile1000Tools alternates the two within each
// iteration, each timed on its own (wall and process CPU time), so that a
// shared machine's drift falls on both alike: lint-x is lint's cost as a
// fraction of load and compile, what it adds to validate.
func BenchmarkLintOverCompile1000Tools(b *testing.B) {
	src := bigConfig(1000)
	reg := all.Registry()
	var compileWall, lintWall, compileCPU, lintCPU time.Duration
	for b.Loop() {
		w0, c0 := time.Now(), cpuTime()
		cfg, diags := lang.LoadSource("gen.hcl", src)
		tbl, d := table.Compile(cfg, reg, table.Options{})
		w1, c1 := time.Now(), cpuTime()
		findings := lint.Check(cfg, tbl)
		w2, c2 := time.Now(), cpuTime()
		if diags.HasErrors() || d.HasErrors() || len(findings) < 1000 {
			b.Fatal(diags, d, len(findings))
		}
		compileWall, lintWall = compileWall+w1.Sub(w0), lintWall+w2.Sub(w1)
		compileCPU, lintCPU = compileCPU+c1-c0, lintCPU+c2-c1
	}
	n := float64(b.N)
	b.ReportMetric(float64(compileWall.Nanoseconds())/n, "compile-ns/op")
	b.ReportMetric(float64(lintWall.Nanoseconds())/n, "lint-ns/op")
	b.ReportMetric(float64(lintWall)/float64(compileWall), "lint-x")
	if compileCPU > 0 {
		b.ReportMetric(float64(compileCPU.Nanoseconds())/n, "compile-cpu-ns/op")
		b.ReportMetric(float64(lintCPU.Nanoseconds())/n, "lint-cpu-ns/op")
		b.ReportMetric(float64(lintCPU)/float64(compileCPU), "lint-cpu-x")
	}
}

// BenchmarkLint1000Tools is what lint adds to it, alone (with its
// allocations).
func BenchmarkLint1000Tools(b *testing.B) {
	cfg, tbl := compileBig(b, 1000)
	b.ReportAllocs()
	for b.Loop() {
		if findings := lint.Check(cfg, tbl); len(findings) < 1000 {
			b.Fatalf("%d findings", len(findings))
		}
	}
}
