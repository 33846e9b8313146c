package sqladapter

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/mcpdecl/mcpdecl/adapter"
)

func init() {
	// The MySQL driver writes what it notices (a pooled connection the
	// server closed, say) to standard error by default, which would break
	// into the output of mcpdecl check and bypass the server's log.
	mysql.SetLogger(driverLog{})
}

// driverLog passes the MySQL driver's messages to the default slog
// logger, at debug level: what matters reaches the caller as an error.
type driverLog struct{}

func (driverLog) Print(v ...any) {
	slog.Debug("mysql driver: " + strings.TrimSpace(fmt.Sprint(v...)))
}

var (
	_ adapter.Opener             = (*Backend)(nil)
	_ interface{ Close() error } = (*Backend)(nil)
)

// pools is the runtime state of an open backend.
type pools struct {
	// rw runs the read-write calls; nil for a read-only backend.
	rw *sql.DB
	// ro runs the read-only calls. For SQLite it is a pool whose
	// connections set PRAGMA query_only (or rw itself when toggle is set);
	// for Postgres and MySQL it is the one pool, and each read-only call
	// runs in a read-only transaction.
	ro *sql.DB
	// toggle is set for a read-write private in-memory SQLite database,
	// which a second pool could not see: read-only calls switch
	// query_only on and off around the statement on a rw connection.
	toggle bool
	// mariadb is set when a mysql backend's server is MariaDB.
	mariadb bool
	// stmts holds prepared statements by stmtKey (SQLite only).
	stmts sync.Map
	// maxIdle is the number of idle connections a pool keeps; 0 for an
	// SQLite backend, whose idle connections are never dropped (the last
	// one of an in-memory database holds the data).
	maxIdle int
}

// dropIdle closes the idle connections of a Postgres or MySQL pool; the
// pools keep new idle connections afterwards as before. Connections in use
// are not touched: a broken one is dropped when its call fails.
func (p *pools) dropIdle() {
	if p.maxIdle == 0 {
		return
	}
	drop := func(db *sql.DB) {
		db.SetMaxIdleConns(-1) // closes every idle connection
		db.SetMaxIdleConns(p.maxIdle)
	}
	drop(p.ro)
	if p.rw != nil && p.rw != p.ro {
		drop(p.rw)
	}
}

type stmtKey struct {
	db *sql.DB
	q  *Query
}

// stmt returns the statement q prepared on db, preparing it on first use.
func (p *pools) stmt(ctx context.Context, db *sql.DB, q *Query) (*sql.Stmt, error) {
	k := stmtKey{db, q}
	if s, ok := p.stmts.Load(k); ok {
		return s.(*sql.Stmt), nil
	}
	s, err := db.PrepareContext(ctx, q.Text)
	if err != nil {
		return nil, err
	}
	if prev, loaded := p.stmts.LoadOrStore(k, s); loaded {
		s.Close()
		return prev.(*sql.Stmt), nil
	}
	return s, nil
}

func (p *pools) close() error {
	var errs []error
	p.stmts.Range(func(_, s any) bool {
		s.(*sql.Stmt).Close()
		return true
	})
	if p.ro != nil {
		errs = append(errs, p.ro.Close())
	}
	if p.rw != nil && p.rw != p.ro {
		errs = append(errs, p.rw.Close())
	}
	return errors.Join(errs...)
}

// Open opens the backend's connection pool and pings the database. For an
// SQLite backend with init_sql, it first creates the database file when it
// is missing. Errors name the backend and never hold the DSN's password.
// Open on an open backend does nothing.
func (b *Backend) Open(ctx context.Context) error {
	if b.state.Load() != nil {
		return nil
	}
	if b.StatementTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, max(b.StatementTimeout, 5*time.Second))
		defer cancel()
	}
	var (
		p   *pools
		err error
	)
	if strings.TrimSpace(b.DSN) == "" {
		return fmt.Errorf("backend \"sql\" %q: the DSN is empty; set dsn (or the variable or environment variable it comes from)", b.Name)
	}
	switch b.Driver {
	case SQLite:
		p, err = b.openSQLite(ctx)
	case Postgres:
		p, err = b.openPostgres(ctx)
	case MySQL:
		p, err = b.openMySQL(ctx)
	default:
		err = fmt.Errorf("unknown driver %q", b.Driver)
	}
	if err != nil {
		return &redactedError{msg: fmt.Sprintf("backend \"sql\" %q: %s", b.Name, b.scrub(err.Error())), err: err}
	}
	if !b.state.CompareAndSwap(nil, p) {
		p.close()
	}
	return nil
}

// Close closes the connection pool. It is safe to call on a backend that is
// not open.
func (b *Backend) Close() error {
	p := b.state.Swap(nil)
	if p == nil {
		return nil
	}
	return p.close()
}

// redactedError carries a message with the DSN's password hidden; the
// wrapped error (for errors.Is) may not be.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// setPool applies the backend's pool settings.
func (b *Backend) setPool(db *sql.DB, n int) {
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	db.SetConnMaxLifetime(b.ConnMaxLifetime)
}

func ping(ctx context.Context, db *sql.DB, what string) error {
	if err := db.PingContext(ctx); err != nil {
		return fmt.Errorf("cannot connect to %s: %w", what, err)
	}
	return nil
}

// sqliteDSN is a parsed SQLite DSN.
type sqliteDSN struct {
	uri    bool   // written as file:...
	path   string // the file path, resolved; "" or ":memory:" for memory
	query  url.Values
	memory bool
	shared bool // a shared-cache memory database, seen by every connection
}

func parseSQLiteDSN(dsn, baseDir string) (*sqliteDSN, error) {
	s := &sqliteDSN{}
	rest, rawQuery, _ := strings.Cut(dsn, "?")
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return nil, fmt.Errorf("invalid query string in the SQLite DSN: %w", err)
	}
	s.query = q
	if after, ok := strings.CutPrefix(rest, "file:"); ok {
		s.uri = true
		rest = after
		if h, ok := strings.CutPrefix(rest, "//"); ok {
			host, p, _ := strings.Cut(h, "/")
			if host != "" && host != "localhost" {
				// Not quoted: file://user:password@host/ would show the password.
				return nil, errors.New("an SQLite URI cannot name a host: write file:/path/to/file.db, file:///path/to/file.db or file:relative.db")
			}
			rest = "/" + p
		}
		if rest, err = url.PathUnescape(rest); err != nil {
			return nil, fmt.Errorf("invalid SQLite URI: %w", err)
		}
	}
	s.path = rest
	s.memory = rest == "" || rest == ":memory:" || q.Get("mode") == "memory"
	s.shared = s.memory && q.Get("cache") == "shared" || q.Get("vfs") == "memdb"
	s.memory = s.memory || q.Get("vfs") == "memdb"
	if !s.memory && !filepath.IsAbs(rest) && baseDir != "" {
		s.path = filepath.Join(baseDir, rest)
	}
	return s, nil
}

// String renders the DSN for the modernc driver with extra _pragma values.
func (s *sqliteDSN) String(pragmas ...string) string {
	q := url.Values{}
	for k, v := range s.query {
		q[k] = v
	}
	for _, p := range pragmas {
		q.Add("_pragma", p)
	}
	path := s.path
	if s.uri {
		path = "file:" + strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(path)
	}
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

func (s *sqliteDSN) hasPragma(name string) bool {
	for _, p := range s.query["_pragma"] {
		if strings.HasPrefix(strings.ToLower(strings.TrimSpace(p)), name) {
			return true
		}
	}
	return s.query.Has("_"+name) || name == "busy_timeout" && s.query.Has("_timeout")
}

func (b *Backend) openSQLite(ctx context.Context) (*pools, error) {
	dsn, err := parseSQLiteDSN(b.DSN, b.BaseDir)
	if err != nil {
		return nil, err
	}
	if b.InitSQL != "" {
		if dsn.memory {
			return nil, errors.New("init_sql needs a database file, not an in-memory database")
		}
		if err := EnsureSQLiteFile(dsn.path, b.InitSQL); err != nil {
			return nil, err
		}
	}
	// SQLite would create a missing file empty, so a misspelt path would
	// only show later as "no such table". A file is created only by
	// init_sql or when the DSN asks for it (mode=rwc); then even a
	// read-only backend (which does not use mode=ro for that reason) may
	// open it empty, for a writer on the same file to fill.
	if b.InitSQL == "" && !dsn.memory && dsn.query.Get("mode") != "rwc" {
		if err := sqliteFileExists(dsn.path); err != nil {
			return nil, err
		}
	}
	var pragmas []string
	if !dsn.hasPragma("busy_timeout") {
		pragmas = append(pragmas, "busy_timeout(5000)")
	}
	open := func(extra ...string) (*sql.DB, error) {
		db, err := sql.Open("sqlite", dsn.String(append(pragmas, extra...)...))
		if err != nil {
			return nil, err
		}
		n := b.MaxOpenConns
		if dsn.memory && !dsn.shared {
			n = 1 // each connection would be its own database
		}
		b.setPool(db, n)
		if dsn.memory {
			db.SetConnMaxLifetime(0) // closing the last connection drops the database
		}
		return db, nil
	}
	what := "the SQLite database " + dsn.path
	if dsn.memory {
		what = "the in-memory SQLite database"
	}
	p := &pools{}
	if !b.ReadOnly {
		if p.rw, err = open(); err != nil {
			return nil, err
		}
		if err := ping(ctx, p.rw, what); err != nil {
			p.close()
			return nil, err
		}
		if dsn.memory && !dsn.shared {
			p.ro, p.toggle = p.rw, true
			return p, nil
		}
	}
	if p.ro, err = open("query_only(1)"); err != nil {
		p.close()
		return nil, err
	}
	if err := ping(ctx, p.ro, what); err != nil {
		p.close()
		return nil, err
	}
	return p, nil
}

// sqliteFileExists reports a missing database file by its absolute path.
// Other failures to look at it are left for SQLite to report on opening.
func sqliteFileExists(path string) error {
	_, err := os.Stat(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if abs, absErr := filepath.Abs(path); absErr == nil {
		path = abs
	}
	return fmt.Errorf("database file not found: %s; check the dsn, or add init_sql to create it", path)
}

func (b *Backend) openPostgres(ctx context.Context) (*pools, error) {
	cfg, err := postgresConfig(b.DSN)
	if err != nil {
		return nil, err
	}
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	if _, ok := cfg.RuntimeParams["application_name"]; !ok {
		cfg.RuntimeParams["application_name"] = "mcpdecl"
	}
	// Session settings go in a SET after connecting rather than in the
	// startup packet, which PgBouncer refuses for parameters it does not
	// know.
	var set []string
	if b.StatementTimeout > 0 {
		set = append(set, fmt.Sprintf("SET statement_timeout = %d", b.serverLimit().Milliseconds()))
	}
	if b.ReadOnly {
		set = append(set, "SET default_transaction_read_only = on")
	}
	var opts []stdlib.OptionOpenDB
	if len(set) > 0 {
		setSQL := strings.Join(set, "; ")
		opts = append(opts, stdlib.OptionAfterConnect(func(ctx context.Context, c *pgx.Conn) error {
			_, err := c.Exec(ctx, setSQL)
			return err
		}))
	}
	db := stdlib.OpenDB(*cfg, opts...)
	b.setPool(db, b.MaxOpenConns)
	if err := ping(ctx, db, fmt.Sprintf("Postgres at %s", RedactDSN(b.Driver, b.DSN))); err != nil {
		db.Close()
		return nil, err
	}
	p := &pools{ro: db, maxIdle: b.MaxOpenConns}
	if !b.ReadOnly {
		p.rw = db
	}
	return p, nil
}

// mysqlConfig parses a MySQL DSN and enforces the settings the adapter
// relies on: server-side placeholders (interpolateParams=false), one
// statement per call (multiStatements=false), DATETIME as time
// (parseTime=true), and rows_affected counting the rows an UPDATE matched,
// not only those it changed (clientFoundRows=true), as PostgreSQL and
// SQLite count them, so that rows_affected == 0 means "no such row". Its
// errors quote no part of the DSN that may be the password (see
// mysqlDSNProblem).
func mysqlConfig(dsn string) (*mysql.Config, error) {
	if urlScheme.MatchString(dsn) {
		// The driver would read mysql://user:pw@host/db as the user
		// "mysql" with the password "//user:pw", and fail on the network.
		return nil, errors.New(mysqlURLHint)
	}
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		return nil, errors.New(mysqlDSNProblem(dsn, err))
	}
	cfg.InterpolateParams = false
	cfg.MultiStatements = false
	cfg.ParseTime = true
	cfg.ClientFoundRows = true
	if cfg.Params == nil {
		cfg.Params = map[string]string{}
	}
	return cfg, nil
}

func (b *Backend) openMySQL(ctx context.Context) (*pools, error) {
	cfg, err := mysqlConfig(b.DSN)
	if err != nil {
		return nil, fmt.Errorf("invalid MySQL DSN: %w", err)
	}
	what := fmt.Sprintf("MySQL at %s", RedactDSN(b.Driver, b.DSN))
	// Ask the server which flavour it is: MySQL and MariaDB name the
	// statement timeout differently.
	probe, err := mysqlDB(cfg)
	if err != nil {
		return nil, err
	}
	probe.SetMaxOpenConns(1)
	var version string
	if err := ping(ctx, probe, what); err != nil {
		probe.Close()
		return nil, err
	}
	err = probe.QueryRowContext(ctx, "SELECT VERSION()").Scan(&version)
	probe.Close()
	if err != nil {
		return nil, fmt.Errorf("cannot read the server version of %s: %w", what, err)
	}
	p := &pools{mariadb: strings.Contains(strings.ToLower(version), "mariadb"), maxIdle: b.MaxOpenConns}
	if b.StatementTimeout > 0 {
		if p.mariadb {
			cfg.Params["max_statement_time"] = strconv.FormatFloat(b.serverLimit().Seconds(), 'f', -1, 64)
		} else {
			cfg.Params["max_execution_time"] = strconv.FormatInt(b.serverLimit().Milliseconds(), 10)
		}
	}
	db, err := mysqlDB(cfg)
	if err != nil {
		return nil, err
	}
	b.setPool(db, b.MaxOpenConns)
	if err := ping(ctx, db, what); err != nil {
		db.Close()
		return nil, err
	}
	p.ro = db
	if !b.ReadOnly {
		p.rw = db
	}
	return p, nil
}

func mysqlDB(cfg *mysql.Config) (*sql.DB, error) {
	c, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, err
	}
	return sql.OpenDB(c), nil
}
