package server_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
)

// TestHostileHTTP sends malformed, oversized and unwelcome requests to the
// real stack (mcp's HTTP handler over server.New on a loopback listener)
// and checks the status and JSON-RPC error the spec asks for
// (mcp-wire.md §A4, §A5, §B3), that every body sent is schema-valid, and
// that a proper call still works after each one.
func TestHostileHTTP(t *testing.T) {
	requireSchemas(t)
	log := &wireLog{}
	proto := mcp.NewServer(server.New(compileFile(t, interopConfig), nil), nil)
	const limit = 64 << 10
	ts := httptest.NewServer(&httpTap{next: proto.HTTPHandler(&mcp.HTTPOptions{MaxBodyBytes: limit}), log: log})
	defer ts.Close()
	u := ts.URL + "/mcp"

	modern := func(method, name string) map[string]string {
		h := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
			"MCP-Protocol-Version": mcp.Version20260728, "Mcp-Method": method}
		if name != "" {
			h["Mcp-Name"] = name
		}
		return h
	}
	legacy := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
		"MCP-Protocol-Version": mcp.Version20251125}
	with := func(h map[string]string, kv ...string) map[string]string {
		out := map[string]string{}
		for k, v := range h {
			out[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == "" {
				delete(out, kv[i])
			} else {
				out[kv[i]] = kv[i+1]
			}
		}
		return out
	}
	call := func(args string) string {
		return `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"greet","arguments":` + args + `,` + modernMeta + `}}`
	}
	nested := strings.Repeat("[", 30000) + strings.Repeat("]", 30000) // under the body limit

	tests := []struct {
		name       string
		method     string // HTTP method; POST when empty
		header     map[string]string
		body       string
		wantStatus int
		wantCode   int  // JSON-RPC error code; 0: no error body expected
		wantResult bool // a result (e.g. an isError tool result)
	}{
		{name: "not JSON", header: legacy, body: `{"jsonrpc":`, wantStatus: 400, wantCode: mcp.CodeParseError},
		{name: "not JSON, modern headers", header: modern("tools/call", "greet"), body: "\x00\xff garbage", wantStatus: 400, wantCode: mcp.CodeParseError},
		{name: "invalid UTF-8 in a string", header: modern("tools/call", "greet"), body: call("{\"name\":\"\xff\xfe\"}"), wantStatus: 200, wantResult: true},
		{name: "JSON but not JSON-RPC", header: legacy, body: `{"hello":"world"}`, wantStatus: 400, wantCode: mcp.CodeInvalidRequest},
		{name: "wrong jsonrpc version", header: legacy, body: `{"jsonrpc":"1.0","id":1,"method":"tools/list"}`, wantStatus: 400, wantCode: mcp.CodeInvalidRequest},
		{name: "null id", header: legacy, body: `{"jsonrpc":"2.0","id":null,"method":"tools/list"}`, wantStatus: 400, wantCode: mcp.CodeInvalidRequest},
		{name: "a JSON string", header: legacy, body: `"tools/list"`, wantStatus: 400, wantCode: mcp.CodeInvalidRequest},
		{name: "empty body", header: legacy, body: ``, wantStatus: 400, wantCode: mcp.CodeParseError},
		{name: "batch under 2025-11-25", header: legacy, body: `[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`, wantStatus: 400, wantCode: mcp.CodeInvalidRequest},
		{name: "batch under 2026-07-28", header: modern("tools/list", ""), body: `[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`, wantStatus: 400, wantCode: mcp.CodeInvalidRequest},
		{name: "deeply nested arguments", header: modern("tools/call", "greet"), body: call(nested), wantStatus: 400},
		{name: "body over the limit", header: modern("tools/call", "greet"), body: call(`{"name":"` + strings.Repeat("a", limit) + `"}`), wantStatus: 413, wantCode: mcp.CodeInvalidRequest},
		{name: "long argument under the limit", header: modern("tools/call", "greet"), body: call(`{"name":"` + strings.Repeat("a", limit/2) + `"}`), wantStatus: 200, wantResult: true},
		{name: "text/plain body", header: with(legacy, "Content-Type", "text/plain"), body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, wantStatus: 415},
		{name: "unknown method, modern", header: modern("nope/nope", ""), body: `{"jsonrpc":"2.0","id":1,"method":"nope/nope","params":{` + modernMeta + `}}`, wantStatus: 404, wantCode: mcp.CodeMethodNotFound},
		{name: "unknown method, legacy", header: legacy, body: `{"jsonrpc":"2.0","id":1,"method":"nope/nope"}`, wantCode: mcp.CodeMethodNotFound},
		{name: "removed method with modern meta", header: modern("ping", ""), body: `{"jsonrpc":"2.0","id":1,"method":"ping","params":{` + modernMeta + `}}`, wantStatus: 404, wantCode: mcp.CodeMethodNotFound},
		{name: "modern without clientCapabilities", header: modern("tools/list", ""),
			body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, wantStatus: 400, wantCode: mcp.CodeInvalidParams},
		{name: "unsupported version", header: with(modern("tools/list", ""), "MCP-Protocol-Version", "2099-01-01"),
			body:       `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}`,
			wantStatus: 400, wantCode: mcp.CodeUnsupportedProtocolVersion},
		{name: "Mcp-Method mismatch", header: modern("tools/list", ""), body: call(`{"name":"Ada"}`), wantStatus: 400, wantCode: mcp.CodeHeaderMismatch},
		{name: "Mcp-Name mismatch", header: modern("tools/call", "add"), body: call(`{"name":"Ada"}`), wantStatus: 400, wantCode: mcp.CodeHeaderMismatch},
		{name: "missing version header, modern body", header: with(modern("tools/call", "greet"), "MCP-Protocol-Version", ""), body: call(`{"name":"Ada"}`), wantStatus: 400, wantCode: mcp.CodeHeaderMismatch},
		{name: "arguments not an object", header: modern("tools/call", "greet"), body: call(`5`), wantCode: mcp.CodeInvalidParams}, // status not specified (§A4)
		{name: "posted response, modern", header: modern("tools/list", ""), body: `{"jsonrpc":"2.0","id":1,"result":{}}`, wantStatus: 400, wantCode: mcp.CodeInvalidRequest},
		{name: "notification", header: legacy, body: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, wantStatus: 202},
		{name: "foreign Origin", header: with(legacy, "Origin", "https://evil.example"), body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, wantStatus: 403},
		{name: "foreign Host", header: with(legacy, "Host", "evil.example"), body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, wantStatus: 403},
		{name: "GET", method: http.MethodGet, header: map[string]string{"Accept": "text/event-stream"}, wantStatus: 405},
		{name: "DELETE", method: http.MethodDelete, header: legacy, wantStatus: 405},
		{name: "PUT", method: http.MethodPut, header: legacy, body: `{}`, wantStatus: 405},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			method := tc.method
			if method == "" {
				method = http.MethodPost
			}
			req, err := http.NewRequest(method, u, strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tc.header {
				if k == "Host" {
					req.Host = v
				} else {
					req.Header.Set(k, v)
				}
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if tc.wantStatus != 0 && resp.StatusCode != tc.wantStatus {
				t.Errorf("status = %d, want %d; body %s", resp.StatusCode, tc.wantStatus, body)
			}
			if resp.StatusCode >= 500 {
				t.Errorf("status %d: the server failed on a client error; body %s", resp.StatusCode, body)
			}
			if resp.StatusCode == http.StatusMethodNotAllowed && resp.Header.Get("Allow") != "POST" {
				t.Errorf("405 without Allow: POST (got %q)", resp.Header.Get("Allow"))
			}
			var m struct {
				Result json.RawMessage `json:"result"`
				Error  *struct {
					Code int `json:"code"`
				} `json:"error"`
			}
			if len(body) > 0 {
				if err := json.Unmarshal(body, &m); err != nil {
					t.Errorf("body is not JSON: %v\n%s", err, body)
				}
			}
			switch {
			case tc.wantCode != 0 && (m.Error == nil || m.Error.Code != tc.wantCode):
				t.Errorf("error = %s, want code %d", body, tc.wantCode)
			case tc.wantResult && m.Result == nil:
				t.Errorf("want a result, got %s", body)
			case tc.wantStatus == 202 && len(body) != 0:
				t.Errorf("notification answered with a body: %s", body)
			}
			assertServing(t, u)
		})
	}
	log.verify(t)
}

// TestHostileConcurrent fires garbage and good calls at once: the server
// answers every good call correctly while it rejects the rest.
func TestHostileConcurrent(t *testing.T) {
	proto := mcp.NewServer(server.New(compileFile(t, interopConfig), nil), nil)
	ts := httptest.NewServer(proto.HTTPHandler(nil))
	defer ts.Close()
	u := ts.URL + "/mcp"
	junk := []string{`{`, `[]`, `{"jsonrpc":"2.0","id":{},"method":"x"}`, strings.Repeat(`{"a":`, 5000), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":7}}`}
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				assertServing(t, u)
				return
			}
			resp, err := http.Post(u, "application/json", strings.NewReader(junk[i%len(junk)]))
			if err != nil {
				t.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode >= 500 {
				t.Errorf("junk %q: status %d", junk[i%len(junk)], resp.StatusCode)
			}
		}()
	}
	wg.Wait()
}

// assertServing checks that a proper modern tools/call still succeeds.
func assertServing(t *testing.T, u string) {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Do(modernRequest(t, u, "99", "tools/call", "greet", `"name":"greet","arguments":{"name":"Ada"}`))
	if err != nil {
		t.Errorf("server stopped serving: %v", err)
		return
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"text":"Hello Ada"`) {
		t.Errorf("server stopped serving: %d %s", resp.StatusCode, body)
	}
}
