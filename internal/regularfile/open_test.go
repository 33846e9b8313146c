//go:build unix

package regularfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOpenIn: a regular file inside the root is opened; a name leaving
// the root (.., absolute, a link pointing out) is refused by the root, and
// a named pipe inside it is refused at once.
func TestOpenIn(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "in")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.yaml"), []byte("a"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(top, "out.yaml"), []byte("out"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(top, "out.yaml"), filepath.Join(dir, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.yaml"), 0o600); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	f, err := OpenIn(root, "a.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, name := range []string{"../out.yaml", filepath.Join(top, "out.yaml"), "link.yaml"} {
		if f, err := OpenIn(root, name); err == nil {
			f.Close()
			t.Errorf("OpenIn(%s) opened a file outside the root", name)
		}
	}
	if _, err := OpenIn(root, "pipe.yaml"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a named pipe: %v", err)
	}
	if _, err := Open(filepath.Join(dir, "pipe.yaml")); !errors.Is(err, ErrNotRegular) {
		t.Errorf("Open of a named pipe: %v", err)
	}
}
