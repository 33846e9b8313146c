package e2e

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
)

// pointRead is the SQLite point-read setup: a served tool and the same
// query prepared on a plain database/sql handle.
type pointRead struct {
	srv    *server.Server
	stmt   *sql.Stmt
	req    *mcp.Request
	params *mcp.CallToolParams
}

func newPointRead(tb testing.TB) *pointRead {
	dir := tb.TempDir()
	db := filepath.Join(dir, "points.db")
	if err := os.WriteFile(filepath.Join(dir, "init.sql"), []byte(
		"CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price NUMERIC NOT NULL);"+
			"INSERT INTO items VALUES (1, 'one', 1.5), (2, 'two', 2.5), (3, 'three', 3.5);"), 0o644); err != nil {
		tb.Fatal(err)
	}
	cfgPath := filepath.Join(dir, "points.hcl")
	if err := os.WriteFile(cfgPath, []byte(`
backend "sql" "db" {
  driver   = "sqlite"
  dsn      = "file:points.db"
  init_sql = "init.sql"
}
tool "item" {
  description = "One item by id."
  arg "id" {
    type    = integer
    minimum = 1
  }
  sql "db" {
    query = "SELECT id, name, price FROM items WHERE id = ${args.id}"
  }
}
`), 0o644); err != nil {
		tb.Fatal(err)
	}
	cfg, diags := lang.Load(cfgPath)
	if diags.HasErrors() {
		tb.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{LookupEnv: os.LookupEnv})
	if diags.HasErrors() {
		tb.Fatal(diags)
	}
	srv, err := server.Open(context.Background(), tbl, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(srv.Close)
	plain, err := sql.Open("sqlite", "file:"+db+"?_pragma=query_only(1)")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { plain.Close() })
	stmt, err := plain.Prepare("SELECT id, name, price FROM items WHERE id = ?")
	if err != nil {
		tb.Fatal(err)
	}
	return &pointRead{
		srv:    srv,
		stmt:   stmt,
		req:    &mcp.Request{Method: "tools/call", Era: mcp.EraLegacy, Notifier: nopNotifier{}},
		params: &mcp.CallToolParams{Name: "item", Arguments: json.RawMessage(`{"id":2}`)},
	}
}

// plainRead is the point read through database/sql alone.
func (p *pointRead) plainRead() error {
	var id int64
	var name string
	var price float64
	return p.stmt.QueryRow(int64(2)).Scan(&id, &name, &price)
}

// toolRead is the same read as a tool call at the handler.
func (p *pointRead) toolRead() error {
	res, err := p.srv.CallTool(context.Background(), p.req, p.params)
	if err == nil && res.IsError {
		err = fmt.Errorf("error result: %+v", res)
	}
	return err
}

// TestSQLitePointReadBudget keeps the allocation goal in ordinary runs:
// a point-read tool call allocates at most 20 KB more than the plain read
// (time is read from the benchmark only).
func TestSQLitePointReadBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("measures allocations")
	}
	p := newPointRead(t)
	var failed error
	run := func(fn func() error) testing.BenchmarkResult {
		return testing.Benchmark(func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := fn(); err != nil {
					failed = err
				}
			}
		})
	}
	plain, tool := run(p.plainRead), run(p.toolRead)
	if failed != nil {
		t.Fatal(failed)
	}
	added := tool.AllocedBytesPerOp() - plain.AllocedBytesPerOp()
	t.Logf("database/sql: %d ns/op %d B/op; mcpdecl: %d ns/op %d B/op; added %d B",
		plain.NsPerOp(), plain.AllocedBytesPerOp(), tool.NsPerOp(), tool.AllocedBytesPerOp(), added)
	if added > 20<<10 {
		t.Errorf("a point-read tool call allocates %d B more than database/sql; the budget is 20 KB", added)
	}
}

// BenchmarkSQLitePointReadTool measures a SQLite point-read tool call in
// process against the same query through plain database/sql, in the same
// run: once at the handler (server.CallTool: argument validation, binding,
// the query, result mapping) and once through the whole HTTP stack (the
// JSON-RPC request parsed and the response written too). Goal: mcpdecl
// adds at most 25 µs and 20 KB per call. Each mcpdecl line reports
// added-ns/op and added-B/op over database-sql.
//
//	go test ./testkit/e2e/ -run '^$' -bench SQLitePointRead -benchmem
func BenchmarkSQLitePointReadTool(b *testing.B) {
	p := newPointRead(b)
	var base baseline
	b.Run("database-sql", func(b *testing.B) {
		base.ns, base.cpu, base.bytes = measure(b, func() {
			if err := p.plainRead(); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("mcpdecl", func(b *testing.B) {
		base.reportAdded(b)(measure(b, func() {
			if err := p.toolRead(); err != nil {
				b.Fatal(err)
			}
		}))
	})
	call, w := httpCaller(b, p.srv, itemCall, "item")
	b.Run("mcpdecl-http", func(b *testing.B) {
		base.reportAdded(b)(measure(b, call))
		if w.code != http.StatusOK || !strings.Contains(w.body.String(), `"name":"two"`) {
			b.Fatalf("tools/call item: %d %s", w.code, w.body.String())
		}
	})
}

const itemCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"item","arguments":{"id":2},` +
	`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`

type nopNotifier struct{}

func (nopNotifier) Progress(context.Context, float64, float64, string) error { return nil }
func (nopNotifier) Log(context.Context, string, string, any) error           { return nil }
func (nopNotifier) Request(context.Context, string, any) (json.RawMessage, error) {
	return nil, mcp.ErrNoBackChannel
}
