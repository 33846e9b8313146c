package sqladapter

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/checktest"
	"github.com/mcpdecl/mcpdecl/eval"
)

// TestOrdersExample compiles the backend and the sql blocks of
// examples/orders.hcl (in a copy, so no database file is left in the
// repository) and runs them on a fresh directory: init_sql must create the
// database, and each query must answer.
func TestOrdersExample(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"orders.hcl", "orders.sql"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "examples", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	filename := filepath.Join(dir, "orders.hcl")
	src, _ := os.ReadFile(filename)
	f, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	argsType := cty.Object(map[string]cty.Type{
		"status": cty.String, "since": cty.String, "min_total": cty.Number, "id": cty.Number,
	})
	static := &eval.Static{Vars: map[string]cty.Value{"orders_db": cty.StringVal("orders.db")}}
	scope := &adapter.Scope{
		Names:    &eval.Names{Args: []string{"status", "since", "min_total", "id"}, ArgsWhere: "the example", Vars: []string{"orders_db"}},
		Static:   static,
		ArgsType: argsType,
		ArgsEnv:  reflect.TypeFor[map[string]any](),
		Files:    map[string]*hcl.File{filename: f},
	}
	body := f.Body.(*hclsyntax.Body)
	var backend *Backend
	calls := map[string]*Action{}
	for _, blk := range body.Blocks {
		if blk.Type == "backend" {
			b, diags := New().CompileBackend(&adapter.BackendBlock{Name: blk.Labels[1], Body: blk.Body, DeclRange: blk.DefRange(), Scope: scope})
			if len(diags) > 0 {
				t.Fatalf("backend: %s", diags.Error())
			}
			backend = b.(*Backend)
			continue
		}
		for _, inner := range blk.Body.Blocks {
			if inner.Type != Kind {
				continue
			}
			a, diags := New().CompileCall(&adapter.CallBlock{Owner: blk.Type + " " + blk.Labels[0], Backend: backend, Body: inner.Body, DeclRange: inner.DefRange(), TypeRange: inner.TypeRange, Scope: scope})
			if len(diags) > 0 {
				t.Fatalf("%s: %s", blk.Labels[0], diags.Error())
			}
			calls[blk.Labels[0]] = a.(*Action)
		}
	}
	if backend.InitSQL != filepath.Join(dir, "orders.sql") {
		t.Errorf("init_sql = %q", backend.InitSQL)
	}
	open(t, backend)
	if _, err := os.Stat(filepath.Join(dir, "orders.db")); err != nil {
		t.Fatalf("the database was not created: %v", err)
	}
	args := func(set map[string]cty.Value) cty.Value {
		m := map[string]cty.Value{}
		for name, ty := range argsType.AttributeTypes() {
			m[name] = cty.NullVal(ty)
			if v, ok := set[name]; ok {
				m[name] = v
			}
		}
		return cty.ObjectVal(m)
	}
	run := func(call string, set map[string]cty.Value) []map[string]any {
		t.Helper()
		res, err := calls[call].Invoke(context.Background(), &adapter.Request{Args: args(set), Static: static})
		if err != nil {
			t.Fatalf("%s: %v", call, err)
		}
		return res.Fields["rows"].([]map[string]any)
	}
	if diff := cmp.Diff([]map[string]any{
		{"customer": "Ada", "n": int64(2)}, {"customer": "Brian", "n": int64(1)}, {"customer": "Chen", "n": int64(1)},
	}, run("open_orders", map[string]cty.Value{"status": cty.StringVal("open")})); diff != "" {
		t.Errorf("open_orders (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]map[string]any{
		// NUMERIC affinity stores 990.00 as an integer.
		{"customer": "Dolores", "orders": int64(1), "total": int64(990)},
		{"customer": "Chen", "orders": int64(1), "total": 74.1},
	}, run("order_totals", map[string]cty.Value{"since": cty.StringVal("2026-10-05"), "min_total": cty.NumberIntVal(70)})); diff != "" {
		t.Errorf("order_totals (-want +got):\n%s", diff)
	}
	if rows := run("schema", nil); len(rows) != 1 || !strings.HasPrefix(rows[0]["sql"].(string), "CREATE TABLE orders") {
		t.Errorf("schema: %v", rows)
	}
	if diff := cmp.Diff([]map[string]any{
		{"id": int64(3), "customer": "Brian", "status": "open", "total": 18.99, "created_at": "2026-10-03T11:30:00Z"},
	}, run("order", map[string]cty.Value{"id": cty.NumberIntVal(3)})); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

func TestInitSQLDiagnostics(t *testing.T) {
	sqlFile := filepath.Join("..", "..", "examples", "orders.sql")
	tests := []struct {
		name, attrs string
		want        []string
	}{
		{"valid", `init_sql = "` + sqlFile + `"`, nil},
		{"postgres", `init_sql = "` + sqlFile + `"` + "\n" + `driver = "postgres"`, []string{"2:7 Invalid DSN", "3:12 init_sql needs SQLite"}},
		{"missing", `init_sql = "nope.sql"`, []string{"3:12 init_sql file not found"}},
		{"empty", `init_sql = ""`, []string{"3:12 Empty init_sql"}},
		{"directory", `init_sql = "."`, []string{"3:12 init_sql is a directory"}},
		{"not a string", `init_sql = ["a.sql"]`, []string{"3:12 Invalid value type"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "backend \"sql\" \"db\" {\ndsn = \"x.db\"\n" + tt.attrs + "\n}"
			if !strings.Contains(src, "driver") {
				src = strings.Replace(src, "\n}", "\ndriver = \"sqlite\"\n}", 1)
			}
			got := checktest.Compile(t, New(), src)
			if diff := cmp.Diff(tt.want, checktest.Format(got.Diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
				for _, d := range got.Diags {
					t.Logf("%s", d.Error())
				}
			}
		})
	}
}

func TestEnsureSQLiteFile(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "init.sql")
	os.WriteFile(script, []byte("CREATE TABLE t (a INTEGER);\nINSERT INTO t VALUES (1), (2);\n"), 0o644)
	db := filepath.Join(dir, "sub", "t.db")
	if err := EnsureSQLiteFile(db, script); err != nil {
		t.Fatal(err)
	}
	count := func() int {
		d, err := sql.Open("sqlite", db)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		var n int
		if err := d.QueryRow("SELECT count(*) FROM t").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(); n != 2 {
		t.Errorf("rows = %d, want 2", n)
	}
	// An existing database is left alone.
	os.WriteFile(script, []byte("INSERT INTO t VALUES (3);"), 0o644)
	if err := EnsureSQLiteFile(db, script); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 2 {
		t.Errorf("after a second call, rows = %d, want 2", n)
	}
	// A failing script leaves nothing behind: not half the tables, not the
	// temporary file.
	bad := filepath.Join(dir, "bad.sql")
	os.WriteFile(bad, []byte("CREATE TABLE u (a INTEGER);\nINSERT INTO nope VALUES (1);"), 0o644)
	db2 := filepath.Join(dir, "bad.db")
	err := EnsureSQLiteFile(db2, bad)
	if err == nil || !strings.Contains(err.Error(), "no such table: nope") {
		t.Errorf("err = %v, want one naming the missing table", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "bad.db") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, driver, dsn string
		readOnly          bool
		want              string
	}{
		{"sqlite directory missing", "sqlite", "file:nodir/x.db", true, `backend "sql" "db": database file not found: ` + filepath.Join(dir, "nodir", "x.db") + `; check the dsn, or add init_sql to create it`},
		{"sqlite directory missing, mode=rwc", "sqlite", "file:nodir/x.db?mode=rwc", true, `backend "sql" "db": cannot connect to the SQLite database ` + filepath.Join(dir, "nodir", "x.db") + `: unable to open database file`},
		{"empty dsn", "postgres", " ", true, `backend "sql" "db": the DSN is empty; set dsn`},
		{"postgres refused", "postgres", "postgres://app:s3cretpw@127.0.0.1:1/orders?connect_timeout=2", true, `backend "sql" "db": cannot connect to Postgres at postgres://app:xxxxx@127.0.0.1:1/orders?connect_timeout=2: `},
		{"postgres bad dsn", "postgres", "postgres://app:s3cretpw@127.0.0.1:1/orders?sslmode=bogus", true, `backend "sql" "db": invalid Postgres DSN: failed to configure TLS (sslmode is invalid)`},
		{"mysql refused", "mysql", "app:s3cretpw@tcp(127.0.0.1:1)/orders?timeout=2s", true, `backend "sql" "db": cannot connect to MySQL at app:xxxxx@tcp(127.0.0.1:1)/orders?timeout=2s: `},
		{"mysql bad dsn", "mysql", "app:s3cretpw@tcp(127.0.0.1:1)orders", true, `backend "sql" "db": invalid MySQL DSN: the database name is missing: end the DSN with /dbname`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &Backend{Name: "db", Driver: Dialect(tt.driver), DSN: tt.dsn, BaseDir: dir, ReadOnly: tt.readOnly, MaxOpenConns: 2, StatementTimeout: DefaultStatementTimeout}
			err := b.Open(context.Background())
			if err == nil {
				b.Close()
				t.Fatal("Open succeeded")
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, tt.want) {
				t.Errorf("error:\n got %q\nwant a prefix %q", msg, tt.want)
			}
			if strings.Contains(msg, "s3cretpw") {
				t.Errorf("the error holds the password: %q", msg)
			}
		})
	}
}

// TestSQLiteMissingFile refuses to open a database file that does not
// exist, naming its absolute path, unless init_sql or the DSN creates it.
func TestSQLiteMissingFile(t *testing.T) {
	dir := t.TempDir()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	relDir, err := filepath.Rel(wd, dir) // as a config file's directory given relative
	if err != nil {
		t.Fatal(err)
	}
	sqlFile := filepath.Join(dir, "init.sql")
	if err := os.WriteFile(sqlFile, []byte("CREATE TABLE t (a INTEGER);"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, dsn, initSQL string
		readOnly           bool
		wantErr            string // "" when Open must succeed
		created            string // the file Open must create, or ""
	}{
		{name: "misspelt, read-only", dsn: "file:chinok.db", readOnly: true,
			wantErr: `backend "sql" "db": database file not found: ` + filepath.Join(dir, "chinok.db") + `; check the dsn, or add init_sql to create it`},
		{name: "misspelt, read-write", dsn: "chinok.db",
			wantErr: `backend "sql" "db": database file not found: ` + filepath.Join(dir, "chinok.db") + `; check the dsn`},
		{name: "mode=ro", dsn: "file:chinok.db?mode=ro", readOnly: true, wantErr: "database file not found: "},
		{name: "mode=rwc asks to create", dsn: "file:new.db?mode=rwc", created: "new.db"},
		{name: "mode=rwc, read-only", dsn: "file:new-ro.db?mode=rwc", readOnly: true, created: "new-ro.db"},
		{name: "init_sql creates", dsn: "file:init.db", initSQL: sqlFile, readOnly: true, created: "init.db"},
		{name: "memory", dsn: ":memory:"},
		{name: "memory URI", dsn: "file::memory:", readOnly: true},
		{name: "shared memory", dsn: "file:mem1?mode=memory&cache=shared"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &Backend{Name: "db", Driver: SQLite, DSN: tt.dsn, BaseDir: relDir, ReadOnly: tt.readOnly,
				MaxOpenConns: 2, StatementTimeout: DefaultStatementTimeout, InitSQL: tt.initSQL}
			err := b.Open(context.Background())
			if err == nil {
				defer b.Close()
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("Open: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("Open error = %v, want %q", err, tt.wantErr)
			}
			if tt.created != "" {
				if _, err := os.Stat(filepath.Join(dir, tt.created)); err != nil {
					t.Errorf("the database file was not created: %v", err)
				}
			}
		})
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		switch e.Name() {
		case "init.sql", "init.db", "new.db", "new-ro.db":
		default:
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

func TestParseSQLiteDSN(t *testing.T) {
	tests := []struct {
		dsn, want string
		memory    bool
	}{
		{"orders.db", "/cfg/orders.db", false},
		{"file:orders.db", "file:/cfg/orders.db", false},
		{"file:data/orders.db?_pragma=foreign_keys(1)", "file:/cfg/data/orders.db?_pragma=foreign_keys%281%29", false},
		{"/abs/orders.db", "/abs/orders.db", false},
		{"file:///abs/my%20orders.db", "file:/abs/my orders.db", false},
		{"file:odd?name.db", "file:/cfg/odd", false}, // ? starts the query, as in SQLite
		{":memory:", ":memory:", true},
		{"file::memory:?cache=shared", "file::memory:?cache=shared", true},
		{"file:/shared.db?vfs=memdb", "file:/shared.db?vfs=memdb", true},
	}
	for _, tt := range tests {
		d, err := parseSQLiteDSN(tt.dsn, "/cfg")
		if err != nil {
			t.Errorf("%q: %v", tt.dsn, err)
			continue
		}
		if got := d.String(); got != tt.want && !strings.HasPrefix(got, tt.want+"?") {
			t.Errorf("%q → %q, want %q", tt.dsn, got, tt.want)
		}
		if d.memory != tt.memory {
			t.Errorf("%q: memory = %v", tt.dsn, d.memory)
		}
	}
	if _, err := parseSQLiteDSN("file://host/x.db", "/cfg"); err == nil {
		t.Error("a URI with a host was accepted")
	}
}

// TestSQLiteInMemoryReadWrite checks read-write in-memory databases: a
// private one (one connection, query_only switched on for read-only calls
// and off again after them) and a shared one (vfs=memdb, seen by both
// pools).
func TestSQLiteInMemoryReadWrite(t *testing.T) {
	for _, dsn := range []string{":memory:", "file:/mcpdecl-test.db?vfs=memdb"} {
		t.Run(dsn, func(t *testing.T) {
			db := &testDB{name: "sqlite", driver: "sqlite", dsn: dsn}
			b, create := compileTestCall(t, db, "", "CREATE TABLE t (a INTEGER)", "", true)
			open(t, b)
			if _, err := invoke(create, nil); err != nil {
				t.Fatal(err)
			}
			insert := &Action{Owner: "t", Backend: b, MaxRows: 10, Query: &Query{Text: "INSERT INTO t VALUES (1)", Verb: "INSERT"}}
			roInsert := &Action{Owner: "t", Backend: b, MaxRows: 10, Query: insert.Query, ReadOnly: true}
			var ce *adapter.CallError
			if _, err := invoke(roInsert, nil); !errors.As(err, &ce) || ce.Message != msgReadOnly {
				t.Errorf("read-only insert: err = %v", err)
			}
			res, err := invoke(insert, nil)
			if err != nil {
				t.Fatalf("insert after the read-only call: %v", err)
			}
			if res.Fields["rows_affected"] != 1 || res.Fields["last_insert_id"] != 1 {
				t.Errorf("fields = %v", res.Fields)
			}
			count := &Action{Owner: "t", Backend: b, MaxRows: 10, Query: &Query{Text: "SELECT count(*) AS n FROM t", Verb: "SELECT"}, ReadOnly: true}
			res, err = invoke(count, nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]map[string]any{{"n": int64(1)}}, res.Fields["rows"]); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGoValue(t *testing.T) {
	big, _ := cty.ParseNumberVal("123456789012345678901234567890")
	precise, _ := cty.ParseNumberVal("0.1000000000000000000001")
	tests := []struct {
		in   cty.Value
		want any
	}{
		{cty.StringVal("x"), "x"},
		{cty.True, true},
		{cty.NumberIntVal(-7), int64(-7)},
		{cty.NumberFloatVal(2.5), 2.5},
		{cty.MustParseNumberVal("0.1"), 0.1},
		{big, "123456789012345678901234567890"},
		{precise, "0.1000000000000000000001"},
		{cty.NullVal(cty.String), nil},
		{cty.StringVal("s").Mark("sensitive"), "s"},
	}
	for _, tt := range tests {
		got, err := goValue(tt.in)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("goValue(%#v) = %#v, %v; want %#v", tt.in, got, err, tt.want)
		}
	}
	if _, err := goValue(cty.ListValEmpty(cty.String)); err == nil {
		t.Error("a list was accepted")
	}
}

func TestRowsJSON(t *testing.T) {
	got := rowsJSON([]string{"b", "a"}, []map[string]any{{"b": "x<&>\"\n\u2028\x01", "a": nil}, {"b": int64(1), "a": []any{1.5, true}}})
	want := "[\n{\"b\": \"x<&>\\\"\\n\\u2028\\u0001\", \"a\": null},\n{\"b\": 1, \"a\": [1.5,true]}\n]"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// pointRead holds the two ways of reading one order by id that
// BenchmarkPointRead compares.
type pointRead struct {
	invoke func(i int) // through Action.Invoke
	plain  func(i int) // through database/sql, scanning the same columns
	// plainDeadline is plain with the statement timeout as a context
	// deadline, as Invoke runs it: the driver then watches the context.
	plainDeadline func(i int)
}

func newPointRead(b *testing.B) *pointRead {
	path := filepath.Join(b.TempDir(), "bench.db")
	setup, err := sql.Open("sqlite", path)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := setup.Exec("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT NOT NULL, status TEXT NOT NULL, total REAL NOT NULL)"); err != nil {
		b.Fatal(err)
	}
	tx, _ := setup.Begin()
	for i := 1; i <= 10000; i++ {
		tx.Exec("INSERT INTO orders VALUES (?, ?, 'open', ?)", i, fmt.Sprintf("customer %d", i%97), float64(i)/4)
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	setup.Close()

	be := &Backend{Name: "db", Driver: SQLite, DSN: "file:" + path, ReadOnly: true, MaxOpenConns: 4, StatementTimeout: DefaultStatementTimeout, MaxRows: DefaultMaxRows}
	if err := be.Open(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { be.Close() })
	expr, diags := hclsyntax.ParseTemplate([]byte("SELECT id, customer, status, total FROM orders WHERE id = ${args.n}"), "q.sql", hcl.InitialPos)
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	q, diags := CompileQuery(expr, SQLite, true, nil)
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	a := &Action{Owner: "bench", Backend: be, Query: q, MaxRows: 100, ReadOnly: true}
	static := &eval.Static{}
	args := make([]cty.Value, 10000)
	for i := range args {
		args[i] = argsVal(map[string]cty.Value{"n": cty.NumberIntVal(int64(i + 1))})
	}

	db, err := sql.Open("sqlite", path+"?_pragma=query_only(1)")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(4)
	db.SetMaxIdleConns(4)
	ctx := context.Background()
	var pr *pointRead
	pr = &pointRead{
		invoke: func(i int) {
			res, err := a.Invoke(ctx, &adapter.Request{Args: args[i%len(args)], Static: static})
			if err != nil || len(res.Fields["rows"].([]map[string]any)) != 1 {
				b.Fatal(err)
			}
		},
		plainDeadline: func(i int) {
			ctx, cancel := context.WithTimeout(ctx, DefaultStatementTimeout)
			defer cancel()
			pr.query(b, ctx, db, i)
		},
		plain: func(i int) { pr.query(b, ctx, db, i) },
	}
	return pr
}

func (*pointRead) query(b *testing.B, ctx context.Context, db *sql.DB, i int) {
	rows, err := db.QueryContext(ctx, "SELECT id, customer, status, total FROM orders WHERE id = ?", int64(i%10000+1))
	if err != nil {
		b.Fatal(err)
	}
	var (
		id               int64
		customer, status string
		total            float64
	)
	n := 0
	for rows.Next() {
		if err := rows.Scan(&id, &customer, &status, &total); err != nil {
			b.Fatal(err)
		}
		n++
	}
	rows.Close()
	if n != 1 {
		b.Fatal(n)
	}
}

// BenchmarkPointRead compares a SQLite point read through Action.Invoke
// with the same query through plain database/sql. The "interleaved"
// variant alternates batches of both, which keeps a busy machine's drift
// out of the difference, and reports it as added-ns/op.
func BenchmarkPointRead(b *testing.B) {
	p := newPointRead(b)
	b.Run("invoke", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			p.invoke(i)
		}
	})
	b.Run("database-sql", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			p.plain(i)
		}
	})
	b.Run("database-sql-deadline", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			p.plainDeadline(i)
		}
	})
	// The interleaved variant alternates batches of the three and
	// reports wall time per call and the process's CPU time per call
	// (user + system, all threads): on a machine shared with other work,
	// CPU time is the steadier measure.
	b.Run("interleaved", func(b *testing.B) {
		const batch = 50
		var wall, cpu [3]time.Duration
		runs := [3]func(int){p.invoke, p.plain, p.plainDeadline}
		for i := 0; b.Loop(); i++ {
			for k, run := range runs {
				c0, t0 := cpuTime(), time.Now()
				for j := range batch {
					run(i*batch + j)
				}
				wall[k] += time.Since(t0)
				cpu[k] += cpuTime() - c0
			}
		}
		n := float64(b.N * batch)
		for k, name := range []string{"invoke", "sql", "sql+deadline"} {
			b.ReportMetric(float64(wall[k])/n, name+"-ns/op")
			b.ReportMetric(float64(cpu[k])/n, name+"-cpu-ns/op")
		}
	})
}

// TestConcurrentInvoke shares one read action and one write action among
// goroutines, as the server does, on a read-write SQLite backend.
func TestConcurrentInvoke(t *testing.T) {
	db := openTestDB(t, "sqlite")
	if _, err := db.admin.Exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	b, insert := compileTestCall(t, db, "max_open_conns = 4", "INSERT INTO t (name) VALUES (${args.query})", "", true)
	read := &Action{Owner: "t", Backend: b, MaxRows: 1000, ReadOnly: true,
		Query: &Query{Text: "SELECT count(*) AS n FROM t WHERE name <> ?", Verb: "SELECT", Params: insert.Query.Params, argNames: insert.Query.argNames}}
	open(t, b)
	const workers, calls = 4, 25
	errs := make(chan error, workers*calls*2)
	done := make(chan struct{})
	for w := range workers {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range calls {
				args := map[string]cty.Value{"query": cty.StringVal(fmt.Sprintf("w%d-%d", w, i))}
				if _, err := invoke(insert, args); err != nil {
					errs <- err
				}
				if _, err := invoke(read, args); err != nil {
					errs <- err
				}
			}
		}()
	}
	for range workers {
		<-done
	}
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var n int
	db.admin.QueryRow("SELECT count(*) FROM t").Scan(&n)
	if n != workers*calls {
		t.Errorf("rows = %d, want %d", n, workers*calls)
	}
}

func TestMySQLConfigEnforced(t *testing.T) {
	cfg, err := mysqlConfig("app:pw@tcp(db:3306)/orders?multiStatements=true&interpolateParams=true&parseTime=false&clientFoundRows=false")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MultiStatements || cfg.InterpolateParams || !cfg.ParseTime || !cfg.ClientFoundRows {
		t.Errorf("multiStatements, interpolateParams, parseTime, clientFoundRows = %v, %v, %v, %v; want false, false, true, true",
			cfg.MultiStatements, cfg.InterpolateParams, cfg.ParseTime, cfg.ClientFoundRows)
	}
}

// TestSQLiteReadOnlyBeforeWriter opens a read-only backend on a database
// file that does not exist yet (the DSN asks to create it), then a read-write backend on the same file
// creates a table that the read-only backend then reads.
func TestSQLiteReadOnlyBeforeWriter(t *testing.T) {
	db := &testDB{name: "sqlite", driver: "sqlite", dsn: "file:" + filepath.Join(t.TempDir(), "later.db") + "?mode=rwc"}
	roBackend, read := compileTestCall(t, db, "", "SELECT count(*) AS n FROM t", "", false)
	open(t, roBackend)
	rwBackend, create := compileTestCall(t, db, "", "CREATE TABLE t (a INTEGER)", "", true)
	open(t, rwBackend)
	if _, err := invoke(create, nil); err != nil {
		t.Fatal(err)
	}
	res, err := invoke(read, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]map[string]any{{"n": int64(0)}}, res.Fields["rows"]); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}
