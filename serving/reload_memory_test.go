package serving

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"
	"time"
	"weak"
)

// TestReloadLetsTheOldTableGo: once a reload has replaced the table and no
// call holds the old one, nothing keeps it: a server reloaded many times
// holds one table, not the first one as well (which doubled the memory of
// a big config for the life of the process).
func TestReloadLetsTheOldTableGo(t *testing.T) {
	config := filepath.Join(t.TempDir(), "config.hcl")
	writeFile(t, config, reloadConfigA)
	inst, err := Start(context.Background(), Options{Paths: []string{config}, HTTP: "127.0.0.1:0", DrainTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Stop()
	first := weak.Make(inst.srv.Table())
	for range 2 {
		if err := inst.Reload(); err != nil {
			t.Fatal(err)
		}
	}
	for range 5 { // finalizers of the old table's parts may need a second cycle
		runtime.GC()
		if first.Value() == nil {
			return
		}
	}
	t.Error("the first table is still reachable after two reloads")
}
