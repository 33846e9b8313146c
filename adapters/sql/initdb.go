package sqladapter

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpdecl/mcpdecl/internal/regularfile"
)

// EnsureSQLiteFile creates the SQLite database file dbPath from the SQL
// statements in sqlPath when dbPath does not exist; when it exists,
// EnsureSQLiteFile does nothing (it never re-runs the SQL or checks the
// schema).
//
// The statements run in one transaction in a temporary file next to
// dbPath, which is then moved into place, so a failing script leaves no
// database behind and a concurrent reader never sees a half-built one. If
// another process creates dbPath meanwhile, its file wins.
//
// The file holds plain statements separated by semicolons, without BEGIN
// or COMMIT of its own. A backend "sql" with driver = "sqlite" calls
// EnsureSQLiteFile at Open when it sets init_sql = "<file>.sql", even when
// the backend is read-only: the file belongs to the configuration's
// author, not to the model.
func EnsureSQLiteFile(dbPath, sqlPath string) error {
	if _, err := os.Stat(dbPath); err == nil {
		return nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("cannot check the SQLite database file %s: %w", dbPath, err)
	}
	script, err := regularfile.Read(sqlPath)
	if err != nil {
		return fmt.Errorf("cannot read init_sql: %w", err)
	}
	var suffix [6]byte
	rand.Read(suffix[:])
	tmp := fmt.Sprintf("%s.init-%s", dbPath, hex.EncodeToString(suffix[:]))
	defer os.Remove(tmp)
	if err := runScript(tmp, string(script)); err != nil {
		return fmt.Errorf("cannot create the SQLite database %s from %s: %w", dbPath, sqlPath, err)
	}
	// Link fails when dbPath appeared meanwhile; keep that file then.
	if err := os.Link(tmp, dbPath); err != nil {
		if _, statErr := os.Stat(dbPath); statErr == nil {
			return nil
		}
		if err := os.Rename(tmp, dbPath); err != nil {
			return fmt.Errorf("cannot create the SQLite database %s: %w", dbPath, err)
		}
	}
	return nil
}

// runScript runs an SQL script in one transaction on a new database file.
func runScript(path, script string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	// A plain path: the driver strips any ?query, and file: URIs are not
	// needed for a path we made.
	db, err := sql.Open("sqlite", path+"?_pragma=journal_mode(delete)")
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// The driver runs every statement of a multi-statement text in turn.
	if strings.TrimSpace(script) != "" {
		if _, err := tx.ExecContext(ctx, script); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return db.Close()
}
