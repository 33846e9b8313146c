package sqladapter

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/check"
	"github.com/mcpdecl/mcpdecl/internal/english"
	"github.com/mcpdecl/mcpdecl/internal/rule"
)

// Defaults of a backend "sql" block.
const (
	DefaultMaxOpenConns     = 10
	DefaultStatementTimeout = 30 * time.Second
	DefaultMaxRows          = 1000
)

// Dialects lists the driver names a backend may give.
var Dialects = []Dialect{SQLite, Postgres, MySQL}

// Backend is a compiled `backend "sql"` block.
type Backend struct {
	Name   string
	Driver Dialect
	// DSN is the data source name as written; it may hold a password. Empty
	// when not known at load time.
	DSN string
	// BaseDir is the directory of the config file that set dsn, against
	// which a relative SQLite path is resolved.
	BaseDir string
	// DSNRange is where dsn is set, for the diagnostics of mcpdecl check.
	DSNRange hcl.Range
	ReadOnly bool
	// MaxOpenConns caps the pool; ConnMaxLifetime 0 keeps connections.
	MaxOpenConns     int
	ConnMaxLifetime  time.Duration
	StatementTimeout time.Duration
	// LongestToolTimeout is the longest timeout a tool calling this backend
	// sets (raised by CompileCall through noteToolTimeout). The database's
	// own limit, set on each connection, allows that long, so a tool's
	// timeout stays the deadline of its calls.
	LongestToolTimeout time.Duration
	timeoutMu          sync.Mutex // tools compile at the same time
	// MaxRows is the default row limit of the calls.
	MaxRows int
	// InitSQL is the path of an SQL file (resolved against the config
	// file's directory) that creates the SQLite database when its file is
	// missing at Open; empty for none.
	InitSQL string
	// Identity, when set, runs each statement as the caller: a role and
	// settings from auth.* (see identity.go).
	Identity *Identity

	state atomic.Pointer[pools] // set by Open
	// checkFailed is set when CheckOpen reported that the backend could
	// not be opened, so that its calls are not reported again one by one.
	checkFailed atomic.Bool
}

var _ adapter.Backend = (*Backend)(nil)

// noteToolTimeout raises LongestToolTimeout to d.
func (b *Backend) noteToolTimeout(d time.Duration) {
	b.timeoutMu.Lock()
	defer b.timeoutMu.Unlock()
	b.LongestToolTimeout = max(b.LongestToolTimeout, d)
}

// serverLimit is the statement limit set on the database side of each
// connection: statement_timeout, or longer when a tool's timeout asks for
// more. 0 sets none.
func (b *Backend) serverLimit() time.Duration {
	if b.StatementTimeout <= 0 {
		return 0
	}
	return max(b.StatementTimeout, b.LongestToolTimeout)
}

// Describe returns the backend's settings, with the DSN's password hidden.
func (b *Backend) Describe() map[string]any {
	d := map[string]any{
		"kind":              Kind,
		"name":              b.Name,
		"driver":            string(b.Driver),
		"dsn":               RedactDSN(b.Driver, b.DSN),
		"read_only":         b.ReadOnly,
		"max_open_conns":    b.MaxOpenConns,
		"statement_timeout": b.StatementTimeout.String(),
		"max_rows":          b.MaxRows,
	}
	if b.ConnMaxLifetime > 0 {
		d["conn_max_lifetime"] = b.ConnMaxLifetime.String()
	}
	if b.InitSQL != "" {
		d["init_sql"] = b.InitSQL
	}
	if id := b.Identity; id != nil {
		names := make([]any, len(id.Settings))
		for i, s := range id.Settings {
			names[i] = s.Name
		}
		d["identity"] = map[string]any{"role": id.Role != nil, "settings": names}
	}
	return d
}

func compileBackend(bb *adapter.BackendBlock) (*Backend, hcl.Diagnostics) {
	s := bb.Scope
	b := &Backend{
		Name:             bb.Name,
		Driver:           SQLite,
		ReadOnly:         true,
		MaxOpenConns:     DefaultMaxOpenConns,
		StatementTimeout: DefaultStatementTimeout,
		MaxRows:          DefaultMaxRows,
	}
	content, diags := bb.Body.Content(BackendSchema)
	a := content.Attributes
	var d hcl.Diagnostics

	if drv, known, d := check.String(s, a["driver"], ""); known {
		diags = append(diags, d...)
		dialect, dd := parseDriver(drv, a["driver"].Expr.Range())
		diags = append(diags, dd...)
		if dialect != "" {
			b.Driver = dialect
		}
	} else {
		diags = append(diags, d...)
	}
	if dsn, known, d := check.String(s, a["dsn"], ""); known {
		diags = append(diags, d...)
		if strings.TrimSpace(dsn) == "" {
			diags = append(diags, check.Error("Empty DSN",
				"dsn says which database to open, such as \"file:orders.db\" for SQLite or \"postgres://user@host/db\" for Postgres; it cannot be empty.",
				a["dsn"].Expr.Range()))
		}
		b.DSN = dsn
	} else {
		diags = append(diags, d...)
	}
	if attr := a["dsn"]; attr != nil {
		b.BaseDir = check.Path(attr, ".")
		b.DSNRange = attr.Expr.Range()
		if strings.TrimSpace(b.DSN) != "" && !diags.HasErrors() {
			if problem := dsnProblem(b.Driver, b.DSN, b.BaseDir); problem != "" {
				diags = append(diags, check.Error("Invalid DSN",
					fmt.Sprintf("The %s DSN cannot be read: %s. Fix the dsn; serve would refuse it too.", dialectName[b.Driver], b.scrub(problem)),
					b.DSNRange))
			}
		}
	}
	b.ReadOnly, _, d = check.Bool(s, a["read_only"], true)
	diags = append(diags, d...)
	n, d := check.Int(s, a["max_open_conns"], DefaultMaxOpenConns, 1)
	diags = append(diags, d...)
	b.MaxOpenConns = int(n)
	b.ConnMaxLifetime, d = check.Duration(s, a["conn_max_lifetime"], 0)
	diags = append(diags, d...)
	b.StatementTimeout, d = check.Duration(s, a["statement_timeout"], DefaultStatementTimeout)
	diags = append(diags, d...)
	n, d = check.Int(s, a["max_rows"], DefaultMaxRows, 1)
	diags = append(diags, d...)
	b.MaxRows = int(n)
	if attr := a["init_sql"]; attr != nil {
		p, known, d := check.String(s, attr, "")
		diags = append(diags, d...)
		if known && !d.HasErrors() {
			var dsn *sqliteDSN
			if b.Driver == SQLite && b.DSN != "" {
				dsn, _ = parseSQLiteDSN(b.DSN, b.BaseDir)
			}
			b.InitSQL, d = checkInitSQL(attr, p, b.Driver, dsn)
			diags = append(diags, d...)
		}
	}
	if blk, d := check.Single(content.Blocks.OfType("identity"), "identity", fmt.Sprintf("The backend %q", bb.Name)); blk != nil {
		diags = append(diags, d...)
		b.Identity, d = decodeIdentity(bb, blk, b.Driver)
		diags = append(diags, d...)
	} else {
		diags = append(diags, d...)
	}
	return b, diags
}

// checkInitSQL checks the init_sql attribute: an SQLite backend only, with
// a database file (dsn, when known and read), and an SQL file that exists.
// It returns the path resolved against the config file.
func checkInitSQL(attr *hcl.Attribute, p string, d Dialect, dsn *sqliteDSN) (string, hcl.Diagnostics) {
	r := attr.Expr.Range()
	if d == SQLite && dsn != nil && dsn.memory {
		return "", hcl.Diagnostics{check.Error("init_sql needs a database file",
			"init_sql creates a database file when it is missing, and this dsn names an in-memory database, which starts empty on every open. Name a file in dsn (such as \"file:orders.db\"), or remove init_sql.", r)}
	}
	if d != SQLite {
		return "", hcl.Diagnostics{check.Error("init_sql needs SQLite",
			fmt.Sprintf("init_sql creates an embedded SQLite database file when it is missing; %s database is created by its server. Remove init_sql, or set driver = \"sqlite\".", english.A(string(d))), r)}
	}
	if strings.TrimSpace(p) == "" {
		return "", hcl.Diagnostics{check.Error("Empty init_sql",
			"init_sql names an SQL file, such as \"orders.sql\", relative to this configuration file; it cannot be empty. Remove it if the database file always exists.", r)}
	}
	full := check.Path(attr, p)
	st, err := os.Stat(full)
	switch {
	case err != nil:
		return "", hcl.Diagnostics{check.Error("init_sql file not found",
			fmt.Sprintf("The file %q does not exist (paths are relative to the configuration file). Create it, or fix the path.", full), r)}
	case st.IsDir():
		return "", hcl.Diagnostics{check.Error("init_sql is a directory",
			fmt.Sprintf("%q is a directory; init_sql names one SQL file.", full), r)}
	}
	return full, nil
}

// parseDriver maps a driver name to its dialect; "mariadb" means mysql.
func parseDriver(name string, r hcl.Range) (Dialect, hcl.Diagnostics) {
	if name == "mariadb" {
		return MySQL, nil
	}
	names := make([]string, len(Dialects))
	for i, d := range Dialects {
		names[i] = string(d)
	}
	if slices.Contains(names, name) {
		return Dialect(name), nil
	}
	return "", hcl.Diagnostics{check.Error("Unknown SQL driver",
		fmt.Sprintf("driver must be %s (mariadb is accepted for mysql), not %q.%s", check.Quoted(names), name, rule.DidYouMean(name, append(names, "mariadb"))), r)}
}
