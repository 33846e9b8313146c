package sqladapter

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/checktest"
	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/internal/testenv"
)

// Environment variables naming the test databases; without them the
// Postgres and MariaDB runs are skipped.
const (
	envPostgres = "MCPDECL_TEST_POSTGRES_DSN"
	envMySQL    = "MCPDECL_TEST_MYSQL_DSN"
)

// testDB is one database the runtime cases run against.
type testDB struct {
	name   string // sqlite, postgres, mariadb: the key of per-database values
	driver string // the backend's driver attribute
	dsn    string
	admin  *sql.DB // runs the set-up and clean-up statements
}

// openTestDB returns the database called name, or skips the test.
func openTestDB(t *testing.T, name string) *testDB {
	t.Helper()
	db := &testDB{name: name}
	var drv string
	switch name {
	case "sqlite":
		path := filepath.Join(t.TempDir(), "test.db")
		db.driver, db.dsn, drv = "sqlite", "file:"+path, "sqlite"
	case "postgres":
		db.dsn = testenv.Need(t, envPostgres)
		db.driver, drv = "postgres", "pgx"
	case "mariadb":
		db.dsn = testenv.Need(t, envMySQL)
		db.driver, drv = "mysql", "mysql"
	}
	admin, err := sql.Open(drv, strings.TrimPrefix(db.dsn, "file:"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	if err := admin.Ping(); err != nil {
		t.Fatalf("cannot reach the %s test database: %v", name, err)
	}
	db.admin = admin
	return db
}

// bySQL holds a value per database, with "" as the default.
type bySQL[T any] map[string]T

func (m bySQL[T]) For(db string) T {
	if v, ok := m[db]; ok {
		return v
	}
	return m[""]
}

// want is the expected outcome of a call.
type want struct {
	rows      []map[string]any
	columns   []string // checked when not nil
	affected  int
	lastID    int
	truncated bool
	text      string // a substring of Result.Text
	// errText is a substring of the CallError message; the call must fail.
	errText   string
	retryable bool
	// maxLen bounds the length of the CallError message, when set.
	maxLen int
}

type runtimeCase struct {
	name string
	// setup runs before the call; {t} is the case's table name.
	setup bySQL[[]string]
	// query is the call's SQL; {t} is the table name.
	query bySQL[string]
	// backend and call hold extra HCL attributes.
	backend, call string
	// write compiles a read-write backend and call.
	write bool
	// forceReadOnly runs a call compiled read-write as read-only: on a
	// read-only backend ("backend") or a read-write one ("call"), to test
	// the runtime's refusal without the compiler's.
	forceReadOnly string
	args          map[string]cty.Value
	// kill drops the call's connection (whose id the first call returns
	// as column id) from the server, then calls again.
	kill bool
	// after runs on the admin connection after the call and must return
	// the wanted value.
	after     bySQL[string]
	afterWant int64
	want      bySQL[want]
	// foreignKeys has SQLite check foreign keys (PRAGMA foreign_keys).
	foreignKeys bool
	// maxTime bounds how long the call may take.
	maxTime time.Duration
	skip    bySQL[string]
}

// injections are strings that would change the statement if they were
// pasted into it.
var injections = []string{
	`' OR 1=1 --`,
	`alice' --`,
	`x'; DROP TABLE {t}; --`,
	`" OR ""="`,
	`1; SELECT 1`,
	`/* comment */ alice`,
	`\' OR 1=1 #`,
	`%`,
}

func runtimeCases() []runtimeCase {
	people := bySQL[[]string]{
		"": {
			"CREATE TABLE {t} (id INTEGER PRIMARY KEY, name VARCHAR(50) NOT NULL)",
			"INSERT INTO {t} (id, name) VALUES (1, 'alice'), (2, 'bob'), (3, 'carol'), (4, 'dave'), (5, 'erin')",
		},
	}
	auto := bySQL[[]string]{
		"sqlite":   {"CREATE TABLE {t} (id INTEGER PRIMARY KEY, name VARCHAR(50) NOT NULL UNIQUE, n INTEGER)"},
		"postgres": {"CREATE TABLE {t} (id SERIAL PRIMARY KEY, name VARCHAR(50) NOT NULL CONSTRAINT {t}_name_key UNIQUE, n INTEGER)"},
		"mariadb":  {"CREATE TABLE {t} (id INTEGER AUTO_INCREMENT PRIMARY KEY, name VARCHAR(50) NOT NULL, n INTEGER, CONSTRAINT {t}_name_key UNIQUE (name))"},
	}
	autoRows := func(stmts bySQL[[]string]) bySQL[[]string] {
		out := bySQL[[]string]{}
		for k, v := range stmts {
			out[k] = append(v[:len(v):len(v)], "INSERT INTO {t} (name, n) VALUES ('a', 1), ('b', 1), ('c', 2)")
		}
		return out
	}
	cases := []runtimeCase{
		{
			name:  "bound value matches",
			setup: people,
			query: bySQL[string]{"": "SELECT id, name FROM {t} WHERE name = ${args.query}"},
			args:  map[string]cty.Value{"query": cty.StringVal("alice")},
			want: bySQL[want]{"": {
				rows:    []map[string]any{{"id": int64(1), "name": "alice"}},
				columns: []string{"id", "name"},
				text:    `[` + "\n" + `{"id": 1, "name": "alice"}` + "\n" + `]`,
			}},
		},
	}
	for _, s := range injections {
		cases = append(cases, runtimeCase{
			name:  "injection " + s,
			setup: people,
			query: bySQL[string]{"": "SELECT id, name FROM {t} WHERE name = ${args.query} OR id = ${args.n}"},
			args:  map[string]cty.Value{"query": cty.StringVal(s), "n": cty.NumberIntVal(0)},
			want:  bySQL[want]{"": {rows: []map[string]any{}, columns: []string{"id", "name"}, text: "[]"}},
			after: bySQL[string]{"": "SELECT count(*) FROM {t}"}, afterWant: 5,
		})
	}
	// The LIKE escaping that docs/language.md advises: the user's %, _
	// and \ match themselves.
	likeNames := bySQL[[]string]{
		"":        {"CREATE TABLE {t} (name VARCHAR(10))", `INSERT INTO {t} VALUES ('a%b'), ('axb'), ('a_b'), ('a\b'), ('a!b'), ('ab')`},
		"mariadb": {"CREATE TABLE {t} (name VARCHAR(10))", `INSERT INTO {t} VALUES ('a%b'), ('axb'), ('a_b'), ('a\\b'), ('a!b'), ('ab')`},
	}
	for _, prefix := range []string{"a%", "a_", `a\`, "a!"} {
		cases = append(cases, runtimeCase{
			name:  "LIKE with escaped user text " + prefix,
			setup: likeNames,
			query: bySQL[string]{"": "SELECT name FROM {t} WHERE name LIKE concat(replace(replace(replace(${args.query}, '!', '!!'), '%', '!%'), '_', '!_'), '%') ESCAPE '!'"},
			args:  map[string]cty.Value{"query": cty.StringVal(prefix)},
			want:  bySQL[want]{"": {rows: []map[string]any{{"name": prefix + "b"}}}},
		})
	}
	cases = append(cases, []runtimeCase{
		{
			name: "type mapping",
			setup: bySQL[[]string]{
				"sqlite": {
					"CREATE TABLE {t} (i INTEGER, b BIGINT, d NUMERIC(20,6), f REAL, ok BOOLEAN, s TEXT, bin BLOB, ts TIMESTAMP, z TEXT)",
					"INSERT INTO {t} VALUES (42, 9007199254740993, 12.5, 1.25, 1, 'héllo \"q\"', X'00FF', '2026-10-01 09:12:00', NULL)",
				},
				"postgres": {
					"CREATE TABLE {t} (i INTEGER, b BIGINT, d NUMERIC(20,6), f DOUBLE PRECISION, ok BOOLEAN, s TEXT, bin BYTEA, ts TIMESTAMP, z TEXT, r REAL, day DATE, j JSONB)",
					"INSERT INTO {t} VALUES (42, 9007199254740993, 12345678901234.123456, 1.25, true, 'héllo \"q\"', '\\x00ff', '2026-10-01 09:12:00', NULL, 1.1, '2026-10-01', '{\"a\": 1.10}')",
				},
				"mariadb": {
					"CREATE TABLE {t} (i INTEGER, b BIGINT, d DECIMAL(20,6), f DOUBLE, ok BOOLEAN, s TEXT, bin BLOB, ts DATETIME, z TEXT, r FLOAT, day DATE, v VARCHAR(10))",
					"INSERT INTO {t} VALUES (42, 9007199254740993, 12345678901234.123456, 1.25, true, 'héllo \"q\"', X'00FF', '2026-10-01 09:12:00', NULL, 1.1, '2026-10-01', 'v')",
				},
			},
			query: bySQL[string]{"": "SELECT * FROM {t} WHERE i = ${args.n}"},
			args:  map[string]cty.Value{"n": cty.NumberIntVal(42)},
			want: bySQL[want]{
				"sqlite": {
					columns: []string{"i", "b", "d", "f", "ok", "s", "bin", "ts", "z"},
					rows: []map[string]any{{
						"i": int64(42), "b": int64(9007199254740993), "d": 12.5, "f": 1.25, "ok": true,
						"s": `héllo "q"`, "bin": "AP8=", "ts": "2026-10-01T09:12:00Z", "z": nil,
					}},
				},
				"postgres": {
					columns: []string{"i", "b", "d", "f", "ok", "s", "bin", "ts", "z", "r", "day", "j"},
					rows: []map[string]any{{
						"i": int64(42), "b": int64(9007199254740993), "d": json.Number("12345678901234.123456"), "f": 1.25, "ok": true,
						"s": `héllo "q"`, "bin": "AP8=", "ts": "2026-10-01T09:12:00Z", "z": nil, "r": 1.1, "day": "2026-10-01",
						"j": map[string]any{"a": json.Number("1.10")},
					}},
					text: `"d": 12345678901234.123456, "f": 1.25, "ok": true, "s": "héllo \"q\""`,
				},
				"mariadb": {
					columns: []string{"i", "b", "d", "f", "ok", "s", "bin", "ts", "z", "r", "day", "v"},
					rows: []map[string]any{{
						// BOOLEAN is TINYINT(1) in MySQL: it comes back as a number.
						"i": int64(42), "b": int64(9007199254740993), "d": json.Number("12345678901234.123456"), "f": 1.25, "ok": int64(1),
						"s": `héllo "q"`, "bin": "AP8=", "ts": "2026-10-01T09:12:00Z", "z": nil, "r": 1.1, "day": "2026-10-01", "v": "v",
					}},
				},
			},
		},
		{
			// What docs/language.md says of SQLite sums and Postgres
			// arrays, NaN and infinities.
			name: "type mapping as documented",
			query: bySQL[string]{
				"sqlite":   "SELECT sum(x) AS s, round(sum(x), 2) AS r FROM (SELECT 1.98 AS x UNION ALL SELECT 1.98 UNION ALL SELECT 1.98) WHERE ${args.n} = 1",
				"postgres": "SELECT ARRAY[1,2] AS a, array_to_json(ARRAY[1,2]) AS j, 'NaN'::float8 AS nan, '-Infinity'::float8 AS inf, ${args.n}::int AS n",
				"mariadb":  "SELECT true AS t, JSON_OBJECT('a', 1) AS j, ${args.n} AS n",
			},
			args: map[string]cty.Value{"n": cty.NumberIntVal(1)},
			want: bySQL[want]{
				"sqlite":   {rows: []map[string]any{{"s": 5.9399999999999995, "r": 5.94}}},
				"postgres": {rows: []map[string]any{{"a": "{1,2}", "j": []any{json.Number("1"), json.Number("2")}, "nan": "NaN", "inf": "-Inf", "n": int64(1)}}},
				"mariadb":  {rows: []map[string]any{{"t": int64(1), "j": `{"a": 1}`, "n": int64(1)}}},
			},
		},
		{
			name:  "type mapping without parameters",
			setup: bySQL[[]string]{"": {"CREATE TABLE {t} (i INTEGER, d DECIMAL(10,2), s VARCHAR(5))", "INSERT INTO {t} VALUES (7, 3.10, 'x')"}},
			query: bySQL[string]{"": "SELECT i, d, s, i * 2 AS twice FROM {t}"},
			want: bySQL[want]{
				"": {rows: []map[string]any{{"i": int64(7), "d": json.Number("3.10"), "s": "x", "twice": int64(14)}}},
				// SQLite keeps DECIMAL as a REAL.
				"sqlite": {rows: []map[string]any{{"i": int64(7), "d": 3.1, "s": "x", "twice": int64(14)}}},
			},
		},
		{
			// The text must write numbers as the structured content does.
			name: "floats in the text as in JSON",
			query: bySQL[string]{
				"sqlite":   "SELECT CAST(99999999.99 AS REAL) AS total, CAST(12345678901234567890 AS REAL) AS big, CAST(0.0000001 AS REAL) AS tiny, ${args.n} AS n",
				"postgres": "SELECT CAST(99999999.99 AS DOUBLE PRECISION) AS total, CAST(12345678901234567890 AS DOUBLE PRECISION) AS big, CAST(0.0000001 AS DOUBLE PRECISION) AS tiny, ${args.n}::int AS n",
				"mariadb":  "SELECT CAST(99999999.99 AS DOUBLE) AS total, CAST(12345678901234567890 AS DOUBLE) AS big, CAST(0.0000001 AS DOUBLE) AS tiny, ${args.n} AS n",
			},
			args: map[string]cty.Value{"n": cty.NumberIntVal(1)},
			want: bySQL[want]{"": {
				rows: []map[string]any{{"total": 99999999.99, "big": 1.2345678901234567e19, "tiny": 1e-7, "n": int64(1)}},
				text: `{"total": 99999999.99, "big": 12345678901234567000, "tiny": 1e-7, "n": 1}`,
			}},
		},
		{
			name:  "number, bool and null parameters",
			setup: people,
			query: bySQL[string]{
				"":         "SELECT count(*) AS n FROM {t} WHERE id > ${args.n} AND ${args.flag} AND (${args.status} IS NULL OR name = ${args.status})",
				"postgres": "SELECT count(*) AS n FROM {t} WHERE id > ${args.n}::numeric AND ${args.flag} AND (${args.status}::text IS NULL OR name = ${args.status})",
			},
			args: map[string]cty.Value{"n": cty.NumberFloatVal(2.5), "flag": cty.True},
			want: bySQL[want]{"": {rows: []map[string]any{{"n": int64(3)}}}},
		},
		{
			// pgx refuses before sending; the server's own refusals say
			// the same kind of thing.
			name:  "integer argument out of the column's range",
			setup: people,
			query: bySQL[string]{"": "SELECT id FROM {t} WHERE id = ${args.n}"},
			args:  map[string]cty.Value{"n": cty.NumberIntVal(2147483648)},
			want: bySQL[want]{
				"":         {rows: []map[string]any{}},
				"postgres": {errText: `A value does not fit: the argument "n" is 2147483648, but the column type integer (int4) holds -2147483648 to 2147483647. Check the arguments`},
			},
		},
		{
			name:  "computed value out of the column's range",
			setup: bySQL[[]string]{"": {"CREATE TABLE {t} (id INTEGER PRIMARY KEY, s SMALLINT)"}},
			write: true,
			query: bySQL[string]{"": "INSERT INTO {t} (id, s) VALUES (1, ${args.n - 1})"},
			args:  map[string]cty.Value{"n": cty.NumberIntVal(-32768)},
			want: bySQL[want]{
				"sqlite":   {rows: []map[string]any{}, columns: []string{}, affected: 1, lastID: 1},
				"postgres": {errText: `A value does not fit: the value computed from the argument "n" is -32769, but the column type smallint (int2) holds -32768 to 32767.`},
				"mariadb":  {errText: "A value does not fit: Out of range value for column 's'"},
			},
		},
		{
			name:  "number where the query expects text",
			setup: people,
			query: bySQL[string]{"": "SELECT id FROM {t} WHERE name = ${args.n}"},
			args:  map[string]cty.Value{"n": cty.NumberIntVal(7)},
			want: bySQL[want]{
				"":         {rows: []map[string]any{}},
				"postgres": {errText: `A value does not fit: the argument "n" is the number 7, but the query uses it where the database expects text. The tool's query must be fixed in its configuration (cast the value, as in CAST(${...} AS text))`},
			},
		},
		{
			// pgx would send 2 for an integer parameter, and match id 2.
			name:  "fractional number for an integer column",
			setup: people,
			query: bySQL[string]{"": "SELECT id FROM {t} WHERE id = ${args.n}"},
			args:  map[string]cty.Value{"n": cty.NumberFloatVal(2.5)},
			want: bySQL[want]{
				"":         {rows: []map[string]any{}},
				"postgres": {errText: `A value does not fit: invalid input syntax for type integer: "2.5". Check the arguments.`},
			},
		},
		{
			name:  "optional argument compared with IS NULL",
			setup: people,
			query: bySQL[string]{
				"":         "SELECT count(*) AS n FROM {t} WHERE ${args.n} IS NULL OR id = ${args.n}",
				"postgres": "SELECT count(*) AS n FROM {t} WHERE CAST(${args.n} AS integer) IS NULL OR id = ${args.n}",
			},
			want: bySQL[want]{"": {rows: []map[string]any{{"n": int64(5)}}}},
		},
		{
			name:  "expression parameter",
			setup: people,
			query: bySQL[string]{"": "SELECT name FROM {t} WHERE name = ${lower(args.query)} OR id = ${args.n + 1}"},
			args:  map[string]cty.Value{"query": cty.StringVal("ALICE"), "n": cty.NumberIntVal(1)},
			call:  "max_rows = 10",
			want:  bySQL[want]{"": {rows: []map[string]any{{"name": "alice"}, {"name": "bob"}}}},
		},
		{
			name:  "repeated column names are numbered",
			query: bySQL[string]{"": "SELECT 1 AS id, 2 AS id, 3 AS id_2, ${args.n} + 0 AS n"},
			args:  map[string]cty.Value{"n": cty.NumberIntVal(4)},
			want: bySQL[want]{"": {
				columns: []string{"id", "id_2", "id_2_2", "n"},
				rows:    []map[string]any{{"id": int64(1), "id_2": int64(2), "id_2_2": int64(3), "n": int64(4)}},
			}},
		},
		{
			name:  "max_rows truncates",
			setup: people,
			query: bySQL[string]{"": "SELECT id FROM {t} ORDER BY id"},
			call:  "max_rows = 3",
			want: bySQL[want]{"": {
				rows:      []map[string]any{{"id": int64(1)}, {"id": int64(2)}, {"id": int64(3)}},
				truncated: true,
				text:      "\nShowing the first 3 rows; more were cut. Narrow the query.",
			}},
		},
		{
			name:    "backend max_rows",
			setup:   people,
			query:   bySQL[string]{"": "SELECT id FROM {t} ORDER BY id"},
			backend: "max_rows = 5",
			want: bySQL[want]{"": {
				rows: []map[string]any{{"id": int64(1)}, {"id": int64(2)}, {"id": int64(3)}, {"id": int64(4)}, {"id": int64(5)}},
			}},
		},
		{
			name:  "insert returns rows_affected and last_insert_id",
			setup: autoRows(auto),
			write: true,
			query: bySQL[string]{"": "INSERT INTO {t} (name, n) VALUES (${args.query}, ${args.n})"},
			args:  map[string]cty.Value{"query": cty.StringVal("d"), "n": cty.NumberIntVal(5)},
			want: bySQL[want]{
				"":         {rows: []map[string]any{}, columns: []string{}, affected: 1, lastID: 4, text: `{"rows_affected": 1, "last_insert_id": 4}`},
				"postgres": {rows: []map[string]any{}, columns: []string{}, affected: 1, text: `{"rows_affected": 1}`},
			},
			after: bySQL[string]{"": "SELECT n FROM {t} WHERE name = 'd'"}, afterWant: 5,
		},
		{
			name:  "update returns rows_affected",
			setup: autoRows(auto),
			write: true,
			query: bySQL[string]{"": "UPDATE {t} SET n = ${args.n} WHERE n = 1"},
			args:  map[string]cty.Value{"n": cty.NumberIntVal(9)},
			want:  bySQL[want]{"": {rows: []map[string]any{}, columns: []string{}, affected: 2, text: `{"rows_affected": 2}`}},
			after: bySQL[string]{"": "SELECT count(*) FROM {t} WHERE n = 9"}, afterWant: 2,
		},
		{
			// rows_affected counts the rows the WHERE matched, also those
			// the UPDATE left as they were, so that rows_affected == 0
			// means "no such row" on every database.
			name:  "update to the value a row already has",
			setup: autoRows(auto),
			write: true,
			query: bySQL[string]{"": "UPDATE {t} SET n = 1 WHERE name = ${args.query}"},
			args:  map[string]cty.Value{"query": cty.StringVal("a")},
			want:  bySQL[want]{"": {rows: []map[string]any{}, columns: []string{}, affected: 1, text: `{"rows_affected": 1}`}},
		},
		{
			name:  "insert returning",
			setup: autoRows(auto),
			write: true,
			query: bySQL[string]{"": "INSERT INTO {t} (name, n) VALUES (${args.query}, 1) RETURNING id, name"},
			args:  map[string]cty.Value{"query": cty.StringVal("z")},
			want:  bySQL[want]{"": {rows: []map[string]any{{"id": int64(4), "name": "z"}}, affected: 1}},
			skip:  bySQL[string]{"mariadb": "MariaDB 10.11 has INSERT ... RETURNING, but the test keeps to what MySQL also has"},
		},
		{
			name:  "unique violation",
			setup: autoRows(auto),
			write: true,
			query: bySQL[string]{"": "INSERT INTO {t} (name, n) VALUES (${args.query}, 1)"},
			args:  map[string]cty.Value{"query": cty.StringVal("a")},
			want: bySQL[want]{
				"sqlite":   {errText: "The statement broke a unique constraint on {t}.name: a row with the same key already exists."},
				"postgres": {errText: `The statement broke the unique constraint "{t}_name_key" on table "{t}": a row with (name)=(a) already exists.`},
				"mariadb":  {errText: "The statement broke the unique constraint `{t}_name_key`: a row with the key 'a' already exists."},
			},
		},
		{
			name:  "unique violation by an update",
			setup: autoRows(auto),
			write: true,
			query: bySQL[string]{"": "UPDATE {t} SET name = ${args.query} WHERE name = 'b'"},
			args:  map[string]cty.Value{"query": cty.StringVal("a")},
			want: bySQL[want]{
				"sqlite":   {errText: "The statement broke a unique constraint on {t}.name: a row with the same key already exists."},
				"postgres": {errText: `a row with (name)=(a) already exists.`},
				"mariadb":  {errText: "a row with the key 'a' already exists."},
			},
		},
		{
			name: "unique violation with a long value",
			setup: bySQL[[]string]{
				"sqlite":   append(auto["sqlite"], "INSERT INTO {t} (name) VALUES ('"+strings.Repeat("é", 50)+"')"),
				"postgres": append(auto["postgres"], "INSERT INTO {t} (name) VALUES ('"+strings.Repeat("é", 50)+"')"),
				"mariadb":  append(auto["mariadb"], "INSERT INTO {t} (name) VALUES ('"+strings.Repeat("é", 50)+"')"),
			},
			write: true,
			query: bySQL[string]{"": "INSERT INTO {t} (name) VALUES (${args.query})"},
			args:  map[string]cty.Value{"query": cty.StringVal(strings.Repeat("é", 50))},
			want: bySQL[want]{
				"sqlite":   {errText: "The statement broke a unique constraint on {t}.name: a row with the same key already exists."},
				"postgres": {errText: `a row with (name)=(` + strings.Repeat("é", 40) + `…) already exists.`},
				"mariadb":  {errText: "a row with the key '" + strings.Repeat("é", 30) + "…' already exists."}, // MariaDB cuts it to 64 bytes
			},
		},
		{
			// What docs/language.md advises instead of catching a unique
			// violation: the conflict becomes rows_affected == 0.
			name:  "insert unless the row exists",
			setup: autoRows(auto),
			write: true,
			query: bySQL[string]{"": "INSERT INTO {t} (name, n) SELECT ${args.query}, 1 WHERE NOT EXISTS (SELECT 1 FROM {t} WHERE name = ${args.query})"},
			args:  map[string]cty.Value{"query": cty.StringVal("a")},
			want: bySQL[want]{
				"":         {rows: []map[string]any{}, columns: []string{}, text: `{"rows_affected": 0, "last_insert_id": `},
				"postgres": {rows: []map[string]any{}, columns: []string{}, text: `{"rows_affected": 0}`},
			},
			after: bySQL[string]{"": "SELECT count(*) FROM {t}"}, afterWant: 3,
		},
		{
			name:  "not-null violation",
			setup: autoRows(auto),
			write: true,
			query: bySQL[string]{"": "INSERT INTO {t} (name, n) VALUES (${args.query}, 1)"},
			want: bySQL[want]{
				"sqlite":   {errText: "The column {t}.name cannot be null"},
				"postgres": {errText: `The column "name" on table "{t}" cannot be null`},
				"mariadb":  {errText: "The column `name` cannot be null"},
			},
		},
		{
			name: "foreign-key violation",
			setup: bySQL[[]string]{"": {
				"CREATE TABLE {t}_p (id INTEGER PRIMARY KEY)",
				"CREATE TABLE {t} (id INTEGER PRIMARY KEY, pid INTEGER, CONSTRAINT {t}_fk FOREIGN KEY (pid) REFERENCES {t}_p (id))",
			}},
			write:       true,
			query:       bySQL[string]{"": "INSERT INTO {t} (id, pid) VALUES (1, ${args.n})"},
			args:        map[string]cty.Value{"n": cty.NumberIntVal(7)},
			foreignKeys: true,
			want: bySQL[want]{
				"sqlite":   {errText: "The statement broke a foreign-key constraint: a value names no row of the table it refers to; give one that exists there."},
				"postgres": {errText: `The statement broke the foreign-key constraint "{t}_fk" on table "{t}": (pid)=(7) names no row of table "{t}_p"; give a value that exists there.`},
				"mariadb":  {errText: "The statement broke the foreign-key constraint `{t}_fk`: `pid` names no row of table `{t}_p` (column `id`); give a value that exists there."},
			},
		},
		{
			name: "foreign-key violation by a referenced row",
			setup: bySQL[[]string]{"": {
				"CREATE TABLE {t}_p (id INTEGER PRIMARY KEY)",
				"CREATE TABLE {t} (id INTEGER PRIMARY KEY, pid INTEGER, CONSTRAINT {t}_fk FOREIGN KEY (pid) REFERENCES {t}_p (id))",
				"INSERT INTO {t}_p (id) VALUES (7)",
				"INSERT INTO {t} (id, pid) VALUES (1, 7)",
			}},
			write:       true,
			foreignKeys: true,
			query:       bySQL[string]{"": "DELETE FROM {t}_p WHERE id = ${args.n}"},
			args:        map[string]cty.Value{"n": cty.NumberIntVal(7)},
			want: bySQL[want]{
				"sqlite":   {errText: "The statement broke a foreign-key constraint: other rows still refer to this one; change or delete them first."},
				"postgres": {errText: `The statement broke the foreign-key constraint "{t}_fk" on table "{t}": rows of table "{t}" still refer to (id)=(7); change or delete them first.`},
				"mariadb":  {errText: "The statement broke the foreign-key constraint `{t}_fk`: rows of table `{t}` still refer to this row of `{t}_p` (through `pid`); change or delete them first."},
			},
		},
		{
			name: "check violation",
			setup: bySQL[[]string]{
				"":       {"CREATE TABLE {t} (id INTEGER PRIMARY KEY, n INTEGER, CONSTRAINT {t}_n_positive CHECK (n > 0))"},
				"sqlite": {"CREATE TABLE {t} (id INTEGER PRIMARY KEY, n INTEGER CONSTRAINT {t}_n_positive CHECK (n > 0))"},
			},
			write: true,
			query: bySQL[string]{"": "INSERT INTO {t} (id, n) VALUES (1, ${args.n})"},
			args:  map[string]cty.Value{"n": cty.NumberIntVal(-3)},
			want: bySQL[want]{
				"sqlite":   {errText: "The statement broke the check constraint {t}_n_positive: a value is out of the allowed range."},
				"postgres": {errText: `The statement broke the check constraint "{t}_n_positive" on table "{t}": a value is out of the allowed range.`},
				"mariadb":  {errText: "The statement broke the check constraint `{t}_n_positive`: a value is out of the allowed range."},
			},
		},
		{
			name:  "syntax error",
			setup: people,
			query: bySQL[string]{"": "SELECT id FROM {t} WHERE id = ${args.n} ORDER id"},
			args:  map[string]cty.Value{"n": cty.NumberIntVal(1)},
			want:  bySQL[want]{"": {errText: "The SQL statement has a syntax error: "}},
		},
		{
			name:  "unknown table",
			query: bySQL[string]{"": "SELECT * FROM {t}_missing WHERE id = ${args.n}"},
			args:  map[string]cty.Value{"n": cty.NumberIntVal(1)},
			want:  bySQL[want]{"": {errText: "The database refused the statement: "}},
		},
		{
			name:          "read-only backend refuses a write",
			setup:         autoRows(auto),
			write:         true,
			forceReadOnly: "backend",
			query:         bySQL[string]{"": "INSERT INTO {t} (name, n) VALUES (${args.query}, 1)"},
			args:          map[string]cty.Value{"query": cty.StringVal("x")},
			want:          bySQL[want]{"": {errText: "The database refused to write: this tool is read-only."}},
			after:         bySQL[string]{"": "SELECT count(*) FROM {t}"}, afterWant: 3,
		},
		{
			name:          "read-only call on a read-write backend refuses a write",
			setup:         autoRows(auto),
			write:         true,
			forceReadOnly: "call",
			query:         bySQL[string]{"": "UPDATE {t} SET n = ${args.n}"},
			args:          map[string]cty.Value{"n": cty.NumberIntVal(7)},
			want:          bySQL[want]{"": {errText: "The database refused to write: this tool is read-only."}},
			after:         bySQL[string]{"": "SELECT count(*) FROM {t} WHERE n = 7"}, afterWant: 0,
		},
		{
			name: "read-only refuses a function that writes",
			setup: bySQL[[]string]{
				"postgres": append(autoRows(auto)["postgres"],
					"CREATE FUNCTION {t}_f(v text) RETURNS int LANGUAGE sql AS 'INSERT INTO {t} (name, n) VALUES (v, 1) RETURNING id'"),
			},
			query: bySQL[string]{"": "SELECT {t}_f(${args.query}) AS id"},
			args:  map[string]cty.Value{"query": cty.StringVal("x")},
			want:  bySQL[want]{"": {errText: "The database refused to write: this tool is read-only."}},
			after: bySQL[string]{"": "SELECT count(*) FROM {t}"}, afterWant: 3,
			skip: bySQL[string]{
				"sqlite":  "SQLite has no stored functions",
				"mariadb": "a MariaDB function that writes needs log_bin_trust_function_creators; the forced read-only cases cover MariaDB",
			},
		},
		{
			// SQLite caps a LIKE pattern at 50,000 bytes: the argument is
			// at fault, not the query.
			name:  "search text too long for a LIKE pattern",
			setup: people,
			query: bySQL[string]{
				"":        "SELECT count(*) AS n FROM {t} WHERE name LIKE '%' || ${args.query} || '%'",
				"mariadb": "SELECT count(*) AS n FROM {t} WHERE name LIKE CONCAT('%', ${args.query}, '%')",
			},
			args: map[string]cty.Value{"query": cty.StringVal(strings.Repeat("x", 100_000))},
			want: bySQL[want]{
				"":       {rows: []map[string]any{{"n": int64(0)}}},
				"sqlite": {errText: `A value is too long: the argument "query" has 100000 characters, more than the database accepts in a LIKE or GLOB pattern. Send a shorter value.`},
			},
		},
		{
			// A void function (pg_sleep) answers no value: null, not "".
			name:  "void result",
			query: bySQL[string]{"": "SELECT pg_sleep(0) AS slept, ${args.n}::int AS n"},
			args:  map[string]cty.Value{"n": cty.NumberIntVal(1)},
			want:  bySQL[want]{"": {rows: []map[string]any{{"slept": nil, "n": int64(1)}}}},
			skip:  bySQL[string]{"sqlite": "PostgreSQL only", "mariadb": "PostgreSQL only"},
		},
		{
			name:  "blob too big",
			query: bySQL[string]{"": "SELECT length(zeroblob(${args.n})) AS n"},
			args:  map[string]cty.Value{"n": cty.NumberIntVal(2_000_000_000)},
			want:  bySQL[want]{"": {errText: "A value is too long for a text or blob in the database. Check the arguments and send shorter ones."}},
			skip:  bySQL[string]{"postgres": "SQLite only", "mariadb": "SQLite only"},
		},
		{
			name:  "text for an integer key",
			setup: people,
			write: true,
			query: bySQL[string]{"": "INSERT INTO {t} (id, name) VALUES (${args.query}, 'x')"},
			args:  map[string]cty.Value{"query": cty.StringVal("abc")},
			want: bySQL[want]{
				"sqlite": {errText: "A value does not fit: datatype mismatch (an INTEGER PRIMARY KEY holds whole numbers only). Check the arguments."},
				"":       {errText: "A value does not fit: "},
			},
		},
		{
			// The database repeats the number's 309 digits; the message
			// quotes it shortly.
			name:  "huge number quoted shortly",
			setup: people,
			query: bySQL[string]{"": "SELECT id FROM {t} WHERE id = ${args.n}"},
			args:  map[string]cty.Value{"n": cty.MustParseNumberVal("1e308")},
			want: bySQL[want]{
				"":         {rows: []map[string]any{}},
				"postgres": {errText: `A value does not fit: value "1000000000000000000000000000000000000000…" (309 digits) is out of range for type integer. Check the arguments.`, maxLen: 200},
			},
		},
		{
			name:    "statement timeout",
			backend: `statement_timeout = "1s"`,
			query:   slowQueries,
			args:    map[string]cty.Value{"n": cty.NumberIntVal(0)},
			want:    bySQL[want]{"": {errText: "The query took longer than 1s and was stopped; narrow it"}},
			maxTime: stoppedWithin,
		},
		{
			name:    "server-side session settings",
			backend: `statement_timeout = "1s"`,
			query: bySQL[string]{
				"postgres": "SELECT current_setting('statement_timeout') AS t, current_setting('default_transaction_read_only') AS ro, current_setting('application_name') AS app, ${args.n}::int AS n",
				"mariadb":  "SELECT @@max_statement_time AS t, @@sql_mode IS NOT NULL AS m, ${args.n} AS n",
			},
			args: map[string]cty.Value{"n": cty.NumberIntVal(1)},
			want: bySQL[want]{
				"postgres": {rows: []map[string]any{{"t": "1s", "ro": "on", "app": "mcpdecl", "n": int64(1)}}},
				"mariadb":  {rows: []map[string]any{{"t": 1.0, "m": int64(1), "n": int64(1)}}},
			},
			skip: bySQL[string]{"sqlite": "SQLite has no server-side timeout; the context deadline stops it"},
		},
		{
			name:    "call after the server killed the connection",
			backend: "max_open_conns = 1",
			query: bySQL[string]{
				"postgres": "SELECT pg_backend_pid() AS id, ${args.n}::int AS n",
				"mariadb":  "SELECT CONNECTION_ID() AS id, ${args.n} AS n",
			},
			args: map[string]cty.Value{"n": cty.NumberIntVal(1)},
			kill: true,
			skip: bySQL[string]{"sqlite": "SQLite has no server to drop the connection"},
		},
		{
			name:    "read-write call after the server killed the connection",
			backend: "max_open_conns = 1",
			write:   true,
			query: bySQL[string]{
				"postgres": "SELECT pg_backend_pid() AS id, ${args.n}::int AS n",
				"mariadb":  "SELECT CONNECTION_ID() AS id, ${args.n} AS n",
			},
			args: map[string]cty.Value{"n": cty.NumberIntVal(1)},
			kill: true,
			skip: bySQL[string]{"sqlite": "SQLite has no server to drop the connection"},
		},
	}...)
	return cases
}

var tableSeq atomic.Int64

// uniqueTable returns a table name no other test run uses.
func uniqueTable() string {
	return fmt.Sprintf("mcpdecl_t%d_%d", os.Getpid(), tableSeq.Add(1))
}

// argsVal returns the args object of checktest.ArgsType with the given
// attributes set and the others null.
func argsVal(set map[string]cty.Value) cty.Value {
	attrs := map[string]cty.Value{}
	for name, ty := range checktest.ArgsType.AttributeTypes() {
		if v, ok := set[name]; ok {
			attrs[name] = v
		} else {
			attrs[name] = cty.NullVal(ty)
		}
	}
	return cty.ObjectVal(attrs)
}

// compileTestCall compiles a backend block and one call block through the
// compile phase, as the server does.
func compileTestCall(t *testing.T, db *testDB, backendAttrs, query, callAttrs string, write bool) (*Backend, *Action) {
	t.Helper()
	src := fmt.Sprintf(`
backend "sql" "db" {
  driver    = %q
  dsn       = %q
  read_only = %v
  %s
}
sql "db" {
  query = <<-SQL
    %s
  SQL
  %s
  %s
}`, db.driver, db.dsn, !write, backendAttrs, query, callAttrs, map[bool]string{true: "read_only = false"}[write])
	got := checktest.Compile(t, New(), src)
	if len(got.Diags) > 0 {
		t.Fatalf("compile: %s\n%s", got.Diags.Error(), src)
	}
	return got.Backends["db"].(*Backend), got.Actions[0].(*Action)
}

func open(t *testing.T, b *Backend) {
	t.Helper()
	if err := b.Open(context.Background()); err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
}

func invoke(a *Action, args map[string]cty.Value) (*adapter.Result, error) {
	return a.Invoke(context.Background(), &adapter.Request{
		Args:     argsVal(args),
		Static:   &eval.Static{},
		Progress: func(float64, float64, string) {},
		Log:      func(string, any) {},
	})
}

var testDBs = []string{"sqlite", "postgres", "mariadb"}

func TestRuntime(t *testing.T) {
	for _, name := range testDBs {
		t.Run(name, func(t *testing.T) {
			db := openTestDB(t, name)
			for _, tc := range runtimeCases() {
				t.Run(tc.name, func(t *testing.T) {
					if why := tc.skip.For(name); why != "" {
						t.Skip(why)
					}
					runCase(t, db, tc)
				})
			}
		})
	}
}

// slowQueries run for a minute (SQLite: without end) unless stopped, so a
// bound of half that on the call's time tells a stopped query from one that
// ran its course, however loaded the machine is.
var slowQueries = bySQL[string]{
	"sqlite":   "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) AS n FROM c WHERE x > ${args.n}",
	"postgres": "SELECT pg_sleep(60) AS slept, ${args.n}::int AS n",
	"mariadb":  "SELECT SLEEP(60) AS slept, ${args.n} AS n",
}

// stoppedWithin is the time a stopped slow query must end in: far above
// any stop's own delay on a loaded machine, far below the query's minute.
const stoppedWithin = 30 * time.Second

// TestCallDeadline stops a query at the caller's deadline (a tool's
// timeout), earlier than statement_timeout, and names that limit; a
// cancelled call says so.
func TestCallDeadline(t *testing.T) {
	for _, name := range testDBs {
		t.Run(name, func(t *testing.T) {
			db := openTestDB(t, name)
			b, a := compileTestCall(t, db, "", slowQueries.For(name), "", false)
			open(t, b)
			req := &adapter.Request{Args: argsVal(map[string]cty.Value{"n": cty.NumberIntVal(0)}), Static: &eval.Static{}}
			check := func(ctx context.Context, want string) {
				t.Helper()
				start := time.Now()
				_, err := a.Invoke(ctx, req)
				if elapsed := time.Since(start); elapsed > stoppedWithin {
					t.Errorf("the call took %v", elapsed)
				}
				var ce *adapter.CallError
				if !errors.As(err, &ce) || ce.Message != want {
					t.Errorf("err = %v (%T), want a CallError %q", err, err, want)
				}
			}
			// As the server calls it: the tool's timeout on ctx and in the request.
			ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
			defer cancel()
			req.Timeout = 500 * time.Millisecond
			check(ctx, "The query did not finish within 500ms, the time limit of this call, and was stopped; narrow it (filter on more columns, or ask for fewer rows).")
			req.Timeout = 0

			ctx, cancel = context.WithCancel(context.Background())
			time.AfterFunc(300*time.Millisecond, cancel)
			check(ctx, "The call was cancelled before the query finished.")
		})
	}
}

// TestCheckUntypedNull shows the Postgres trap docs/language.md warns of:
// an optional argument compared only with IS NULL gives the server no type
// for its parameter, and mcpdecl check reports it.
func TestCheckUntypedNull(t *testing.T) {
	db := openTestDB(t, "postgres")
	b, a := compileTestCall(t, db, "", "SELECT ${args.n} IS NULL AS absent", "", false)
	open(t, b)
	diags := a.Check(context.Background())
	if len(diags) != 1 || !strings.Contains(diags[0].Detail, "could not determine data type of parameter $1") {
		t.Errorf("diagnostics = %v, want the untyped parameter", diags)
	}
}

func runCase(t *testing.T, db *testDB, tc runtimeCase) {
	table := uniqueTable()
	sub := func(s string) string { return strings.ReplaceAll(s, "{t}", table) }
	t.Cleanup(func() {
		if db.name == "postgres" {
			db.admin.Exec(sub("DROP FUNCTION IF EXISTS {t}_f(text)"))
		}
		db.admin.Exec(sub("DROP TABLE IF EXISTS {t}"))
		db.admin.Exec(sub("DROP TABLE IF EXISTS {t}_p"))
	})
	for _, s := range tc.setup.For(db.name) {
		if _, err := db.admin.Exec(sub(s)); err != nil {
			t.Fatalf("setup %q: %v", sub(s), err)
		}
	}
	query := tc.query.For(db.name)
	if query == "" {
		t.Fatalf("no query for %s", db.name)
	}
	callDB := db
	if tc.foreignKeys && db.name == "sqlite" {
		fk := *db
		fk.dsn += "?_pragma=foreign_keys(1)"
		callDB = &fk
	}
	b, a := compileTestCall(t, callDB, tc.backend, sub(query), tc.call, tc.write)
	switch tc.forceReadOnly {
	case "backend":
		b.ReadOnly, a.ReadOnly = true, true
	case "call":
		a.ReadOnly = true
	}
	open(t, b)
	args := map[string]cty.Value{}
	for k, v := range tc.args {
		if v.Type() == cty.String {
			v = cty.StringVal(sub(v.AsString()))
		}
		args[k] = v
	}

	if tc.kill {
		checkKill(t, db, a, args)
		return
	}

	start := time.Now()
	res, err := invoke(a, args)
	elapsed := time.Since(start)
	if tc.maxTime > 0 && elapsed > tc.maxTime {
		t.Errorf("the call took %v, more than %v", elapsed, tc.maxTime)
	}
	w := tc.want.For(db.name)
	if w.errText != "" {
		var ce *adapter.CallError
		if !errors.As(err, &ce) {
			t.Fatalf("err = %v (%T), want a CallError; result %+v", err, err, res)
		}
		t.Logf("message: %s", ce.Message)
		if !strings.Contains(ce.Message, sub(w.errText)) {
			t.Errorf("message:\n got %q\nwant it to contain %q", ce.Message, sub(w.errText))
		}
		if w.maxLen > 0 && len(ce.Message) > w.maxLen {
			t.Errorf("message of %d bytes, more than %d", len(ce.Message), w.maxLen)
		}
		if ce.Retryable != w.retryable {
			t.Errorf("retryable = %v, want %v", ce.Retryable, w.retryable)
		}
		if strings.Contains(ce.Message, db.dsn) {
			t.Errorf("the message holds the DSN: %q", ce.Message)
		}
	} else {
		if err != nil {
			t.Fatalf("invoke: %v", err)
		}
		checkResult(t, res, w)
	}
	if q := tc.after.For(db.name); q != "" {
		var n int64
		if err := db.admin.QueryRow(sub(q)).Scan(&n); err != nil {
			t.Fatalf("after %q: %v", sub(q), err)
		}
		if n != tc.afterWant {
			t.Errorf("after the call, %q = %d, want %d", sub(q), n, tc.afterWant)
		}
	}
}

func checkResult(t *testing.T, res *adapter.Result, w want) {
	t.Helper()
	f := res.Fields
	keys := make([]string, 0, len(f))
	for k := range f {
		keys = append(keys, k)
	}
	if diff := cmp.Diff([]string{"columns", "last_insert_id", "rows", "rows_affected", "truncated"}, sortedStrings(keys)); diff != "" {
		t.Errorf("field names (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(w.rows, f["rows"]); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if w.columns != nil {
		if diff := cmp.Diff(w.columns, f["columns"]); diff != "" {
			t.Errorf("columns (-want +got):\n%s", diff)
		}
	}
	if f["rows_affected"] != w.affected || f["last_insert_id"] != w.lastID || f["truncated"] != w.truncated {
		t.Errorf("rows_affected, last_insert_id, truncated = %v, %v, %v; want %v, %v, %v",
			f["rows_affected"], f["last_insert_id"], f["truncated"], w.affected, w.lastID, w.truncated)
	}
	if !strings.Contains(res.Text, w.text) {
		t.Errorf("text:\n%s\nwant it to contain:\n%s", res.Text, w.text)
	}
	if _, isExec := res.Structured["rows_affected"]; !isExec {
		if diff := cmp.Diff(w.rows, res.Structured["rows"]); diff != "" {
			t.Errorf("structured rows (-want +got):\n%s", diff)
		}
		if got := res.Structured["truncated"] == true; got != w.truncated {
			t.Errorf("structured truncated = %v, want %v", got, w.truncated)
		}
		// The text is JSON (up to the truncation note) holding the rows.
		text, _, _ := strings.Cut(res.Text, "\nShowing")
		var back []map[string]any
		if err := json.Unmarshal([]byte(text), &back); err != nil {
			t.Errorf("text is not JSON: %v\n%s", err, res.Text)
		} else if len(back) != len(w.rows) {
			t.Errorf("text holds %d rows, want %d", len(back), len(w.rows))
		}
	}
	if _, err := json.Marshal(res.Structured); err != nil {
		t.Errorf("structured content does not marshal: %v", err)
	}
}

func sortedStrings(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// checkKill calls, has the server drop the call's connection, and checks
// the next call succeeds.
func checkKill(t *testing.T, db *testDB, a *Action, args map[string]cty.Value) {
	t.Helper()
	res, err := invoke(a, args)
	if err != nil {
		t.Fatalf("first call: %v", err)
	}
	id := res.Fields["rows"].([]map[string]any)[0]["id"]
	var kill string
	switch db.name {
	case "postgres":
		kill = fmt.Sprintf("SELECT pg_terminate_backend(%v)", id)
	case "mariadb":
		kill = fmt.Sprintf("KILL CONNECTION %v", id)
	}
	if _, err := db.admin.Exec(kill); err != nil {
		t.Fatalf("%s: %v", kill, err)
	}
	time.Sleep(100 * time.Millisecond) // let the server close the socket
	res, err = invoke(a, args)
	if err != nil {
		t.Fatalf("the call after %s failed: %v", kill, err)
	}
	if got := res.Fields["rows"].([]map[string]any)[0]["id"]; got == id {
		t.Errorf("the call after %s ran on the killed connection %v", kill, id)
	}
}
