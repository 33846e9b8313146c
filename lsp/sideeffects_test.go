package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sideEffects is a configuration whose backends would run a program,
// start an MCP server and create an SQLite database if anything opened
// them. Editors open configurations from anywhere (a cloned repository,
// a downloaded example), so the language server must only read them:
// check what `validate` checks, never what `serve` or `check` does.
const sideEffects = `server {
  name    = "effects"
  version = "1.0.0"
}

backend "mcp" "remote" {
  command = ["DIR/mark.sh", "mcp"]
}

backend "shell" "tools" {
  timeout = "10s"
}

backend "sql" "db" {
  driver   = "sqlite"
  dsn      = "file:created.db"
  init_sql = "init.sql"
}

tool "mark_the_folder" {
  description = "Run the marking program once, for the test."
  annotations {
    read_only = true
  }
  shell {
    backend = "tools"
    command = ["DIR/mark.sh", "shell"]
  }
}

tool "ask_remote" {
  description = "Ask the remote server for its echo of a word."
  annotations {
    read_only = true
  }
  mcp "remote" {
    tool      = "echo"
    arguments = { message = "hi" }
  }
}

tool "count_rows" {
  description = "Count the rows of the table, for the test."
  annotations {
    read_only = true
  }
  sql "db" {
    query = "select count(*) as n from t"
  }
}
`

// The server checks, outlines, completes and formats a configuration
// without running its programs, starting its MCP servers or creating its
// database: after every request, the folder holds what it held.
func TestOpeningAConfigurationRunsNothing(t *testing.T) {
	dir := folder(t, map[string]string{
		"init.sql": "create table t (x integer);\n",
		"mark.sh":  "#!/bin/sh\necho \"$1\" >> \"$(dirname \"$0\")/ran\"\n",
	})
	if err := os.Chmod(filepath.Join(dir, "mark.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	src := strings.ReplaceAll(sideEffects, "DIR", dir)
	if err := os.WriteFile(filepath.Join(dir, "effects.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newServer()
	s.Index = NewNameIndex()
	c := startClient(t, s)
	c.initialize()
	uri := c.open(filepath.Join(dir, "effects.hcl"), src)
	diags := c.diagnosticsFor(uri, func([]Diagnostic) bool { return true })
	if len(diags) != 0 {
		t.Errorf("the configuration should be clean: %+v", diags)
	}
	pos := at(t, sideEffects, `"DIR/mark.sh", "shell"`, 1)
	for _, method := range []string{"textDocument/hover", "textDocument/completion", "textDocument/definition"} {
		var out any
		c.call(method, map[string]any{"textDocument": map[string]string{"uri": uri}, "position": pos}, &out)
	}
	var symbols, edits any
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]string{"uri": uri}}, &symbols)
	c.call("textDocument/formatting", map[string]any{"textDocument": map[string]string{"uri": uri}, "options": map[string]any{"tabSize": 2, "insertSpaces": true}}, &edits)
	if err := c.shutdown(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ran", "created.db"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s exists: the language server ran or opened a backend", name)
		}
	}
}
