package sqladapter

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/internal/regularfile"
)

// CheckOpen opens the backend for `mcpdecl check`, which promises to run
// nothing that changes a database. A Postgres or MySQL backend is opened as
// Open does. An SQLite database file is opened read-only, and one that does
// not exist yet is not created: when init_sql would create it, the queries
// are checked against a temporary in-memory database built from init_sql,
// and the note says so. Failures are diagnostics at the dsn attribute;
// the calls of a backend that could not be opened are then not checked
// (Check reports nothing more for them).
func (b *Backend) CheckOpen(ctx context.Context) (note string, diags hcl.Diagnostics) {
	var err error
	if b.Driver == SQLite {
		note, err = b.checkOpenSQLite(ctx)
	} else {
		err = b.Open(ctx)
	}
	if err != nil {
		b.checkFailed.Store(true)
		return "", hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Backend unreachable",
			Detail:  fmt.Sprintf("The backend %q could not be opened: %s.", b.Name, b.scrub(err.Error())),
			Subject: b.DSNRange.Ptr()}}
	}
	return note, nil
}

// checkOpenSQLite opens an SQLite backend without creating or changing its
// file.
func (b *Backend) checkOpenSQLite(ctx context.Context) (string, error) {
	dsn, err := parseSQLiteDSN(b.DSN, b.BaseDir)
	if err != nil {
		return "", err
	}
	if dsn.memory {
		return "", b.Open(ctx) // nothing on disk to change
	}
	_, statErr := os.Stat(dsn.path)
	switch {
	case statErr == nil || !errors.Is(statErr, fs.ErrNotExist):
		ro := *dsn
		ro.uri = true
		ro.query = maps.Clone(dsn.query)
		ro.query.Set("mode", "ro")
		db, err := sql.Open("sqlite", ro.String())
		if err != nil {
			return "", err
		}
		return "", b.checkUse(ctx, db, "the SQLite database "+dsn.path)
	case b.InitSQL != "":
		db, err := scratchDB(ctx, b.InitSQL)
		if err != nil {
			return "", fmt.Errorf("init_sql failed: %w", err)
		}
		return fmt.Sprintf("%s: the database file %s does not exist yet; serve will create it from init_sql. check created no file: it checked the queries against a temporary in-memory database built from init_sql.", b.Name, dsn.path), b.checkUse(ctx, db, "")
	case dsn.query.Get("mode") == "rwc":
		db, err := scratchDB(ctx, "")
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s: the database file %s does not exist yet; serve will create it empty (mode=rwc). check created no file: it checked the queries against an empty in-memory database.", b.Name, dsn.path), b.checkUse(ctx, db, "")
	}
	return "", sqliteFileExists(dsn.path)
}

// checkUse pings db (when what names it) and makes it the backend's only
// pool, for reads and writes alike: check prepares statements, it never
// runs them.
func (b *Backend) checkUse(ctx context.Context, db *sql.DB, what string) error {
	if what != "" {
		if err := ping(ctx, db, what); err != nil {
			db.Close()
			return err
		}
	}
	p := &pools{ro: db}
	if !b.ReadOnly {
		p.rw = db
	}
	if !b.state.CompareAndSwap(nil, p) {
		p.close()
	}
	return nil
}

// scratchDB returns a private in-memory database built from the SQL file
// script ("" for an empty one). Its pool holds one connection, which holds
// the database.
func scratchDB(ctx context.Context, script string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	if script != "" {
		text, err := regularfile.Read(script)
		if err == nil {
			_, err = db.ExecContext(ctx, string(text))
		}
		if err != nil {
			db.Close()
			return nil, err
		}
	}
	return db, nil
}
