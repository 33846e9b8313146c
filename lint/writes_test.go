package lint_test

import (
	"strings"
	"testing"

	sqladapter "github.com/mcpdecl/mcpdecl/adapters/sql"
	"github.com/mcpdecl/mcpdecl/lint"
)

// The sql adapter's actions tell lint whether their statement writes.
var _ interface{ Writes() bool } = (*sqladapter.Action)(nil)

const backends = `
backend "http" "shop" {
  base_url = "http://127.0.0.1:3100"
}
backend "sql" "db" {
  driver    = "sqlite"
  dsn       = ":memory:"
  read_only = false
}
`

// tool writes a described tool with one argument, the given annotations
// block (may be empty) and call.
func tool(name, annotations, call string) string {
	return `
tool "` + name + `" {
  description = "Do the thing this test needs done."
  ` + annotations + `
  arg "id" {
    description = "The item's id."
  }
  ` + call + `
}
`
}

func TestWriteWithoutHints(t *testing.T) {
	src := backends +
		tool("add_item", "", `http "shop" {
    method = "POST"
    path   = "/items/${args.id}"
  }`) +
		tool("delete_row", "", `sql "db" {
    query = "DELETE FROM items WHERE id = ${args.id}"
  }`) +
		tool("list_dir", "", `shell {
    command = ["ls", "--", args.id]
  }`) +
		tool("get_item", "", `http "shop" {
    path = "/items/${args.id}"
  }`) +
		tool("count_rows", "", `sql "db" {
    query = "SELECT count(*) FROM items WHERE id = ${args.id}"
  }`) +
		tool("put_item", "annotations {\n    idempotent = true\n  }", `http "shop" {
    method = "PUT"
    path   = "/items/${args.id}"
  }`)
	diags := wantFindings(t, src, lint.CodeWriteWithoutHints, "MCPD401 17:3", "MCPD401 29:3", "MCPD401 40:3")
	for _, want := range []string{`"add_item" writes (HTTP POST)`, `"delete_row" writes (SQL DELETE)`, `"list_dir" runs the command ls, which may change things`} {
		if !strings.Contains(describe(diags), want) {
			t.Errorf("no finding says %q:%s", want, describe(diags))
		}
	}
	// A writing step counts as well.
	wantFindings(t, backends+tool("add_then_get", "", `step "add" {
    http "shop" {
      method = "POST"
      path   = "/items/${args.id}"
    }
  }
  http "shop" {
    path = "/items/${args.id}"
  }`), lint.CodeWriteWithoutHints, "MCPD401 18:5")
	wantFindings(t, backends+tool("add_item", "lint {\n    ignore = [\"write-without-hints\"]\n  }", `http "shop" {
    method = "POST"
    path   = "/items/${args.id}"
  }`), lint.CodeWriteWithoutHints)
}

func TestReadOnlyWrites(t *testing.T) {
	ro := "annotations {\n    read_only = true\n  }"
	src := backends +
		tool("add_item", ro, `http "shop" {
    method = "POST"
    path   = "/items/${args.id}"
  }`) +
		tool("delete_row", ro, `sql "db" {
    query = "DELETE FROM items WHERE id = ${args.id}"
  }`) +
		tool("get_item", ro, `http "shop" {
    path = "/items/${args.id}"
  }`) +
		tool("list_dir", ro, `shell {
    command = ["ls", "--", args.id]
  }`)
	diags := wantFindings(t, src, lint.CodeReadOnlyWrites, "MCPD402 14:5", "MCPD402 28:5")
	if d := detailOf(t, diags, lint.CodeReadOnlyWrites); !strings.Contains(d, `its call http "shop" at main.hcl:19,3-14 writes (HTTP POST)`) {
		t.Errorf("detail %q", d)
	}
	// Neither finding asks for hints the tool cannot have.
	wantFindings(t, src, lint.CodeWriteWithoutHints)
	wantFindings(t, backends+tool("add_item", "annotations {\n    read_only = true\n  }\n  lint {\n    ignore = [\"MCPD402\"]\n  }", `http "shop" {
    method = "POST"
    path   = "/items/${args.id}"
  }`), lint.CodeReadOnlyWrites)
}

func TestWritableBackend(t *testing.T) {
	reads := `sql "db" {
    query = "SELECT name FROM items WHERE id = ${args.id}"
  }`
	src := backends + tool("get_name", "", reads) + tool("get_price", "", strings.Replace(reads, "name", "price", 1))
	diags := wantFindings(t, src, lint.CodeWritableBackend, "MCPD403 8:3")
	if d := detailOf(t, diags, lint.CodeWritableBackend); !strings.Contains(d, `but all 2 of its calls only read`) {
		t.Errorf("detail %q", d)
	}
	// One write keeps the backend writable.
	wantFindings(t, src+tool("rename", "annotations {\n    destructive = false\n  }", `sql "db" {
    query = "UPDATE items SET name = 'x' WHERE id = ${args.id}"
  }`), lint.CodeWritableBackend)
	// A read-only backend is what the rule asks for.
	wantFindings(t, strings.Replace(src, "read_only = false", "read_only = true", 1), lint.CodeWritableBackend)
	wantFindings(t, strings.Replace(src, "read_only = false", "read_only = false\n  lint {\n    ignore = [\"MCPD403\"]\n  }", 1), lint.CodeWritableBackend)
}
