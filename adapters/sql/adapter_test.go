package sqladapter

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpdecl/mcpdecl/adapters/internal/checktest"
)

func TestDiagnostics(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{
			name: "valid",
			src: `
backend "sql" "orders" {
  driver    = "sqlite"
  dsn       = "file:orders.db"
  read_only = true
}
sql "orders" {
  query    = "SELECT customer, count(*) AS n FROM orders WHERE status = ${args.status} GROUP BY customer"
  max_rows = 100
}`,
		},
		{
			name: "backend mistakes",
			src: `
backend "sql" "a" {
  driver            = "postgresql"
  dsn               = ""
  max_open_conns    = 0
  conn_max_lifetime = "1 hour"
  statement_timeout = "0s"
  max_rows          = 1.5
  pool              = 3
}
backend "sql" "b" {
  driver = "mariadb"
}`,
			want: []string{
				"9:3 Unsupported argument",
				"3:23 Unknown SQL driver",
				"4:23 Empty DSN",
				"5:23 Invalid number",
				"6:23 Invalid duration",
				"7:23 Invalid duration",
				"8:23 Invalid number",
				"11:19 Missing required argument",
			},
		},
		{
			name: "dsn from the environment",
			src: `
backend "sql" "a" {
  driver = "postgres"
  dsn    = env("TOKEN")
}`,
		},
		{
			name: "call mistakes",
			src: `
backend "sql" "ro" {
  driver = "postgres"
  dsn    = "postgres://db/orders"
}
sql "ro" {
  query     = "DELETE FROM orders WHERE id = ${args.n}"
  read_only = false
}
sql "ro" {
  query    = "SELECT * FROM orders WHERE id IN (${args.tags}) AND x = ${args.nope}"
  max_rows = 0
}
sql "ro" {
  query = args.query
}
sql "ro" {
  querry = "SELECT 1"
}`,
			want: []string{
				// Only the conflict: the statement matches what the call asks.
				"8:15 Write call on read-only backend",
				"12:14 Invalid number",
				"11:51 Invalid SQL parameter",
				"11:73 Reference to undeclared argument",
				"15:11 Query is not a string template",
				"17:10 Missing required argument",
				"18:3 Unsupported argument",
			},
		},
		{
			name: "read-write backend, read-only call",
			src: `
backend "sql" "rw" {
  driver    = "mysql"
  dsn       = "app:pw@tcp(db)/orders"
  read_only = false
}
sql "rw" {
  query = "UPDATE orders SET status = ${args.status} WHERE id = ${args.n}"
}
sql "rw" {
  read_only = true
  query     = "UPDATE orders SET status = ${args.status}"
}`,
			want: []string{
				"12:16 Write statement in read-only call",
			},
		},
		{
			// || is OR on MySQL and MariaDB: a warning where it is an
			// operator, none inside strings and comments, and none for
			// the other dialects.
			name: "|| on MySQL",
			src: `
backend "sql" "my" {
  driver = "mysql"
  dsn    = "app:pw@tcp(db)/orders"
}
backend "sql" "pg" {
  driver = "postgres"
  dsn    = "postgres://db/orders"
}
sql "my" {
  query = "SELECT * FROM customers WHERE name LIKE '%' || ${args.query} || '%'"
}
sql "my" {
  query = "SELECT '||' AS s, \"a||b\" AS t FROM customers /* a || b */ WHERE id = ${args.n} -- x || y"
}
sql "my" {
  query = "SELECT * FROM customers WHERE name LIKE CONCAT('%', ${args.query}, '%')"
}
sql "pg" {
  query = "SELECT * FROM customers WHERE name LIKE '%' || ${args.query} || '%'"
}`,
			want: []string{
				"warning: 11:56 || means OR on MySQL",
				"warning: 11:73 || means OR on MySQL",
			},
		},
		{
			name: "static query from a variable",
			src: `
backend "sql" "a" {
  driver = "sqlite"
  dsn    = "x.db"
}
sql "a" {
  query = "${var.region}"
}`,
			want: []string{"7:11 Invalid SQL statement"},
		},
		{
			// The heredoc's indentation is stripped from the SQL; the
			// position is still the one in the file.
			name: "position in an indented heredoc",
			src: `
backend "sql" "a" {
  driver = "sqlite"
  dsn    = "x.db"
}
sql "a" {
  query = <<-SQL
    SELECT *
    FROM orders WHERE id IN (DELETE FROM orders RETURNING id)
      AND id = ${args.n}
  SQL
}`,
			want: []string{"9:30 Write statement in read-only call"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := checktest.Compile(t, New(), tt.src)
			if diff := cmp.Diff(tt.want, checktest.Format(got.Diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
				for _, d := range got.Diags {
					t.Logf("%s", d.Error())
				}
			}
		})
	}
}

func TestCompiled(t *testing.T) {
	for _, tt := range []struct {
		driver, text, dsn, redacted string
	}{
		{"sqlite", "SELECT * FROM orders WHERE status = ? AND n > ?", "postgres://app:s3cret@db/orders", "postgres://app:xxxxx@db/orders"},
		{"postgres", "SELECT * FROM orders WHERE status = $1 AND n > $2", "postgres://app:s3cret@db/orders", "postgres://app:xxxxx@db/orders"},
		{"mariadb", "SELECT * FROM orders WHERE status = ? AND n > ?", "app:s3cret@tcp(db)/orders", "app:xxxxx@tcp(db)/orders"},
	} {
		t.Run(tt.driver, func(t *testing.T) {
			got := checktest.Compile(t, New(), `
backend "sql" "db" {
  driver            = "`+tt.driver+`"
  dsn               = "`+tt.dsn+`"
  conn_max_lifetime = "5m"
}
sql "db" {
  query    = "SELECT * FROM orders WHERE status = ${args.status} AND n > ${args.n}"
  max_rows = 10
}`)
			if len(got.Diags) > 0 {
				t.Fatalf("unexpected diagnostics: %s", got.Diags.Error())
			}
			b := got.Backends["db"].(*Backend)
			wantDriver := tt.driver
			if wantDriver == "mariadb" {
				wantDriver = "mysql"
			}
			wantBackend := map[string]any{
				"kind": "sql", "name": "db", "driver": wantDriver,
				"dsn":       tt.redacted,
				"read_only": true, "max_open_conns": 10, "conn_max_lifetime": "5m0s",
				"statement_timeout": "30s", "max_rows": 1000,
			}
			if diff := cmp.Diff(wantBackend, b.Describe()); diff != "" {
				t.Errorf("backend Describe (-want +got):\n%s", diff)
			}
			a := got.Actions[0].(*Action)
			wantAction := map[string]any{
				"kind": "sql", "backend": "db", "max_rows": 10, "read_only": true,
				"query": tt.text, "params": 2,
			}
			if diff := cmp.Diff(wantAction, a.Describe()); diff != "" {
				t.Errorf("action Describe (-want +got):\n%s", diff)
			}
			if a.Query.Verb != "SELECT" {
				t.Errorf("verb = %q", a.Query.Verb)
			}
		})
	}
}
