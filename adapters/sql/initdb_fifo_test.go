//go:build unix

package sqladapter

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestInitSQLMustBeRegular: an init_sql that is a named pipe is an error
// at start, not a start that waits for a writer forever.
func TestInitSQLMustBeRegular(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "init.sql")
	if err := syscall.Mkfifo(script, 0o600); err != nil {
		t.Fatal(err)
	}
	err := EnsureSQLiteFile(filepath.Join(dir, "app.db"), script)
	if err == nil || !strings.Contains(err.Error(), "cannot read init_sql") || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("init_sql from a named pipe: %v", err)
	}
}
