package sqladapter

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/internal/checktest"
)

// TestCheckOpenChangesNothing checks the queries of an SQLite backend as
// mcpdecl check does: an existing database file is read, never written
// (no journal either), and a missing one is not created, not even from
// init_sql, whose schema the queries are checked against all the same.
func TestCheckOpenChangesNothing(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "init.sql")
	if err := os.WriteFile(script, []byte("CREATE TABLE orders (id INTEGER PRIMARY KEY, status TEXT);\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	compile := func(dsn string, readOnly bool) (*Backend, []*Action) {
		t.Helper()
		src := fmt.Sprintf(`
backend "sql" "db" {
  driver    = "sqlite"
  dsn       = %q
  read_only = %v
  init_sql  = %q
}
sql "db" {
  query = "SELECT status FROM orders WHERE id = ${args.n}"
}
sql "db" {
  query = "SELECT nope FROM orders"
}`, dsn, readOnly, script)
		if !readOnly {
			src += `
sql "db" {
  read_only = false
  query     = "INSERT INTO orders (status) VALUES (${args.status})"
}`
		}
		got := checktest.Compile(t, New(), src)
		if len(got.Diags) > 0 {
			t.Fatal(got.Diags.Error())
		}
		var acts []*Action
		for _, a := range got.Actions {
			acts = append(acts, a.(*Action))
		}
		return got.Backends["db"].(*Backend), acts
	}
	checkAll := func(b *Backend, acts []*Action) (string, []string) {
		t.Helper()
		note, diags := b.CheckOpen(context.Background())
		if diags.HasErrors() {
			t.Fatalf("CheckOpen: %s", diags.Error())
		}
		defer b.Close()
		var problems []string
		for _, a := range acts {
			for _, d := range a.Check(context.Background()) {
				problems = append(problems, d.Detail)
			}
		}
		return note, problems
	}
	wantOneProblem := func(problems []string) {
		t.Helper()
		if len(problems) != 1 || !strings.Contains(problems[0], "no such column: nope") {
			t.Errorf("problems = %q, want the one misspelt column", problems)
		}
	}

	for _, readOnly := range []bool{true, false} {
		t.Run(fmt.Sprintf("missing file, read_only %v", readOnly), func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprintf("new-%v.db", readOnly))
			note, problems := checkAll(compile("file:"+path, readOnly))
			wantOneProblem(problems)
			if !strings.Contains(note, "does not exist yet; serve will create it from init_sql") {
				t.Errorf("note = %q", note)
			}
			if entries, _ := filepath.Glob(path + "*"); len(entries) > 0 {
				t.Errorf("check created %v", entries)
			}
		})
	}

	path := filepath.Join(dir, "orders.db")
	if err := EnsureSQLiteFile(path, script); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	entriesBefore, _ := os.ReadDir(dir)
	for _, readOnly := range []bool{true, false} {
		note, problems := checkAll(compile(path, readOnly))
		wantOneProblem(problems)
		if note != "" {
			t.Errorf("note for an existing file: %q", note)
		}
	}
	after, _ := os.ReadFile(path)
	entriesAfter, _ := os.ReadDir(dir)
	if !bytes.Equal(before, after) {
		t.Error("check changed the database file")
	}
	names := func(es []os.DirEntry) []string {
		var out []string
		for _, e := range es {
			out = append(out, e.Name())
		}
		return out
	}
	if !slices.Equal(names(entriesBefore), names(entriesAfter)) {
		t.Errorf("files before check %v, after %v", names(entriesBefore), names(entriesAfter))
	}
}
