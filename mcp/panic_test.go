package mcp

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"testing"
)

// TestHandlerPanicIsAnInternalError: a handler that panics costs its
// request an internal error, is logged with its stack, and the server
// goes on answering.
func TestHandlerPanicIsAnInternalError(t *testing.T) {
	var log bytes.Buffer
	s := NewServer(newFake(), &Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	h := s.HTTPHandler(nil)
	rec := doHTTP(t, h, http.MethodPost, mh("tools/call", "panic"),
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"panic",$META}}`)
	if !strings.Contains(rec.Body.String(), `"code":-32603`) || !strings.Contains(rec.Body.String(), "internal error while handling tools/call") {
		t.Errorf("panicking handler: %d %s", rec.Code, rec.Body.String())
	}
	if !strings.Contains(log.String(), "handler panicked") || !strings.Contains(log.String(), "assignment to entry in nil map") {
		t.Errorf("the panic was not logged: %s", log.String())
	}
	rec = doHTTP(t, h, http.MethodPost, mh("tools/call", "echo"),
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo",$META}}`)
	if !strings.Contains(rec.Body.String(), "hello") {
		t.Errorf("after a panic: %d %s", rec.Code, rec.Body.String())
	}
}
