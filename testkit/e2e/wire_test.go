package e2e

import (
	"io"
	"net/http"
	"testing"

	"github.com/mcpdecl/mcpdecl/testkit/wiretest"
)

// The wire-checking helpers live in testkit/wiretest; these names keep the
// tests of this package short.

func requireSchemas(t testing.TB) { wiretest.RequireSchemas(t) }

func checkSent(rev, method string, msg []byte) []error { return wiretest.CheckSent(rev, method, msg) }

func splitHTTPMessages(contentType string, body []byte) [][]byte {
	return wiretest.SplitHTTPMessages(contentType, body)
}

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
