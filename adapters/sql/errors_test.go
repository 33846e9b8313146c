package sqladapter

import (
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestCancelledOrTimedOut tells a statement the server's time limit
// stopped from one another session cancelled, by SQLSTATE 57014's message
// on Postgres and by the error number on MySQL and MariaDB.
func TestCancelledOrTimedOut(t *testing.T) {
	timeout := "The query took longer than 2s and was stopped; narrow it (filter on more columns, or ask for fewer rows)."
	tests := []struct {
		name  string
		msg   func() (string, bool)
		want  string
		retry bool
	}{
		{"postgres statement_timeout", func() (string, bool) {
			return postgresMessage(&pgconn.PgError{Code: "57014", Message: "canceling statement due to statement timeout"}, "2s")
		}, timeout, false},
		{"postgres pg_cancel_backend", func() (string, bool) {
			return postgresMessage(&pgconn.PgError{Code: "57014", Message: "canceling statement due to user request"}, "2s")
		}, msgKilled, true},
		{"mariadb max_statement_time", func() (string, bool) {
			return mysqlMessage(&mysql.MySQLError{Number: 1969, Message: "Query execution was interrupted (max_statement_time exceeded)"}, "2s")
		}, timeout, false},
		{"mysql max_execution_time", func() (string, bool) {
			return mysqlMessage(&mysql.MySQLError{Number: 3024, Message: "Query execution was interrupted, maximum statement execution time exceeded"}, "2s")
		}, timeout, false},
		{"KILL QUERY", func() (string, bool) {
			return mysqlMessage(&mysql.MySQLError{Number: 1317, Message: "Query execution was interrupted"}, "2s")
		}, msgKilled, true},
		{"sort aborted by KILL QUERY", func() (string, bool) {
			return mysqlMessage(&mysql.MySQLError{Number: 1028, Message: "Sort aborted: Query execution was interrupted"}, "2s")
		}, msgKilled, true},
		{"sort aborted by max_statement_time", func() (string, bool) {
			return mysqlMessage(&mysql.MySQLError{Number: 1028, Message: "Sort aborted: Query execution was interrupted (max_statement_time exceeded)"}, "2s")
		}, timeout, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg, retry := tt.msg()
			if msg != tt.want || retry != tt.retry {
				t.Errorf("got %q, %v; want %q, %v", msg, retry, tt.want, tt.retry)
			}
		})
	}
}

// TestLongValuesCut checks that a database message repeating a long value
// quotes it shortly, and leaves names and short values whole.
func TestLongValuesCut(t *testing.T) {
	digits := "1" + strings.Repeat("0", 308)
	long := strings.Repeat("é", 100)
	name := strings.Repeat("n", 63)
	tests := []struct{ in, out string }{
		{`value "` + digits + `" is out of range for type integer`,
			`value "1000000000000000000000000000000000000000…" (309 digits) is out of range for type integer`},
		{`invalid input syntax for type integer: "` + long + `"`,
			`invalid input syntax for type integer: "` + strings.Repeat("é", 40) + `…"`},
		{`Incorrect integer value: '` + long + `' for column 'n' at row 1`,
			`Incorrect integer value: '` + strings.Repeat("é", 40) + `…' for column 'n' at row 1`},
		{"unquoted " + digits + " too", "unquoted 1000000000000000000000000000000000000000… (309 digits) too"},
		{`invalid input syntax for type integer: "2.5"`, `invalid input syntax for type integer: "2.5"`},
		{`Can't find "` + long, `Can't find "` + strings.Repeat("é", 40) + `…`},
	}
	for _, tt := range tests {
		if got := clipQuoted(tt.in, valueQuote); got != tt.out {
			t.Errorf("clipQuoted(%.60q…)\n got %q\nwant %q", tt.in, got, tt.out)
		}
	}
	in := `relation "` + name + `" does not exist`
	if got := clipQuoted(in, nameQuote); got != in {
		t.Errorf("a 63-character name was cut: %q", got)
	}
	msg, _ := postgresMessage(&pgconn.PgError{Code: "22003", Message: `value "` + digits + `" is out of range for type integer`}, "2s")
	if len(msg) > 200 {
		t.Errorf("message of %d bytes: %q", len(msg), msg)
	}
}

// TestHostileConstraintDetails checks the explanations of constraint violations
// read from what the database names, and the fallbacks when it names
// less (a role that may not read the table gets no values).
func TestHostileConstraintDetails(t *testing.T) {
	long := strings.Repeat("x", 100)
	tests := []struct{ got, want string }{
		{postgresDuplicate(`Key (email)=(a@example.com) already exists.`), "a row with (email)=(a@example.com) already exists."},
		{postgresDuplicate(`Key (a, b)=(1, two) already exists.`), "a row with (a, b)=(1, two) already exists."},
		{postgresDuplicate(`Key (q)=(` + long + `) already exists.`), "a row with (q)=(" + long[:40] + "…) already exists."},
		{postgresDuplicate(""), duplicateRow},
		{postgresReference(`Key (telescope_id)=(42) is not present in table "telescopes".`), `(telescope_id)=(42) names no row of table "telescopes"; give a value that exists there.`},
		{postgresReference(`Key (id)=(1) is still referenced from table "observations".`), `rows of table "observations" still refer to (id)=(1); change or delete them first.`},
		{postgresReference(`Key is not present in table "telescopes".`), missingRef},
		{postgresReference(`Key is still referenced from table "observations".`), stillReferenced},
		{postgresReference(""), eitherRef},
		{mysqlDuplicateText("Duplicate entry 'it's' for key 'k'"), "a row with the key 'it's' already exists."},
		{mysqlDuplicateText("Duplicate entry '" + long + "' for key 'k'"), "a row with the key '" + long[:40] + "…' already exists."},
		{mysqlDuplicateText("Duplicate entry for key"), duplicateRow},
		{mysqlReference(1452, "Cannot add or update a child row: a foreign key constraint fails (`db`.`obs`, CONSTRAINT `fk` FOREIGN KEY (`tid`) REFERENCES `tel` (`id`))"),
			"`tid` names no row of table `tel` (column `id`); give a value that exists there."},
		{mysqlReference(1451, "Cannot delete or update a parent row: a foreign key constraint fails (`db`.`obs`, CONSTRAINT `fk` FOREIGN KEY (`tid`) REFERENCES `tel` (`id`))"),
			"rows of table `obs` still refer to this row of `tel` (through `tid`); change or delete them first."},
		{mysqlReference(1216, "Cannot add or update a child row: a foreign key constraint fails"), missingRef},
		{mysqlReference(1217, "Cannot delete or update a parent row: a foreign key constraint fails"), stillReferenced},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got  %q\nwant %q", tt.got, tt.want)
		}
	}
	msg, _ := postgresMessage(&pgconn.PgError{Code: "23P01", ConstraintName: "no_overlap", TableName: "bookings",
		Message: `conflicting key value violates exclusion constraint "no_overlap"`,
		Detail:  `Key (room, during)=(1, [2026-01-01,2026-01-02)) conflicts with existing key (room, during)=(1, [2026-01-01,2026-01-03)).`}, "2s")
	if want := `The statement broke the exclusion constraint "no_overlap" on table "bookings": it conflicts with an existing row.`; msg != want {
		t.Errorf("exclusion: got %q, want %q", msg, want)
	}
}

// TestMySQLMessageHidesClientHost keeps the host mcpdecl connects from out
// of what the model reads.
func TestMySQLMessageHidesClientHost(t *testing.T) {
	msg, _ := mysqlMessage(&mysql.MySQLError{Number: 1142, Message: "SELECT command denied to user 'app'@'10.0.0.5' for table `orders`"}, "2s")
	if strings.Contains(msg, "10.0.0.5") || !strings.Contains(msg, "'app'") {
		t.Errorf("message = %q", msg)
	}
}
