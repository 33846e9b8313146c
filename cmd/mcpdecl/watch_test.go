package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// fakeReloader counts reloads; during the first it rewrites a file, as an
// editor saving again while the server reloads would.
type fakeReloader struct {
	mu       sync.Mutex
	reloads  int
	duringFn func()
}

func (f *fakeReloader) Reload() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reloads++
	if f.duringFn != nil {
		f.duringFn()
		f.duringFn = nil
	}
	return nil
}

func (f *fakeReloader) ReferencedFiles() []string { return nil }

func (f *fakeReloader) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reloads
}

func waitReloads(t *testing.T, f *fakeReloader, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for f.count() < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d reloads, want %d", f.count(), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestWatchSeesAWriteDuringAReload: a file changed while a reload runs is
// reloaded again afterwards (the stamps taken before the reload count).
func TestWatchSeesAWriteDuringAReload(t *testing.T) {
	file := filepath.Join(t.TempDir(), "c.hcl")
	writeFile(t, file, "a")
	f := &fakeReloader{}
	f.duringFn = func() { writeFile(t, file, "ccc") }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go watchConfig(ctx, []string{file}, f, 10*time.Millisecond, slog.New(slog.NewTextHandler(io.Discard, nil)))
	time.Sleep(30 * time.Millisecond)
	writeFile(t, file, "bb")
	waitReloads(t, f, 2)
}

func TestSnapshotChanged(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.hcl"), filepath.Join(dir, "b.hcl")
	writeFile(t, a, "x")
	before := take([]string{dir}, nil)
	writeFile(t, b, "y")
	writeFile(t, filepath.Join(dir, "a_test.hcl"), "ignored")
	if err := os.Remove(a); err != nil {
		t.Fatal(err)
	}
	after := take([]string{dir}, nil)
	if after.equal(before) {
		t.Fatal("no change seen")
	}
	if got := after.changed(before); len(got) != 2 || got[0] != a || got[1] != b {
		t.Errorf("changed = %v, want [%s %s]", got, a, b)
	}
}
