package sqladapter

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mcpdecl/mcpdecl/adapters/internal/checktest"
)

// compileSQL compiles src as a template, so positions are line:column in
// the SQL itself.
func compileSQL(t *testing.T, src string, d Dialect, readOnly bool) (*Query, hcl.Diagnostics) {
	t.Helper()
	expr, diags := hclsyntax.ParseTemplate([]byte(src), "q.sql", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parse: %s", diags.Error())
	}
	files := map[string]*hcl.File{"q.sql": {Bytes: []byte(src)}}
	return CompileQuery(expr, d, readOnly, files)
}

func TestCompileQuery(t *testing.T) {
	tests := []struct {
		name     string
		dialect  Dialect
		write    bool // compile as a read-write call
		sql      string
		want     string // compiled text, when there are no errors
		params   int
		wantDiag []string
	}{
		{
			name:    "sqlite placeholders",
			dialect: SQLite,
			sql:     "SELECT * FROM orders WHERE status = ${args.status} AND n > ${args.n}",
			want:    "SELECT * FROM orders WHERE status = ? AND n > ?",
			params:  2,
		},
		{
			name:    "postgres placeholders",
			dialect: Postgres,
			sql:     "SELECT * FROM orders WHERE status = ${args.status} AND n > ${args.n}",
			want:    "SELECT * FROM orders WHERE status = $1 AND n > $2",
			params:  2,
		},
		{
			name:    "mysql placeholders",
			dialect: MySQL,
			sql:     "SELECT * FROM orders WHERE status = ${args.status} LIMIT ${args.n}",
			want:    "SELECT * FROM orders WHERE status = ? LIMIT ?",
			params:  2,
		},
		{
			name:    "injection-looking literal stays literal",
			dialect: SQLite,
			sql:     "SELECT * FROM t WHERE name = 'x'' OR 1=1 -- ; DROP TABLE t' AND id = ${args.n}",
			want:    "SELECT * FROM t WHERE name = 'x'' OR 1=1 -- ; DROP TABLE t' AND id = ?",
			params:  1,
		},
		{
			name:    "comments, parentheses and casts",
			dialect: Postgres,
			sql:     "/* a /* nested */ comment */ -- hi\n(SELECT ${args.n}::int AS n, 'a' || ${args.query} || '%' FROM t)",
			want:    "/* a /* nested */ comment */ -- hi\n(SELECT $1::int AS n, 'a' || $2 || '%' FROM t)",
			params:  2,
		},
		{
			name:    "postgres dollar quotes and jsonb question mark",
			dialect: Postgres,
			sql:     "SELECT $q$it's ? $1$q$, doc ? 'k', x FROM t WHERE a IS DISTINCT FROM ${args.n} AND extract(year FROM ${args.query}) > 1",
			want:    "SELECT $q$it's ? $1$q$, doc ? 'k', x FROM t WHERE a IS DISTINCT FROM $1 AND extract(year FROM $2) > 1",
			params:  2,
		},
		{
			name:    "mysql backslash escapes and hash comments",
			dialect: MySQL,
			sql:     "SELECT 'it\\'s', x FROM t # ${args.n}\nWHERE a = ${args.n}",
			wantDiag: []string{
				"1:30 Interpolation inside a SQL comment",
			},
		},
		{
			name:    "mysql backslash escape keeps the string open",
			dialect: MySQL,
			sql:     "SELECT 'it\\' ? -- ', \"a\"\"b\" FROM t WHERE a = ${args.n}",
			want:    "SELECT 'it\\' ? -- ', \"a\"\"b\" FROM t WHERE a = ?",
			params:  1,
		},
		{
			name:    "trailing semicolon is fine",
			dialect: SQLite,
			sql:     "SELECT 1;  ",
			want:    "SELECT 1;  ",
		},
		{
			name:    "string literal and quoted identifiers",
			dialect: SQLite,
			sql:     "SELECT \"${args.query}\", `${args.query}`, [${args.query}] FROM t WHERE name = '${args.query}%'",
			wantDiag: []string{
				"1:11 Interpolation inside a quoted identifier",
				"1:28 Interpolation inside a quoted identifier",
				"1:45 Interpolation inside a quoted identifier",
				"1:81 Interpolation inside a SQL string",
			},
		},
		{
			name:    "identifier positions",
			dialect: Postgres,
			sql:     "SELECT col_${args.query}, t.${args.query} FROM ${args.query} JOIN ${args.query} ON 1=1 ORDER BY ${args.query}",
			wantDiag: []string{
				"1:14 Interpolation in identifier position",
				"1:31 Interpolation in identifier position",
				"1:50 Interpolation in identifier position",
				"1:69 Interpolation in identifier position",
				"1:99 Interpolation in identifier position",
			},
		},
		{
			name:    "write statements in read-only calls",
			dialect: SQLite,
			sql:     "-- c\n DELETE FROM orders WHERE id = ${args.n}",
			wantDiag: []string{
				"2:2 Write statement in read-only call",
			},
		},
		{
			name:    "with followed by a write",
			dialect: Postgres,
			sql:     "WITH x AS (SELECT 1) UPDATE orders SET n = ${args.n}",
			wantDiag: []string{
				"1:22 Write statement in read-only call",
			},
		},
		{
			name:    "writes are fine when read-write",
			dialect: Postgres,
			write:   true,
			sql:     "UPDATE orders SET status = ${args.status} WHERE id = ${args.n} RETURNING id",
			want:    "UPDATE orders SET status = $1 WHERE id = $2 RETURNING id",
			params:  2,
		},
		{
			name:    "multiple statements",
			dialect: MySQL,
			write:   true,
			sql:     "DELETE FROM a WHERE id = ${args.n}; DELETE FROM b",
			wantDiag: []string{
				"1:35 Multiple SQL statements",
			},
		},
		{
			name:    "hand-written placeholders",
			dialect: SQLite,
			sql:     "SELECT * FROM t WHERE a = ? AND b = :b AND c = @c",
			wantDiag: []string{
				"1:27 Placeholder in query text",
				"1:37 Placeholder in query text",
				"1:48 Placeholder in query text",
			},
		},
		{
			name:    "sqlite numbered placeholders",
			dialect: SQLite,
			sql:     "SELECT * FROM t WHERE a = $1 AND b = ?2 AND c = :3 AND d = @4 AND e$f = 1 AND g = '$1'",
			wantDiag: []string{
				"1:27 Placeholder in query text",
				"1:38 Placeholder in query text",
				"1:49 Placeholder in query text",
				"1:60 Placeholder in query text",
			},
		},
		{
			name:    "mysql placeholder",
			dialect: MySQL,
			sql:     "SELECT * FROM t WHERE a = ? AND b = '?' AND c = @v",
			wantDiag: []string{
				"1:27 Placeholder in query text",
			},
		},
		{
			name:    "postgres positional placeholder",
			dialect: Postgres,
			sql:     "SELECT * FROM t WHERE a = $1",
			wantDiag: []string{
				"1:27 Placeholder in query text",
			},
		},
		{
			name:    "unterminated string and comment",
			dialect: SQLite,
			sql:     "SELECT 'abc /* x",
			wantDiag: []string{
				"1:8 Unterminated SQL string",
			},
		},
		{
			name:    "empty query",
			dialect: SQLite,
			sql:     " -- nothing\n",
			wantDiag: []string{
				"1:1 Empty SQL query",
			},
		},
		{
			name:    "directive",
			dialect: SQLite,
			sql:     "SELECT * FROM t %{ if args.flag }WHERE a = 1%{ endif }",
			wantDiag: []string{
				"1:17 Template directive not allowed",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, diags := compileSQL(t, tt.sql, tt.dialect, !tt.write)
			if diff := cmp.Diff(tt.wantDiag, checktest.Format(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
				for _, d := range diags {
					t.Logf("%s", d.Error())
				}
			}
			if len(tt.wantDiag) > 0 {
				if q != nil {
					t.Errorf("got a query despite errors: %q", q.Text)
				}
				return
			}
			if q == nil {
				t.Fatalf("no query")
			}
			if q.Text != tt.want {
				t.Errorf("text:\n got %q\nwant %q", q.Text, tt.want)
			}
			if len(q.Params) != tt.params {
				t.Errorf("params = %d, want %d", len(q.Params), tt.params)
			}
		})
	}
}

func TestRedactDSN(t *testing.T) {
	tests := []struct {
		d        Dialect
		dsn, out string
	}{
		{Postgres, "postgres://app:s3cret@db:5432/orders?sslmode=disable", "postgres://app:xxxxx@db:5432/orders?sslmode=disable"},
		{Postgres, "postgres://db/orders?password=s3cret&user=app", "postgres://db/orders?password=xxxxx&user=app"},
		{Postgres, "host=db user=app password='s3 cret' dbname=orders", "host=db user=app password=xxxxx dbname=orders"},
		{MySQL, "app:s3cret@tcp(db:3306)/orders?parseTime=true", "app:xxxxx@tcp(db:3306)/orders?parseTime=true"},
		{SQLite, "file:orders.db?mode=ro", "file:orders.db?mode=ro"},
	}
	for _, tt := range tests {
		if got := RedactDSN(tt.d, tt.dsn); got != tt.out {
			t.Errorf("RedactDSN(%q) = %q, want %q", tt.dsn, got, tt.out)
		}
	}
}

// TestStringHintPerDialect checks that the advice for an interpolation
// inside quotes builds the string in SQL the dialect understands: on
// MySQL and MariaDB, || means OR.
func TestStringHintPerDialect(t *testing.T) {
	for _, tt := range []struct {
		dialect   Dialect
		want, not string
	}{
		{MySQL, "name LIKE CONCAT('%', ${args.q}, '%')", "||"},
		{Postgres, "name LIKE '%' || ${args.q} || '%'", "CONCAT"},
		{SQLite, "name LIKE '%' || ${args.q} || '%'", "CONCAT"},
	} {
		_, diags := compileSQL(t, "SELECT * FROM t WHERE name LIKE '%${args.q}%'", tt.dialect, true)
		if len(diags) != 1 || diags[0].Summary != "Interpolation inside a SQL string" {
			t.Fatalf("%s: diagnostics %v", tt.dialect, diags)
		}
		if d := diags[0].Detail; !strings.Contains(d, tt.want) || strings.Contains(d, tt.not) {
			t.Errorf("%s: detail %q, want %q and no %q", tt.dialect, d, tt.want, tt.not)
		}
	}
}
