package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
)

// TestCheckPostgres runs `mcpdecl check` against a real PostgreSQL server.
func TestCheckPostgres(t *testing.T) {
	dsn := testenv.Postgres.Need(t)
	dir := t.TempDir()
	cfg := `
server {
  allow_env = ["CHECK_DSN"]
}
backend "sql" "pg" {
  driver = "postgres"
  dsn    = env("CHECK_DSN")
}
tool "good" {
  description = "A query PostgreSQL accepts."
  arg "n" {
    type = integer
  }
  sql "pg" {
    query = "SELECT generate_series(1, ${args.n}) AS i"
  }
}
tool "bad" {
  description = "A query on a table that does not exist."
  sql "pg" {
    query = "SELECT * FROM mcpdecl_no_such_table"
  }
}
`
	path := filepath.Join(dir, "pg.hcl")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CHECK_DSN", dsn)
	var out, errOut bytes.Buffer
	code := run([]string{"check", path}, &out, &errOut)
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, errOut.String())
	}
	got := errOut.String()
	for _, want := range []string{path + ":21:28: error: Query refused by the database [MCPD020]\n  in tool \"bad\":", "mcpdecl_no_such_table", "1 error, 0 warnings."} {
		if !strings.Contains(got, want) {
			t.Errorf("stderr lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, dsn) {
		t.Errorf("the DSN leaked into the output:\n%s", got)
	}
}
