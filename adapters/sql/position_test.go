package sqladapter

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/hashicorp/hcl/v2"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/mcpdecl/mcpdecl/adapters/internal/checktest"
)

func TestSourcePos(t *testing.T) {
	r := hcl.Range{Filename: "f", Start: hcl.Pos{Line: 3, Column: 5, Byte: 40}, End: hcl.Pos{Line: 6, Column: 1, Byte: 99}}
	tests := []struct {
		name, lit, src string
		off, n         int
		want           string // "line:col-line:col"
	}{
		{name: "exact", lit: "SELECT a,\n  bad FROM t", src: "SELECT a,\n  bad FROM t", off: 12, n: 3, want: "4:3-4:6"},
		{name: "heredoc indentation", lit: "SELECT a,\n  bad FROM t", src: "SELECT a,\n      bad FROM t", off: 12, n: 3, want: "4:7-4:10"},
		{name: "first line", lit: "SELECT a,\nb", src: "SELECT a,\n    b", off: 7, n: 1, want: "3:12-3:13"},
		{name: "escape on the line: the whole line", lit: "a\nx ${y} bad\n", src: "a\n  x $${y} bad\n", off: 9, n: 3, want: "4:1-4:14"},
		{name: "escaped newline: the whole literal", lit: "a\nbad", src: `a\nbad`, off: 2, n: 3, want: "3:5-6:1"},
		{name: "unknown source", lit: "a\nbad", off: 2, n: 3, want: "3:5-6:1"},
		{name: "no newline in the span", lit: "ab\ncd", src: "ab\ncd", off: 1, n: 4, want: "3:6-3:7"},
		{name: "multibyte", lit: "é bad", src: "é bad", off: 3, n: 3, want: "3:7-3:10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sourcePos(r, tt.lit, tt.src, tt.off, tt.n)
			s := fmt.Sprintf("%d:%d-%d:%d", got.Start.Line, got.Start.Column, got.End.Line, got.End.Column)
			if s != tt.want {
				t.Errorf("got %s, want %s", s, tt.want)
			}
		})
	}
}

func TestErrorOffset(t *testing.T) {
	text := "SELECT id,\n  custmer\nFROM orders\nWHERE status = ?\nORDR BY id"
	tests := []struct {
		name string
		err  error
		want int // -1 for none
	}{
		{"postgres position", &pgconn.PgError{Message: `column "custmer" does not exist`, Position: 14}, 13},
		{"postgres position after a multibyte character", &pgconn.PgError{Position: 3}, -2},
		{"postgres without a position", &pgconn.PgError{Message: "x"}, -1},
		{"mysql syntax", &mysql.MySQLError{Number: 1064, Message: "You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use near 'ORDR BY id' at line 5"}, strings.Index(text, "ORDR")},
		{"mysql syntax at the end", &mysql.MySQLError{Number: 1064, Message: "... near '' at line 5"}, len(text)},
		{"mysql unknown column", &mysql.MySQLError{Number: 1054, Message: "Unknown column 'custmer' in 'field list'"}, 13},
		{"mysql unknown table", &mysql.MySQLError{Number: 1146, Message: "Table 'shop.orders' doesn't exist"}, strings.Index(text, "orders")},
		{"sqlite no such column", errors.New("SQL logic error: no such column: custmer (1)"), 13},
		{"sqlite near", errors.New(`SQL logic error: near "ORDR": syntax error (1)`), strings.Index(text, "ORDR")},
		{"name found twice", errors.New("no such column: id (1)"), -1},
		{"name inside another word only", errors.New("no such table: order (1)"), -1},
		{"nothing to go by", errors.New("disk I/O error"), -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := text
			if tt.want == -2 {
				in, tt.want = "éa b", 3 // the third character starts at byte 3
			}
			got, ok := errorOffset(tt.err, in)
			if !ok {
				got = -1
			}
			if got != tt.want {
				t.Errorf("errorOffset = %d (%v), want %d", got, ok, tt.want)
			}
		})
	}
}

// TestCheckPointsAtError prepares queries the database refuses (heredocs
// and a one-line string) and expects the diagnostic at the word it names,
// not at the whole query.
func TestCheckPointsAtError(t *testing.T) {
	for _, name := range testDBs {
		t.Run(name, func(t *testing.T) {
			db := openTestDB(t, name)
			table := uniqueTable()
			if _, err := db.admin.Exec("CREATE TABLE " + table + " (id INTEGER, name VARCHAR(20))"); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.admin.Exec("DROP TABLE " + table) })
			src := fmt.Sprintf(`
backend "sql" "db" {
  driver = %q
  dsn    = %q
}
sql "db" {
  query = <<-SQL
    SELECT id,
           custmer
    FROM %[3]s
    WHERE name = ${args.query}
  SQL
}
sql "db" {
  query = <<-SQL
    SELECT id FROM %[3]s WHERE name = ${args.query}
      AND id = ${args.n}
    ORDR BY id
  SQL
}
sql "db" {
  query = "SELECT custmer FROM %[3]s"
}`, db.driver, db.dsn, table)
			got := checktest.Compile(t, New(), src)
			if len(got.Diags) > 0 {
				t.Fatal(got.Diags.Error())
			}
			open(t, got.Backends["db"].(*Backend))
			// A one-line query too: at the word, inside the string.
			want := []string{"9:12-9:19", "18:5-18:9", "22:19-22:26"}
			for i, act := range got.Actions {
				diags := act.(*Action).Check(context.Background())
				if len(diags) != 1 {
					t.Fatalf("query %d: diagnostics %v, want one", i+1, diags)
				}
				s := diags[0].Subject
				if at := fmt.Sprintf("%d:%d-%d:%d", s.Start.Line, s.Start.Column, s.End.Line, s.End.Column); at != want[i] {
					t.Errorf("query %d: at %s, want %s (%s)", i+1, at, want[i], diags[0].Detail)
				}
			}
		})
	}
}
