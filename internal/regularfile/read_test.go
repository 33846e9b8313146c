//go:build unix

package regularfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestRead: a regular file and a link to one are read; a named pipe (no
// writer: opening it blocking would never return), a folder and a device
// are refused.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "init.sql")
	if err := os.WriteFile(file, []byte("CREATE TABLE t (x);"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.sql")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{file, link} {
		if b, err := Read(p); err != nil || string(b) != "CREATE TABLE t (x);" {
			t.Errorf("Read(%s) = %q, %v", p, b, err)
		}
	}
	fifo := filepath.Join(dir, "pipe.sql")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, dir, "/dev/zero"} {
		_, err := Read(p)
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("Read(%s): %v, want ErrNotRegular", p, err)
		}
	}
	if _, err := Read(filepath.Join(dir, "absent.sql")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("absent file: %v", err)
	}
}
