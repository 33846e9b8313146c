package serving

import (
	"context"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/internal/largecfg"
)

// TestReloadPeakStaysAtTheFirstLoads: a reload compiles while the previous
// table serves, and its peak memory stays that of the first load plus the
// old table at most, instead of adding up the old table, the new one and
// the load's garbage
// (which took a 10,000-tool config from 700 MiB at start to 930 MiB at
// each SIGHUP).
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
	var inst *Instance
	first := peakMemory(func() {
		inst, err = Start(context.Background(), Options{Paths: []string{config}, HTTP: "127.0.0.1:0", DrainTimeout: 5 * time.Second})
	})
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Stop()
	// A reload holds the old table while the new one compiles, and no
	// more: its peak may pass the first load's by that table (live after
	// the first load), not by the load's garbage as well. The peaks
	// themselves vary by where the collector happens to run (up to a
	// fifth under the race detector), so nothing tighter holds.
	debug.FreeOSMemory() // as before the first load
	table := liveHeap()
	reload := peakMemory(func() { err = inst.Reload() })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("peak memory: first load %d MiB, reload %d MiB; live after the first load %d MiB", first>>20, reload>>20, table>>20)
	if reload > first+table {
		t.Errorf("the reload peaked at %d MiB, the first load at %d MiB: more than the table (%d MiB) above", reload>>20, first>>20, table>>20)
	}
}

// peakMemory runs f and returns the most memory the Go runtime held from
// the system meanwhile (mapped and not given back: the process's own part
// of its resident memory), read every millisecond. Not the kernel's
// high-water mark (VmHWM): under the race detector, which every test run
// of CI uses, that also counts the detector's shadow of each heap address
// ever touched, and a reload touches new ones while the old table lives.
func peakMemory(f func()) uint64 {
	samples := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	read := func() uint64 {
		metrics.Read(samples)
		return samples[0].Value.Uint64() - samples[1].Value.Uint64()
	}
	var peak atomic.Uint64
	note := func() {
		if m := read(); m > peak.Load() {
			peak.Store(m)
		}
	}
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			note()
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(done)
	<-stopped
	note()
	return peak.Load()
}
