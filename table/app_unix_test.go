//go:build unix

package table_test

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestAppFileNotRegular refuses a named pipe as a page: reading it would
// block validate, and every read.
func TestAppFileNotRegular(t *testing.T) {
	p := writeConfig(t, `
app "dashboard" {
  uri  = "ui://orders/dashboard"
  file = "pipe.html"
}`, nil)
	if err := syscall.Mkfifo(filepath.Join(filepath.Dir(p), "pipe.html"), 0o644); err != nil {
		t.Skipf("cannot make a named pipe here: %v", err)
	}
	got := appDiagnostics(t, p)
	if len(got) != 1 || !strings.Contains(got[0], "4:10: error: App page is not a regular file") || !strings.Contains(got[0], "is a named pipe") {
		t.Fatalf("got %q", got)
	}
}
