package e2e

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
)

// BenchmarkSQLitePointReadTool measures a SQLite point-read tool call in
// process (server.CallTool: argument validation, binding, the query,
// result mapping) against the same query through plain database/sql, in
// the same run. Goal: mcpdecl adds at most 25 µs and 20 KB per call.
func BenchmarkSQLitePointReadTool(b *testing.B) {
	dir := b.TempDir()
	db := filepath.Join(dir, "points.db")
	if err := os.WriteFile(filepath.Join(dir, "init.sql"), []byte(
		"CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price NUMERIC NOT NULL);"+
			"INSERT INTO items VALUES (1, 'one', 1.5), (2, 'two', 2.5), (3, 'three', 3.5);"), 0o644); err != nil {
		b.Fatal(err)
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
		b.Fatal(err)
	}
	cfg, diags := lang.Load(cfgPath)
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	table, diags := dispatch.Compile(cfg, all.Registry(), dispatch.Options{LookupEnv: os.LookupEnv})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	for _, be := range table.Backends {
		if o, ok := be.(adapter.Opener); ok {
			if err := o.Open(context.Background()); err != nil {
				b.Fatal(err)
			}
		}
	}
	srv := server.New(table, nil)
	plain, err := sql.Open("sqlite", "file:"+db+"?_pragma=query_only(1)")
	if err != nil {
		b.Fatal(err)
	}
	defer plain.Close()
	stmt, err := plain.Prepare("SELECT id, name, price FROM items WHERE id = ?")
	if err != nil {
		b.Fatal(err)
	}
	req := &mcp.Request{Method: "tools/call", Era: mcp.EraLegacy, Notifier: nopNotifier{}}
	params := &mcp.CallToolParams{Name: "item", Arguments: json.RawMessage(`{"id":2}`)}
	b.Run("database-sql", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var id int64
			var name string
			var price float64
			if err := stmt.QueryRow(int64(2)).Scan(&id, &name, &price); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("mcpdecl", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			res, err := srv.CallTool(context.Background(), req, params)
			if err != nil || res.IsError {
				b.Fatalf("%+v %v", res, err)
			}
		}
	})
}

type nopNotifier struct{}

func (nopNotifier) Progress(context.Context, float64, float64, string) error { return nil }
func (nopNotifier) Log(context.Context, string, string, any) error           { return nil }
func (nopNotifier) Request(context.Context, string, any) (json.RawMessage, error) {
	return nil, mcp.ErrNoBackChannel
}
