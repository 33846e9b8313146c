package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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

// TestReadyzBreakdown: the serve binary with an SQLite database, an HTTP
// API, commands and tasks in memory answers 200 with one line per
// backend, and the same as JSON.
func TestReadyzBreakdown(t *testing.T) {
	bin := buildBinary(t)
	base := startServe(t, bin, writeReadyConfig(t, ""))
	status, body := get(t, base+"/readyz")
	want := "ready\n" +
		"backend api http not checked\n" +
		"backend local shell not checked\n" +
		"backend orders sql ok\n" +
		"task_store memory not checked\n"
	if status != http.StatusOK || body != want {
		t.Errorf("/readyz: %d\n%s\nwant 200\n%s", status, body, want)
	}
	status, body = get(t, base+"/readyz?format=json")
	var rep readyReport
	if err := json.Unmarshal([]byte(body), &rep); err != nil || status != http.StatusOK {
		t.Fatalf("/readyz?format=json: %d %q: %v", status, body, err)
	}
	if rep.Status != "ready" || len(rep.Backends) != 3 || rep.Backends[2] != (readyCheck{Name: "orders", Kind: "sql", Status: "ok"}) ||
		rep.TaskStore == nil || rep.TaskStore.Kind != "memory" {
		t.Errorf("/readyz as JSON: %s", body)
	}
}

// TestReadyzUnreachable: the serve binary's PostgreSQL backend and Redis
// task store are reached through a relay; /readyz says ok for both, then,
// once each relay is cut, 503 with the backend (then the store)
// unreachable, the error without the DSN's password.
func TestReadyzUnreachable(t *testing.T) {
	pgDSN, redisURL := os.Getenv("MCPDECL_TEST_POSTGRES_DSN"), os.Getenv("MCPDECL_TEST_REDIS_URL")
	if pgDSN == "" || redisURL == "" {
		t.Skip("MCPDECL_TEST_POSTGRES_DSN or MCPDECL_TEST_REDIS_URL is unset: an unreachable database is tested on real PostgreSQL and Redis (.ci/run sets both)")
	}
	const password = "pw-Readyz-9c1e"
	pg, rd := startRelay(t, hostOf(t, pgDSN)), startRelay(t, hostOf(t, redisURL))
	u, _ := url.Parse(pgDSN)
	u.Host, u.User = pg.addr(), url.UserPassword(u.User.Username(), password)
	config := writeReadyConfig(t, `
backend "sql" "db" {
  driver = "postgres"
  dsn    = "`+u.String()+`"
}
`)
	r, _ := url.Parse(redisURL)
	r.Host = rd.addr()
	bin := buildBinary(t)
	base := startServe(t, bin, config, "--task-store", r.String())

	status, body := get(t, base+"/readyz")
	if status != http.StatusOK || !strings.Contains(body, "backend db sql ok\n") || !strings.Contains(body, "task_store redis ok\n") {
		t.Fatalf("/readyz with both reachable: %d\n%s", status, body)
	}
	pg.cut()
	body = waitReadyz(t, base, "backend db sql unreachable: ")
	if strings.Contains(body, password) {
		t.Errorf("/readyz shows the DSN's password:\n%s", body)
	}
	if !strings.Contains(body, "backend orders sql ok\n") || !strings.Contains(body, "task_store redis ok\n") {
		t.Errorf("/readyz: the other checks changed:\n%s", body)
	}
	rd.cut()
	body = waitReadyz(t, base, "task_store redis unreachable: ")
	t.Logf("/readyz with both cut:\n%s", body)
	if strings.Contains(body, password) {
		t.Errorf("/readyz shows the DSN's password:\n%s", body)
	}
	status, body = get(t, base+"/readyz?format=json")
	var rep readyReport
	if err := json.Unmarshal([]byte(body), &rep); err != nil || status != http.StatusServiceUnavailable || rep.Status != "not ready" {
		t.Errorf("/readyz?format=json: %d %s (%v)", status, body, err)
	}
}

// startServe runs `serve --http` on config with flags and returns its
// base URL.
func startServe(t *testing.T, bin, config string, flags ...string) string {
	t.Helper()
	args := append([]string{"serve", "--http", "127.0.0.1:0"}, flags...)
	cmd := exec.Command(bin, append(args, config)...)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return waitListening(t, stderr)
}

// waitReadyz polls /readyz (its answer is kept a second) until it answers
// 503 with a line starting with line; it returns the body.
func waitReadyz(t *testing.T, base, line string) string {
	t.Helper()
	var status int
	var body string
	for range 300 {
		status, body = get(t, base+"/readyz")
		if status == http.StatusServiceUnavailable && strings.HasPrefix(body, "not ready\n") && strings.Contains(body, "\n"+line) {
			return body
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("/readyz never said %q: %d\n%s", line, status, body)
	return ""
}

func hostOf(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
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
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	srv, err := server.Open(context.Background(), tbl, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	counted := &countingPinger{Backend: tbl.Backends["orders"], real: tbl.Backends["orders"].(adapter.Pinger)}
	tbl.Backends["orders"] = counted
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
