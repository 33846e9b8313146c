package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
)

// BenchmarkEcho calls testdata/echo.hcl's echo tool (a 2026-07-28
// tools/call) through the whole HTTP handler, beside a plain net/http
// handler doing the same job with no MCP checks at all (decode the
// envelope with encoding/json, write the result): the floor any MCP
// server stands on. The mcpdecl line reports x-bare, its time over the
// plain handler's in the same run.
//
//	go test ./server/ -run '^$' -bench Echo -benchmem
func BenchmarkEcho(b *testing.B) {
	table := compileFile(b, "testdata/echo.hcl")
	mine := mcp.NewServer(server.New(table, nil), nil).HTTPHandler(nil)
	var bare float64
	b.Run("bare", func(b *testing.B) { bare = runEcho(b, http.HandlerFunc(bareEcho)) })
	b.Run("mcpdecl", func(b *testing.B) {
		if ns := runEcho(b, mine); bare > 0 {
			b.ReportMetric(ns/bare, "x-bare")
		}
	})
}

const echoBody = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`

// bareEcho is the plain handler: no header, version or argument checks.
func bareEcho(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID     json.RawMessage `json:"id"`
		Params struct {
			Arguments struct {
				Text string `json:"text"`
			} `json:"arguments"`
		} `json:"params"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	type block struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	type result struct {
		Content    []block `json:"content"`
		IsError    bool    `json:"isError"`
		ResultType string  `json:"resultType"`
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  result          `json:"result"`
	}{"2.0", req.ID, result{[]block{{"text", "echo: " + req.Params.Arguments.Text}}, false, "complete"}})
}

// runEcho makes the call b.N times through h and returns ns per call.
func runEcho(b *testing.B, h http.Handler) float64 {
	header := http.Header{}
	header.Set("Content-Type", "application/json")
	header.Set("Accept", "application/json, text/event-stream")
	header.Set("MCP-Protocol-Version", mcp.Version20260728)
	header.Set("Mcp-Method", "tools/call")
	header.Set("Mcp-Name", "echo")
	target, _ := url.Parse("http://127.0.0.1/mcp")
	ctx := context.Background()
	w := &benchWriter{header: http.Header{}}
	var rd strings.Reader
	call := func() {
		rd.Reset(echoBody)
		clear(w.header)
		w.code = http.StatusOK
		w.body.Reset()
		req := &http.Request{Method: http.MethodPost, URL: target, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: header, Body: io.NopCloser(&rd), ContentLength: int64(len(echoBody)), Host: target.Host, RequestURI: "/mcp"}
		h.ServeHTTP(w, req.WithContext(ctx))
	}
	call()
	if w.code != http.StatusOK || !strings.Contains(w.body.String(), `"text":"echo: hello"`) {
		b.Fatalf("echo: %d %s", w.code, w.body.String())
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		call()
	}
	return float64(b.Elapsed().Nanoseconds()) / float64(b.N)
}

// echoAllocs is the most allocations the echo call may make through the
// HTTP handler (with the harness's own few); the bare handler makes 21.
const echoAllocs = 40

// TestEchoAllocations keeps the per-call allocations of the echo call
// from creeping back: each costs allocation and GC time on every call.
func TestEchoAllocations(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("measures allocations")
	}
	h := mcp.NewServer(server.New(compileFile(t, "testdata/echo.hcl"), nil), nil).HTTPHandler(nil)
	res := testing.Benchmark(func(b *testing.B) { runEcho(b, h) })
	if res.N == 0 {
		t.Fatal("benchmark failed")
	}
	if got := res.AllocsPerOp(); got > echoAllocs {
		t.Errorf("the echo call makes %d allocations; the budget is %d", got, echoAllocs)
	}
}
