package sqladapter

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/checktest"
)

// poolSize is the number of connections TestEverySessionKilled fills the
// pool with before the database ends them all.
const poolSize = 4

// killAllQueries hold each connection for a moment (args.limit seconds)
// and return its server-side id, so that concurrent calls fill the pool.
var killAllQueries = bySQL[string]{
	"postgres": "SELECT pg_backend_pid() AS id, pg_sleep(${args.limit}::float8)::text AS slept",
	"mariadb":  "SELECT CONNECTION_ID() AS id, SLEEP(${args.limit}) AS slept",
}

// TestEverySessionKilled fills the pool with idle connections and has the
// database end every one of them, as pg_terminate_backend or KILL
// CONNECTION of all of mcpdecl's sessions does. Every read call after it
// succeeds, on a new connection; a write is never run twice.
func TestEverySessionKilled(t *testing.T) {
	for _, name := range []string{"postgres", "mariadb"} {
		t.Run(name, func(t *testing.T) {
			db := openTestDB(t, name)
			table := uniqueTable()
			create := map[string]string{
				"postgres": "CREATE TABLE %s (id serial PRIMARY KEY, v int)",
				"mariadb":  "CREATE TABLE %s (id int AUTO_INCREMENT PRIMARY KEY, v int)",
			}[name]
			if _, err := db.admin.Exec(fmt.Sprintf(create, table)); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.admin.Exec("DROP TABLE IF EXISTS " + table) })
			src := fmt.Sprintf(`
backend "sql" "db" {
  driver = %q
  dsn = %q
  read_only = false
  max_open_conns = %d
}
sql "db" {
  query = %q
  read_only = true
}
sql "db" {
  query = "INSERT INTO %s (v) VALUES (${args.n})"
}`, db.driver, db.dsn, poolSize, killAllQueries.For(name), table)
			got := checktest.Compile(t, New(), src)
			if len(got.Diags) > 0 {
				t.Fatalf("compile: %s", got.Diags.Error())
			}
			b := got.Backends["db"].(*Backend)
			read, write := got.Actions[0].(*Action), got.Actions[1].(*Action)
			open(t, b)

			driverLog := &syncWriter{w: &bytes.Buffer{}}
			if name == "mariadb" {
				// The driver's notes go to the default slog logger, not to
				// standard error.
				prev := slog.Default()
				slog.SetDefault(slog.New(slog.NewTextHandler(driverLog, &slog.HandlerOptions{Level: slog.LevelDebug})))
				defer slog.SetDefault(prev)
			}
			ids := fillPool(t, read)
			killSessions(t, db, ids)
			for i := range 2 * poolSize {
				res, err := invoke(read, map[string]cty.Value{"limit": cty.NumberIntVal(0)})
				if err != nil {
					t.Fatalf("read call %d after every session was killed: %v", i+1, err)
				}
				if id := fmt.Sprint(res.Fields["rows"].([]map[string]any)[0]["id"]); ids[id] {
					t.Errorf("read call %d ran on the killed connection %s", i+1, id)
				}
			}

			if name == "mariadb" && !strings.Contains(driverLog.String(), "mysql driver: ") {
				t.Errorf("no driver message reached the slog logger; got %q", driverLog.String())
			}
			ids = fillPool(t, read)
			killSessions(t, db, ids)
			ran := 0
			for i := range 2 * poolSize {
				_, err := invoke(write, map[string]cty.Value{"n": cty.NumberIntVal(int64(i))})
				var ce *adapter.CallError
				switch {
				case err == nil:
					ran++
				case errors.As(err, &ce) && ce.Message == msgLost:
					t.Logf("write call %d: %s", i+1, ce.Message)
				default:
					t.Fatalf("write call %d: %v", i+1, err)
				}
			}
			var rows int
			if err := db.admin.QueryRow("SELECT count(*) FROM " + table).Scan(&rows); err != nil {
				t.Fatal(err)
			}
			if rows != ran {
				t.Errorf("%d write calls succeeded but the table has %d rows: a write ran twice, or ran and was reported lost", ran, rows)
			}
			if ran != 2*poolSize {
				t.Errorf("%d of %d write calls succeeded", ran, 2*poolSize)
			}
		})
	}
}

// fillPool runs poolSize calls at once, twice, so that the pool holds
// poolSize connections that were all just used (a driver may check a
// connection that was idle for long before it reuses it), and returns
// their ids.
func fillPool(t *testing.T, a *Action) map[string]bool {
	t.Helper()
	fillOnce(t, a)
	return fillOnce(t, a)
}

func fillOnce(t *testing.T, a *Action) map[string]bool {
	t.Helper()
	var (
		mu  sync.Mutex
		ids = map[string]bool{}
		wg  sync.WaitGroup
	)
	for range poolSize {
		wg.Go(func() {
			res, err := invoke(a, map[string]cty.Value{"limit": cty.NumberFloatVal(0.3)})
			if err != nil {
				t.Errorf("filling the pool: %v", err)
				return
			}
			mu.Lock()
			ids[fmt.Sprint(res.Fields["rows"].([]map[string]any)[0]["id"])] = true
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(ids) != poolSize {
		t.Fatalf("the pool holds %d connections (%v), want %d", len(ids), ids, poolSize)
	}
	return ids
}

// killSessions has the database end the sessions ids and waits until they
// are gone.
func killSessions(t *testing.T, db *testDB, ids map[string]bool) {
	t.Helper()
	var list []string
	for id := range ids {
		list = append(list, id)
		kill := "KILL CONNECTION " + id
		if db.name == "postgres" {
			kill = "SELECT pg_terminate_backend(" + id + ")"
		}
		if _, err := db.admin.Exec(kill); err != nil {
			t.Fatalf("%s: %v", kill, err)
		}
	}
	alive := "SELECT count(*) FROM information_schema.processlist WHERE id IN (%s)"
	if db.name == "postgres" {
		alive = "SELECT count(*) FROM pg_stat_activity WHERE pid IN (%s)"
	}
	for deadline := time.Now().Add(5 * time.Second); ; {
		var n int
		if err := db.admin.QueryRow(fmt.Sprintf(alive, strings.Join(list, ","))).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d killed sessions are still there", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// slowInserts write one row after half a second.
var slowInserts = bySQL[string]{
	"postgres": "INSERT INTO %s (v) SELECT ${args.n} FROM pg_sleep(0.5)",
	"mariadb":  "INSERT INTO %s (v) SELECT ${args.n} FROM (SELECT SLEEP(0.5)) AS s",
}

// TestWriteLostWhileRunning cuts the connection of a write while the
// database runs it: the statement may have taken effect, so it is not run
// again, and the model is told to check rather than to retry.
func TestWriteLostWhileRunning(t *testing.T) {
	for _, name := range []string{"postgres", "mariadb"} {
		t.Run(name, func(t *testing.T) {
			db := openTestDB(t, name)
			viaProxy, p := proxied(t, db)
			table := uniqueTable()
			create := map[string]string{
				"postgres": "CREATE TABLE %s (id serial PRIMARY KEY, v int)",
				"mariadb":  "CREATE TABLE %s (id int AUTO_INCREMENT PRIMARY KEY, v int)",
			}[name]
			if _, err := db.admin.Exec(fmt.Sprintf(create, table)); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.admin.Exec("DROP TABLE IF EXISTS " + table) })
			b, a := compileTestCall(t, viaProxy, "", fmt.Sprintf(slowInserts.For(name), table), "", true)
			open(t, b)
			time.AfterFunc(200*time.Millisecond, p.stop)
			_, err := invoke(a, map[string]cty.Value{"n": cty.NumberIntVal(1)})
			var ce *adapter.CallError
			if !errors.As(err, &ce) || ce.Message != msgLostWrite || ce.Retryable {
				t.Fatalf("err = %v (%T), want a CallError %q, not retryable", err, err, msgLostWrite)
			}
		})
	}
}

// syncWriter serialises writes to w.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func (s *syncWriter) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fmt.Sprint(s.w)
}
