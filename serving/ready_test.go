package serving

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
)

// readyBackends are an SQLite database, an HTTP API and commands: only
// the database can be checked.
const readyBackends = `
backend "sql" "orders" {
  driver   = "sqlite"
  dsn      = "file:orders.db"
  init_sql = "orders.sql"
}
backend "http" "api" {
  base_url = "http://127.0.0.1:1"
}
backend "shell" "local" {}
`

func writeReadyConfig(t *testing.T, extra string) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "orders.sql"), "CREATE TABLE orders (id INTEGER PRIMARY KEY);\n")
	config := filepath.Join(dir, "ready.hcl")
	writeFile(t, config, readyBackends+extra)
	return config
}

// countingPinger counts the pings of a real backend.
type countingPinger struct {
	adapter.Backend
	real  adapter.Pinger
	pings atomic.Int32
}

func (c *countingPinger) Ping(ctx context.Context) error {
	c.pings.Add(1)
	return c.real.Ping(ctx)
}

// TestReadinessKeepsItsAnswer: a burst of probes pings the database once;
// a probe after the answer is a second old pings it again.
func TestReadinessKeepsItsAnswer(t *testing.T) {
	cfg, diags := lang.Load(writeReadyConfig(t, ""))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	table, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	srv, err := server.Open(context.Background(), table, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	counted := &countingPinger{Backend: table.Backends["orders"], real: table.Backends["orders"].(adapter.Pinger)}
	table.Backends["orders"] = counted
	r := &readiness{}
	r.srv.Store(srv)
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if rep := r.report(context.Background()); rep.Status != "ready" {
				t.Errorf("report: %+v", rep)
			}
		})
	}
	wg.Wait()
	if n := counted.pings.Load(); n != 1 {
		t.Errorf("20 probes at once pinged %d times, want 1", n)
	}
	r.mu.Lock()
	r.lastAt = r.lastAt.Add(-readyCacheFor)
	r.mu.Unlock()
	r.report(context.Background())
	if n := counted.pings.Load(); n != 2 {
		t.Errorf("a probe after the answer expired: %d pings in all, want 2", n)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
