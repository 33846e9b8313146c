// Package sqladapter compiles `backend "sql"` blocks and `sql "<backend>"
// { ... }` call blocks.
//
// A backend names the driver (sqlite, postgres or mysql), the DSN and the
// pool and safety settings. A call holds one SQL statement written as an
// HCL string template: each ${...} is compiled at load time into a
// placeholder (? or $n) plus a bound parameter, so no argument value ever
// becomes SQL text. See [CompileQuery].
//
// Load time (no I/O beyond checking that an init_sql file exists) compiles
// the schemas into [Backend] and [Action] values. At serve time,
// [Backend.Open] opens the connection pool and [Action.Invoke] runs the
// statement with its bound parameters.
//
// Read-only is enforced in layers: the compiler refuses statements that
// write; SQLite read-only calls use connections with PRAGMA query_only;
// Postgres and MySQL/MariaDB read-only calls run in a read-only transaction
// (and a read-only Postgres backend also sets
// default_transaction_read_only). The real boundary remains a database
// role that may only read.
//
// Drivers: modernc.org/sqlite (pure Go), pgx through database/sql, and
// go-sql-driver/mysql with interpolateParams=false, multiStatements=false,
// parseTime=true and clientFoundRows=true forced whatever the DSN says. The statement timeout is
// a context deadline on every call plus the server's own limit, set on each
// new connection: Postgres statement_timeout, MySQL max_execution_time
// (SELECT only) or MariaDB max_statement_time (chosen by the server's
// version at Open). A call whose connection the server dropped runs once
// more on a fresh one when that is safe: always for read-only calls, for
// writes only when the statement surely did not run.
//
// An SQLite backend may set init_sql to a file of SQL statements: when the
// database file does not exist at Open, it is created from that file in one
// transaction (see [EnsureSQLiteFile]), so an example works on a fresh clone
// with nothing installed.
package sqladapter

import (
	"reflect"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/eval"
)

// Kind is the block type this adapter serves.
const Kind = "sql"

// Adapter is the SQL adapter. The zero value is ready to use.
type Adapter struct{}

// New returns the SQL adapter.
func New() *Adapter { return &Adapter{} }

var _ adapter.Adapter = (*Adapter)(nil)

// Info describes the adapter.
func (*Adapter) Info() adapter.Info {
	return adapter.Info{
		Name:         Kind,
		Summary:      "Runs one SQL statement against a database declared in a backend \"sql\" block.",
		NeedsBackend: true,
		ResultEnv: []eval.EnvField{
			{Name: "rows", Type: reflect.TypeFor[[]map[string]any]()},
			{Name: "columns", Type: reflect.TypeFor[[]string]()},
			{Name: "rows_affected", Type: reflect.TypeFor[int]()},
			{Name: "last_insert_id", Type: reflect.TypeFor[int]()},
			{Name: "truncated", Type: reflect.TypeFor[bool]()},
		},
	}
}

// BackendSchema is the body schema of a `backend "sql"` block.
var BackendSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "driver", Required: true},
		{Name: "dsn", Required: true},
		{Name: "read_only"},
		{Name: "max_open_conns"},
		{Name: "conn_max_lifetime"},
		{Name: "statement_timeout"},
		{Name: "max_rows"},
		{Name: "init_sql"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "identity"}},
}

// CallSchema is the body schema of a `sql "<backend>" { ... }` block.
var CallSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "query", Required: true},
		{Name: "max_rows"},
		{Name: "read_only"},
	},
}

// CompileBackend checks a `backend "sql"` block.
func (*Adapter) CompileBackend(b *adapter.BackendBlock) (adapter.Backend, hcl.Diagnostics) {
	return compileBackend(b)
}

// CompileCall checks a `sql "<backend>" { ... }` block.
func (*Adapter) CompileCall(c *adapter.CallBlock) (adapter.Action, hcl.Diagnostics) {
	return compileCall(c)
}
