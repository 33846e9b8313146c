package e2e

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
	"github.com/mcpdecl/mcpdecl/mcp"
)

// SQL backends served to a real client while the database misbehaves:
// every session of mcpdecl ended by the database at once, and statements
// the database refuses.
//
//	MCPDECL_TEST_POSTGRES_DSN=... MCPDECL_TEST_MYSQL_DSN=... go test ./testkit/e2e/ -run HostileSQL

// hostileSQLDB is one database server of the hostile SQL cases.
type hostileSQLDB struct {
	name, env, driver, sqlDriver string
	// who returns the session id after holding the connection args.wait
	// seconds.
	who, create, kill, alive string
}

var hostileSQLDBs = []hostileSQLDB{
	{
		name: "postgres", env: "MCPDECL_TEST_POSTGRES_DSN", driver: "postgres", sqlDriver: "pgx",
		who:    "SELECT pg_backend_pid() AS id, pg_sleep(${args.wait}::float8)::text AS slept",
		create: "CREATE TABLE %s (id serial PRIMARY KEY, name text NOT NULL UNIQUE)",
		kill:   "SELECT pg_terminate_backend(%s)",
		alive:  "SELECT count(*) FROM pg_stat_activity WHERE pid IN (%s)",
	},
	{
		name: "mariadb", env: "MCPDECL_TEST_MYSQL_DSN", driver: "mysql", sqlDriver: "mysql",
		who:    "SELECT CONNECTION_ID() AS id, SLEEP(${args.wait}) AS slept",
		create: "CREATE TABLE %s (id int AUTO_INCREMENT PRIMARY KEY, name varchar(100) NOT NULL UNIQUE)",
		kill:   "KILL CONNECTION %s",
		alive:  "SELECT count(*) FROM information_schema.processlist WHERE id IN (%s)",
	},
}

// TestHostileSQLSessionsKilled serves a backend whose pool holds four
// connections, has the database end all of them, and calls again: every
// read succeeds, and a unique violation names the duplicate value but
// never the database's address.
func TestHostileSQLSessionsKilled(t *testing.T) {
	for _, db := range hostileSQLDBs {
		t.Run(db.name, func(t *testing.T) {
			dsn := testenv.Need(t, db.env)
			admin, err := sql.Open(db.sqlDriver, dsn)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { admin.Close() })
			table := fmt.Sprintf("mcpdecl_hostile_%d", os.Getpid())
			if _, err := admin.Exec(fmt.Sprintf(db.create, table)); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { admin.Exec("DROP TABLE IF EXISTS " + table) })

			dir := t.TempDir()
			path := filepath.Join(dir, "hostile.hcl")
			cfg := fmt.Sprintf(`
server {
  allow_env = ["HOSTILE_DSN"]
}
backend "sql" "db" {
  driver         = %q
  dsn            = env("HOSTILE_DSN")
  read_only      = false
  max_open_conns = 4
}
tool "who" {
  description = "The session id, after a wait."
  arg "wait" {
    type = number
  }
  sql "db" {
    read_only = true
    query     = %q
  }
}
tool "add" {
  description = "Add a name."
  arg "name" {
    type = string
  }
  sql "db" {
    read_only = false
    query     = "INSERT INTO %s (name) VALUES (${args.name})"
  }
}
`, db.driver, db.who, table)
			if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
				t.Fatal(err)
			}
			s := sdkHTTP(mcp.Version20251125)(t, path, nil, map[string]string{"HOSTILE_DSN": dsn})
			ctx := testCtx(t)
			who := func(wait float64) string {
				t.Helper()
				res, err := s.c.callTool(ctx, "who", map[string]any{"wait": wait})
				if err != nil {
					t.Fatalf("who: %v", err)
				}
				if res.IsError {
					t.Errorf("who after the sessions were killed: %s", res.Text)
					return ""
				}
				return fmt.Sprint(res.Structured.(map[string]any)["rows"].([]any)[0].(map[string]any)["id"])
			}

			// Two rounds of four calls at once: four pooled connections,
			// each just used.
			var ids map[string]bool
			for range 2 {
				var mu sync.Mutex
				var wg sync.WaitGroup
				ids = map[string]bool{}
				for range 4 {
					wg.Go(func() {
						id := who(0.3)
						mu.Lock()
						ids[id] = true
						mu.Unlock()
					})
				}
				wg.Wait()
			}
			var list []string
			for id := range ids {
				list = append(list, id)
				if _, err := admin.Exec(fmt.Sprintf(db.kill, id)); err != nil {
					t.Fatal(err)
				}
			}
			for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				var n int
				if err := admin.QueryRow(fmt.Sprintf(db.alive, strings.Join(list, ","))).Scan(&n); err != nil {
					t.Fatal(err)
				}
				if n == 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%d killed sessions are still there", n)
				}
			}
			for range 8 {
				if id := who(0); ids[id] {
					t.Errorf("a call ran on the killed session %s", id)
				}
			}

			for i, want := range []bool{false, true} {
				res, err := s.c.callTool(ctx, "add", map[string]any{"name": "dup"})
				if err != nil {
					t.Fatalf("add %d: %v", i+1, err)
				}
				if res.IsError != want {
					t.Fatalf("add %d: isError %v, %s", i+1, res.IsError, res.Text)
				}
			}
			res, _ := s.c.callTool(ctx, "add", map[string]any{"name": "dup"})
			if !strings.Contains(res.Text, "dup") || !strings.Contains(res.Text, "already exists") {
				t.Errorf("the unique violation does not name the value: %q", res.Text)
			}
			for _, leak := range []string{"127.0.0.1", "5432", "3306", dsn} {
				if strings.Contains(res.Text, leak) {
					t.Errorf("the answer holds %q: %q", leak, res.Text)
				}
			}
		})
	}
}
