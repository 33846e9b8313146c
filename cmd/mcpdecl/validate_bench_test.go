package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/internal/largecfg"
)

var benchExamples = []string{"../../examples/library.hcl", "../../examples/calendar.hcl", "../../examples/orders.hcl", "../../examples/commands.hcl"}

// BenchmarkValidateExamples measures `mcpdecl validate` of the four
// examples in process, lint rules included (the whole-process figure adds
// start-up; see scripts/bench-validate.sh).
func BenchmarkValidateExamples(b *testing.B) {
	benchValidate(b, append([]string{"validate"}, benchExamples...))
}

// BenchmarkValidateExamplesLintCost alternates validate with and without
// --no-lint within each iteration, each timed on its own, so that a shared
// machine's drift falls on both alike; lint-x is the time with the lint
// rules over the time without.
func BenchmarkValidateExamplesLintCost(b *testing.B) {
	with := append([]string{"validate"}, benchExamples...)
	without := append([]string{"validate", "--no-lint"}, benchExamples...)
	var withNs, withoutNs time.Duration
	for b.Loop() {
		start := time.Now()
		if code := run(without, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
		mid := time.Now()
		if code := run(with, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
		withoutNs, withNs = withoutNs+mid.Sub(start), withNs+time.Since(mid)
	}
	n := float64(b.N)
	b.ReportMetric(float64(withoutNs.Nanoseconds())/n, "no-lint-ns/op")
	b.ReportMetric(float64(withNs.Nanoseconds())/n, "lint-ns/op")
	b.ReportMetric(float64(withNs)/float64(withoutNs), "lint-x")
}

func benchValidate(b *testing.B, args []string) {
	b.ReportAllocs()
	for b.Loop() {
		if code := run(args, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}

// BenchmarkValidateLarge measures `mcpdecl validate` of a generated
// 2,000-tool config shaped like an OpenAPI import (see internal/largecfg);
// scripts/bench-large.sh measures 10,000 tools as a whole process.
func BenchmarkValidateLarge(b *testing.B) {
	benchValidate(b, []string{"validate", writeLarge(b, largeTools)})
}

// BenchmarkValidateLargeNoLint is the same without the lint rules, so the
// lint's share of the time is the difference.
func BenchmarkValidateLargeNoLint(b *testing.B) {
	benchValidate(b, []string{"validate", "--no-lint", writeLarge(b, largeTools)})
}

func writeLarge(b *testing.B, n int) string {
	p := filepath.Join(b.TempDir(), "large.hcl")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	if err := largecfg.Write(f, n); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return p
}

// largeTools is the size of BenchmarkValidateLarge's config.
const largeTools = 10000
