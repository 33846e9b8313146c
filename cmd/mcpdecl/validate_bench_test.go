package main

import (
	"io"
	"testing"
)

var benchExamples = []string{"../../examples/library.hcl", "../../examples/calendar.hcl", "../../examples/orders.hcl", "../../examples/commands.hcl"}

// BenchmarkValidateExamples measures `mcpdecl validate` of the four
// examples in process, lint rules included (the whole-process figure adds
// start-up; see scripts/bench-validate.sh).
func BenchmarkValidateExamples(b *testing.B) {
	benchValidate(b, append([]string{"validate"}, benchExamples...))
}

// BenchmarkValidateExamplesNoLint is the same without the lint rules, so
// the difference is what they cost.
func BenchmarkValidateExamplesNoLint(b *testing.B) {
	benchValidate(b, append([]string{"validate", "--no-lint"}, benchExamples...))
}

func benchValidate(b *testing.B, args []string) {
	b.ReportAllocs()
	for b.Loop() {
		if code := run(args, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}
