package serving

import (
	"context"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// gcPercent reads the collector's GOGC without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestSmallConfigurationGetsCollectorRoom: serving a small configuration
// lets the heap grow to three times its live size between collections,
// unless GOGC is in the environment, whose value stands.
func TestSmallConfigurationGetsCollectorRoom(t *testing.T) {
	defer debug.SetGCPercent(gcPercent())
	config := filepath.Join(t.TempDir(), "small.hcl")
	writeFile(t, config, reloadConfigA)
	start := func() {
		t.Helper()
		inst, err := Start(context.Background(), Options{Paths: []string{config}, HTTP: "127.0.0.1:0"})
		if err != nil {
			t.Fatal(err)
		}
		if err := inst.Stop(); err != nil {
			t.Fatal(err)
		}
	}

	t.Setenv("GOGC", "") // restored when the test ends
	os.Unsetenv("GOGC")
	debug.SetGCPercent(100)
	start()
	if got := gcPercent(); got != roomySmallHeap {
		t.Errorf("GOGC unset: the collector's percent is %d, want %d", got, roomySmallHeap)
	}

	t.Setenv("GOGC", "150")
	debug.SetGCPercent(150)
	start()
	if got := gcPercent(); got != 150 {
		t.Errorf("GOGC=150: the collector's percent is %d, want it left alone", got)
	}
}
