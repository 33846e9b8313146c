package server_test

import (
	"bufio"
	"io"
	"net/http"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
	"github.com/mcpdecl/mcpdecl/testkit/wiretest"
)

// The wire-checking helpers live in testkit/wiretest; these names keep the
// tests of this package short.

func requireSchemas(t testing.TB) { wiretest.RequireSchemas(t) }

// wireLog collects every message a tap saw and the problems found.
type wireLog struct{ wiretest.Log }

func (l *wireLog) verify(t *testing.T, want ...string) { t.Helper(); l.Verify(t, want...) }

// httpTap validates every message an MCP HTTP handler sends.
type httpTap struct {
	next http.Handler
	log  *wireLog
}

func (h *httpTap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	(&wiretest.HTTPTap{Next: h.next, Log: &h.log.Log}).ServeHTTP(w, r)
}

// stdioTap validates every message a stdio server sends.
type stdioTap struct{ *wiretest.StdioTap }

func newStdioTap(log *wireLog) *stdioTap { return &stdioTap{wiretest.NewStdioTap(&log.Log)} }

func (s *stdioTap) clientWriter(w io.WriteCloser) io.WriteCloser { return s.ClientWriter(w) }

func (s *stdioTap) serverReader(r io.ReadCloser) io.ReadCloser { return s.ServerReader(r) }

// compileFile loads and compiles a configuration file of testdata with an
// empty adapter registry (static configurations only).
func compileFile(t testing.TB, path string) *table.Table {
	t.Helper()
	cfg, diags := lang.Load(path)
	if diags.HasErrors() {
		t.Fatalf("lang.Load(%q): %v", path, diags)
	}
	tbl, diags := table.Compile(cfg, adapter.NewRegistry(), table.Options{})
	if diags.HasErrors() {
		t.Fatalf("table.Compile(%q): %v", path, diags)
	}
	return tbl
}

// compileSource compiles an in-memory configuration; diagnostics are
// returned, for tests of broken reloads.
func compileSource(name, src string) (*table.Table, error) {
	cfg, diags := lang.LoadSource(name, []byte(src))
	if diags.HasErrors() {
		return nil, diags
	}
	tbl, diags := table.Compile(cfg, adapter.NewRegistry(), table.Options{})
	if diags.HasErrors() {
		return nil, diags
	}
	return tbl, nil
}

// readLines delivers the lines of r on a channel until r ends.
func readLines(r io.Reader) <-chan []byte {
	ch := make(chan []byte, 64)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 8<<20)
		for sc.Scan() {
			ch <- append([]byte(nil), sc.Bytes()...)
		}
	}()
	return ch
}
