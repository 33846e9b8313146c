package mcp

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// staticHandler answers tools/call with a fixed result, so the benchmark
// measures only protocol overhead.
type staticHandler struct{ *fakeHandler }

var staticResult = &CallToolResult{Content: []ContentBlock{TextContent("hello")}}

func (staticHandler) CallTool(context.Context, *Request, *CallToolParams) (*CallToolResult, error) {
	return staticResult, nil
}

func benchCall(b *testing.B, header http.Header, body string) {
	s := NewServer(staticHandler{newFake()}, nil)
	h := s.HTTPHandler(nil)
	body = expand(body)
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest("POST", "http://localhost/mcp", strings.NewReader(body))
		req.Header = header
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	}
}

func BenchmarkToolsCallModern(b *testing.B) {
	hd := mh("tools/call", "echo")
	hd.Set("Mcp-Param-Text", "hi")
	hd.Set("Content-Type", "application/json")
	hd.Set("Accept", "application/json, text/event-stream")
	benchCall(b, hd, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},$META}}`)
}

func BenchmarkToolsCallLegacy(b *testing.B) {
	hd := hdr(HeaderProtocolVersion, l11, "Content-Type", "application/json", "Accept", "application/json, text/event-stream")
	benchCall(b, hd, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`)
}

// BenchmarkBroadcastListChanged1000 measures one NotifyListChanged reaching
// 1,000 live subscriptions/listen streams, delivery included.
func BenchmarkBroadcastListChanged1000(b *testing.B) {
	const n = 1000
	s, _ := newTestServer(nil)
	var delivered atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for i := range n {
		body := `{"jsonrpc":"2.0","id":` + itoa(i) + `,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` + modernMeta + `}}`
		m, _, e := DecodeMessage([]byte(body))
		if e != nil {
			b.Fatal(e)
		}
		out := sink{send: func(msg []byte) error {
			if bytes.Contains(msg, []byte("list_changed")) {
				delivered.Add(1)
			}
			return nil
		}}
		go s.serve(ctx, &inbound{msg: m, out: out, stdio: true})
	}
	for {
		s.listeners.mu.RLock()
		got := len(s.listeners.m)
		s.listeners.mu.RUnlock()
		if got == n {
			break
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	var want int64
	for b.Loop() {
		want += n
		s.NotifyListChanged(ToolsListChanged)
		for delivered.Load() < want {
			runtime.Gosched()
		}
	}
}
