package main

import (
	"io"
	"testing"
)

// BenchmarkValidateExamples measures `mcpdecl validate` of the four
// examples in process (the whole-process figure adds start-up; see
// scripts/bench-validate.sh).
func BenchmarkValidateExamples(b *testing.B) {
	args := []string{"validate", "../../examples/library.hcl", "../../examples/calendar.hcl", "../../examples/orders.hcl", "../../examples/commands.hcl"}
	b.ReportAllocs()
	for b.Loop() {
		if code := run(args, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}
