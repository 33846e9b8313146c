//go:build linux

package serving

import (
	"context"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/internal/largecfg"
)

// TestReloadPeakStaysAtTheFirstLoads: a reload compiles while the previous
// table serves, and its peak resident memory stays about that of the first
// load, instead of adding up the old table, the new one and the load's
// garbage (which took a 10,000-tool config from 700 MiB at start to 930
// MiB at each SIGHUP). Peaks are the kernel's high-water mark of this
// process, reset before each step.
func TestReloadPeakStaysAtTheFirstLoads(t *testing.T) {
	config := filepath.Join(t.TempDir(), "large.hcl")
	f, err := os.Create(config)
	if err != nil {
		t.Fatal(err)
	}
	if err := largecfg.Write(f, 3000); err != nil {
		t.Fatal(err)
	}
	f.Close()
	debug.FreeOSMemory() // what earlier tests left is not this one's peak
	resetPeakRSS(t)
	inst, err := Start(context.Background(), Options{Paths: []string{config}, HTTP: "127.0.0.1:0", DrainTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Stop()
	first := peakRSS(t)
	resetPeakRSS(t)
	if err := inst.Reload(); err != nil {
		t.Fatal(err)
	}
	reload := peakRSS(t)
	t.Logf("peak resident memory: first load %d MiB, reload %d MiB", first>>20, reload>>20)
	if reload > first+first/10 {
		t.Errorf("the reload peaked at %d MiB, the first load at %d MiB: more than a tenth above", reload>>20, first>>20)
	}
}

// resetPeakRSS sets the kernel's high-water mark of resident memory
// (VmHWM) to the current resident memory.
func resetPeakRSS(t *testing.T) {
	t.Helper()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Fatalf("cannot reset the peak resident memory: %v", err)
	}
}

func peakRSS(t *testing.T) uint64 {
	t.Helper()
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return 0
}
