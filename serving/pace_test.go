package serving

import (
	"runtime/debug"
	"testing"
)

// TestPaceCompile: a compile runs at compilePace and puts the pace back;
// of overlapping compiles the last puts it back; GOGC in the environment
// stands.
func TestPaceCompile(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(80))
	first := paceCompile()
	second := paceCompile()
	if got := gcPercent(); got != compilePace {
		t.Fatalf("GOGC %d while compiling, want %d", got, compilePace)
	}
	first()
	if got := gcPercent(); got != compilePace {
		t.Fatalf("GOGC %d after the first of two compiles ended, want %d", got, compilePace)
	}
	second()
	if got := gcPercent(); got != 80 {
		t.Fatalf("GOGC %d after both ended, want 80 back", got)
	}
	t.Setenv("GOGC", "80")
	defer paceCompile()()
	if got := gcPercent(); got != 80 {
		t.Fatalf("GOGC %d with GOGC=80 in the environment", got)
	}
}
