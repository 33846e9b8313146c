package mcp

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

const benchInit = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + l11 +
	`","capabilities":{"elicitation":{"form":{}},"sampling":{}},"clientInfo":{"name":"bench","version":"1"}}}`

func benchSessionHandler(b *testing.B, legacy bool) http.Handler {
	keys, _ := NewKeys([][]byte{bytes.Repeat([]byte("k"), MinKeyLen)})
	s := NewServer(staticHandler{newFake()}, nil)
	return s.HTTPHandler(&HTTPOptions{SessionKeys: keys, LegacySessions: legacy})
}

func benchPost(b *testing.B, h http.Handler, sid, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", "http://localhost/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set(HeaderProtocolVersion, l11)
	if sid != "" {
		req.Header.Set(HeaderSessionID, sid)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 && rec.Code != 202 {
		b.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	return rec
}

// BenchmarkSignedSessionInitialize measures an initialize that hands out
// a signed session id.
func BenchmarkSignedSessionInitialize(b *testing.B) {
	h := benchSessionHandler(b, false)
	b.ReportAllocs()
	for b.Loop() {
		benchPost(b, h, "", benchInit)
	}
}

// BenchmarkSignedSessionCall measures a tools/call under a signed session
// id, which every request must open again.
func BenchmarkSignedSessionCall(b *testing.B) {
	h := benchSessionHandler(b, false)
	sid := benchPost(b, h, "", benchInit).Header().Get(HeaderSessionID)
	b.ReportAllocs()
	for b.Loop() {
		benchPost(b, h, sid, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`)
	}
}

// BenchmarkLegacySessionCall is the same call under a stateful session.
func BenchmarkLegacySessionCall(b *testing.B) {
	h := benchSessionHandler(b, true)
	sid := benchPost(b, h, "", benchInit).Header().Get(HeaderSessionID)
	benchPost(b, h, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	b.ReportAllocs()
	for b.Loop() {
		benchPost(b, h, sid, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`)
	}
}
