package serving

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestPaceCompile: a compile runs at compilePace and puts the pace back;
// of overlapping compiles the last puts it back; GOGC in the environment
// stands.
func TestPaceCompile(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(80))
	first := paceCompile(0)
	second := paceCompile(0)
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
	defer paceCompile(0)()
	if got := gcPercent(); got != 80 {
		t.Fatalf("GOGC %d with GOGC=80 in the environment", got)
	}
}

// TestPaceCompileFloor: a big configuration's compile turns the pace
// into a heap floor (GOGC off, the memory limit at the floor), which a
// collection moves up to compilePace of what it found live; the end of
// the compile puts GOGC and the limit back. A small configuration, or
// GOMEMLIMIT in the environment, keeps the pace alone.
func TestPaceCompileFloor(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(80))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 40))
	const input = 2 << 20 // bytes of configuration
	restore := paceCompile(input)
	if got, limit := gcPercent(), memoryLimit(); got != -1 || limit != compileHeapPerByte*input {
		t.Fatalf("GOGC %d and limit %d while compiling, want off and %d", got, limit, compileHeapPerByte*input)
	}
	live := make([][]byte, 40) // 40 MiB live: its limit at compilePace is above the floor
	for i := range live {
		live[i] = make([]byte, 1<<20)
	}
	want := int64(40<<20) * (100 + compilePace) / 100
	for deadline := time.Now().Add(10 * time.Second); memoryLimit() < want; {
		if time.Now().After(deadline) {
			t.Fatalf("limit %d after collections with 40 MiB live, want at least %d", memoryLimit(), want)
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond) // the hook runs after the collection
	}
	runtime.KeepAlive(live)
	restore()
	if got, limit := gcPercent(), memoryLimit(); got != 80 || limit != 1<<40 {
		t.Fatalf("GOGC %d and limit %d after the compile, want 80 and %d back", got, limit, int64(1<<40))
	}

	defer paceCompile(minCompileFloor/compileHeapPerByte - 1)()
	if got, limit := gcPercent(), memoryLimit(); got != compilePace || limit != 1<<40 {
		t.Errorf("a small configuration: GOGC %d, limit %d; want %d and no limit", got, limit, compilePace)
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	defer paceCompile(input)()
	if got, limit := gcPercent(), memoryLimit(); got != compilePace || limit != 1<<40 {
		t.Errorf("with GOMEMLIMIT set: GOGC %d, limit %d; want %d and the limit as it was", got, limit, compilePace)
	}
}

func memoryLimit() int64 { return debug.SetMemoryLimit(-1) }
