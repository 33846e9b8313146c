package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
	"github.com/mcpdecl/mcpdecl/serving"
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
	var rep serving.ReadyReport
	if err := json.Unmarshal([]byte(body), &rep); err != nil || status != http.StatusOK {
		t.Fatalf("/readyz?format=json: %d %q: %v", status, body, err)
	}
	if rep.Status != "ready" || len(rep.Backends) != 3 || rep.Backends[2] != (serving.ReadyCheck{Name: "orders", Kind: "sql", Status: "ok"}) ||
		rep.TaskStore == nil || rep.TaskStore.Kind != "memory" {
		t.Errorf("/readyz as JSON: %s", body)
	}
}

// TestReadyzUnreachable: the serve binary's PostgreSQL backend and Redis
// task store are reached through a relay; /readyz says ok for both, then,
// once each relay is cut, 503 with the backend (then the store)
// unreachable, the error without the DSN's password.
func TestReadyzUnreachable(t *testing.T) {
	// An unreachable database is tested on real PostgreSQL and Redis.
	pgDSN, redisURL := testenv.Postgres.Need(t), testenv.Redis.Need(t)
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
	var rep serving.ReadyReport
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
