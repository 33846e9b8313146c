package server_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
)

// TestHostileHTTP sends malformed, oversized and unwelcome requests to the
// real stack (mcp's HTTP handler over server.New on a loopback listener)
// and checks the status and JSON-RPC error the spec asks for,
// that every body sent is schema-valid, and
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
		{name: "arguments not an object", header: modern("tools/call", "greet"), body: call(`5`), wantCode: mcp.CodeInvalidParams}, // status not specified
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

// TestHostileEnvelopes sends JSON-RPC envelopes a conforming client never
// sends: ids of the wrong type, a method or params of the wrong type,
// trailing data, batches (refused whole in both eras, however large) and
// answers posted as requests. Each gets a 4xx status or a JSON-RPC error,
// never a 5xx or a result, and the server keeps serving.
func TestHostileEnvelopes(t *testing.T) {
	proto := mcp.NewServer(server.New(compileFile(t, interopConfig), nil), nil)
	ts := httptest.NewServer(proto.HTTPHandler(nil))
	defer ts.Close()
	u := ts.URL + "/mcp"
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	bigBatch := "[" + strings.TrimSuffix(strings.Repeat(list+",", 10000), ",") + "]"
	bodies := map[string]string{
		"object id":              `{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`,
		"array id":               `{"jsonrpc":"2.0","id":[1],"method":"tools/list"}`,
		"bool id":                `{"jsonrpc":"2.0","id":true,"method":"tools/list"}`,
		"numeric method":         `{"jsonrpc":"2.0","id":1,"method":7}`,
		"missing method":         `{"jsonrpc":"2.0","id":1}`,
		"params an array":        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":["greet"]}`,
		"params a string":        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"greet"}`,
		"name a number":          `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":7}}`,
		"two messages":           list + list,
		"trailing garbage":       list + `x`,
		"jsonrpc a number":       `{"jsonrpc":2.0,"id":1,"method":"tools/list"}`,
		"result and method":      `{"jsonrpc":"2.0","id":1,"method":"tools/list","result":{}}`,
		"empty batch":            `[]`,
		"batch of garbage":       `[1,2,3]`,
		"batch of 10,000 calls":  bigBatch,
		"batch of notifications": `[{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","method":"notifications/cancelled"}]`,
		"nested batch":           `[[` + list + `]]`,
		"NaN literal":            `{"jsonrpc":"2.0","id":NaN,"method":"tools/list"}`,
		"byte order mark":        "\ufeff" + list,
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, u, strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("MCP-Protocol-Version", mcp.Version20251125)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			var m struct {
				Result json.RawMessage `json:"result"`
				Error  *struct {
					Code int `json:"code"`
				} `json:"error"`
			}
			_ = json.Unmarshal(got, &m)
			switch {
			case resp.StatusCode >= 500:
				t.Errorf("status %d: the server failed on a client error; body %.200s", resp.StatusCode, got)
			case m.Result != nil:
				t.Errorf("a malformed envelope was served: %.200s", got)
			case resp.StatusCode < 400 && m.Error == nil:
				t.Errorf("status %d without a JSON-RPC error: %.200s", resp.StatusCode, got)
			}
			assertServing(t, u)
		})
	}
}

// requestStateConfig asks the user before answering, in one round.
const requestStateConfig = `
tool "confirm" {
  description = "Asks before answering."
  arg "message" {
    type = string
  }
  elicit {
    message = args.message
    requested_schema = {
      type       = "object"
      properties = { ok = { type = "boolean" } }
      required   = ["ok"]
    }
  }
  result {
    text = "'action=' + elicit.action"
  }
}
tool "confirm_too" {
  description = "Asks the same question."
  arg "message" {
    type = string
  }
  elicit {
    message = args.message
    requested_schema = {
      type       = "object"
      properties = { ok = { type = "boolean" } }
      required   = ["ok"]
    }
  }
  result {
    text = "'action=' + elicit.action"
  }
}
`

// TestHostileRequestState retries a 2026-07-28 elicitation round with a
// requestState the server did not issue for that call: tampered,
// truncated, not base64, moved to another tool or other arguments, issued
// by another server (another key), and expired (sealed with this
// server's key but an expiry in the past). Each is refused with -32602
// and does not run the tool; the genuine state still works, also when
// replayed.
func TestHostileRequestState(t *testing.T) {
	path := filepath.Join(t.TempDir(), "confirm.hcl")
	if err := os.WriteFile(path, []byte(requestStateConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	key := []byte("0123456789abcdef0123456789abcdef")
	serve := func(key []byte) string {
		proto := mcp.NewServer(server.New(compileFile(t, path), &server.Options{StateKeys: mustKeys(t, key)}), nil)
		ts := httptest.NewServer(proto.HTTPHandler(nil))
		t.Cleanup(ts.Close)
		return ts.URL + "/mcp"
	}
	u, other := serve(key), serve([]byte("another key, another server....."))
	answer := `"inputResponses":{"elicit":{"action":"accept","content":{"ok":true}}}`
	call := func(u, tool, args, state string) (result, errText string) {
		t.Helper()
		params := fmt.Sprintf(`"name":%q,"arguments":%s`, tool, args)
		if state != "" {
			params += fmt.Sprintf(`,"requestState":%q,%s`, state, answer)
		}
		req := modernRequest(t, u, "5", "tools/call", tool, params)
		req.Body = io.NopCloser(strings.NewReader(strings.Replace(readAll(t, req.Body),
			`clientCapabilities":{}`, `clientCapabilities":{"elicitation":{}}`, 1)))
		req.ContentLength = -1
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m struct {
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
			t.Fatalf("%s: %d, not JSON-RPC: %v", tool, resp.StatusCode, err)
		}
		if m.Error != nil {
			if m.Error.Code != mcp.CodeInvalidParams {
				t.Errorf("%s: code %d, want %d (%s)", tool, m.Error.Code, mcp.CodeInvalidParams, m.Error.Message)
			}
			return "", m.Error.Message
		}
		return string(m.Result), ""
	}
	first, _ := call(u, "confirm", `{"message":"m"}`, "")
	var ir struct {
		ResultType   string `json:"resultType"`
		RequestState string `json:"requestState"`
	}
	if err := json.Unmarshal([]byte(first), &ir); err != nil || ir.ResultType != "input_required" || ir.RequestState == "" {
		t.Fatalf("first round: %s", first)
	}
	state := ir.RequestState
	if plain := openWith(t, key, "confirm", `{"message":"m"}`, state); plain == "" {
		t.Fatalf("the test's sealing does not match the server's: %s does not open", state)
	}
	expired := sealWith(key, "confirm", `{"message":"m"}`, `{"e":1,"a":{}}`) // in 1970
	forged := sealWith([]byte("another key, another server....."), "confirm", `{"message":"m"}`, `{"e":9999999999,"a":{}}`)
	refused := []struct{ name, url, tool, args, state string }{
		{"tampered", u, "confirm", `{"message":"m"}`, state[:len(state)-2] + "AA"},
		{"payload changed", u, "confirm", `{"message":"m"}`, state[:20] + flipChar(state[20]) + state[21:]},
		{"forged", u, "confirm", `{"message":"m"}`, forged},
		{"truncated", u, "confirm", `{"message":"m"}`, state[:len(state)/2]},
		{"not base64", u, "confirm", `{"message":"m"}`, "!!!.???"},
		{"huge", u, "confirm", `{"message":"m"}`, strings.Repeat("A", 2<<20)},
		{"another tool", u, "confirm_too", `{"message":"m"}`, state},
		{"other arguments", u, "confirm", `{"message":"n"}`, state},
		{"another server", other, "confirm", `{"message":"m"}`, state},
		{"expired", u, "confirm", `{"message":"m"}`, expired},
	}
	for _, tc := range refused {
		if res, msg := call(tc.url, tc.tool, tc.args, tc.state); res != "" || !strings.Contains(msg, "requestState") {
			t.Errorf("%s state: result %s, error %q; want it refused", tc.name, res, msg)
		}
	}
	for range 2 { // the genuine state, and the same again
		if res, msg := call(u, "confirm", `{"message":"m"}`, state); !strings.Contains(res, "action=accept") {
			t.Errorf("genuine state: %s %s", res, msg)
		}
	}
}

// stateAD is the associated data a server seals a state of tool with
// args under, for a caller with principal in session.
func stateAD(tool, args, principal, session string) []byte {
	var v map[string]any
	_ = json.Unmarshal([]byte(args), &v)
	canonical, _ := json.Marshal(v)
	sum := sha256.Sum256(canonical)
	return []byte("tool " + tool + "\x00" + base64.RawURLEncoding.EncodeToString(sum[:]) + "\x00" + principal + "\x00" + session)
}

// sealWith seals a state as a server with key does for an anonymous
// caller: the plaintext sealed with the request-state key derived from
// key, bound to the tool and a digest of its arguments.
func sealWith(key []byte, tool, args, plaintext string) string {
	ks, _ := mcp.NewKeys([][]byte{key})
	return base64.RawURLEncoding.EncodeToString(ks.Seal("request-state", []byte(plaintext), stateAD(tool, args, "", "")))
}

// openWith is sealWith's reverse: the plaintext, or "" when it does not open.
func openWith(t *testing.T, key []byte, tool, args, state string) string {
	t.Helper()
	ks, _ := mcp.NewKeys([][]byte{key})
	raw, _ := base64.RawURLEncoding.DecodeString(state)
	plain, err := ks.Open("request-state", raw, stateAD(tool, args, "", ""))
	if err != nil {
		return ""
	}
	return string(plain)
}

func flipChar(c byte) string {
	if c == 'A' {
		return "B"
	}
	return "A"
}

func readAll(t *testing.T, r io.Reader) string {
	t.Helper()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// reloadConfig has a backend that is opened per generation and closed
// when the generation's last call ends.
const reloadConfig = `
backend "sql" "db" {
  driver = "sqlite"
  dsn    = "file::memory:"
}
tool "one" {
  description = "Answers 1 from the database."
  sql "db" {
    query = "SELECT 1 AS one"
  }
  result {
    text = "{{ rows[0].one }}"
  }
}
`

// TestHostileReloadUnderLoad reloads the configuration 20 times while
// eight clients call a tool backed by a database without pause: every
// call succeeds (a replaced generation's backends are closed only after
// its last call), and after Close nothing is left serving.
func TestHostileReloadUnderLoad(t *testing.T) {
	ctx := context.Background()
	srv, err := server.Open(ctx, compileWithAdapters(t, reloadConfig), nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(mcp.NewServer(srv, nil).HTTPHandler(nil))
	defer ts.Close()
	u := ts.URL + "/mcp"
	stop := make(chan struct{})
	var calls, failed atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := &http.Client{Timeout: 10 * time.Second}
			for {
				select {
				case <-stop:
					return
				default:
				}
				resp, err := client.Do(modernRequest(t, u, "1", "tools/call", "one", `"name":"one","arguments":{}`))
				if err != nil {
					failed.Add(1)
					t.Errorf("call: %v", err)
					return
				}
				body := readAll(t, resp.Body)
				resp.Body.Close()
				calls.Add(1)
				if resp.StatusCode != 200 || !strings.Contains(body, `"text":"1"`) || strings.Contains(body, `"isError":true`) {
					failed.Add(1)
					t.Errorf("a call during reloads failed: %d %.300s", resp.StatusCode, body)
				}
			}
		}()
	}
	for i := range 20 {
		for calls.Load() < int64(10*(i+1)) && failed.Load() == 0 {
			time.Sleep(time.Millisecond) // let calls start on this generation
		}
		if _, _, err := srv.Reload(ctx, compileWithAdapters(t, reloadConfig)); err != nil {
			t.Fatalf("reload %d: %v", i, err)
		}
	}
	close(stop)
	wg.Wait()
	srv.Close()
	if calls.Load() == 0 {
		t.Fatal("no call was made")
	}
}

// compileWithAdapters compiles src with every backend kind.
func compileWithAdapters(t *testing.T, src string) *table.Table {
	t.Helper()
	cfg, diags := lang.LoadSource("hostile.hcl", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return tbl
}

// exactArgsConfig echoes a number argument through expr-lang programs.
const exactArgsConfig = `
tool "price" {
  description = "Echoes a price."
  arg "price" {
    type = number
  }
  arg "items" {
    type = list(object({ price = number }))
    default = []
  }
  validation {
    condition     = args.price >= 0
    error_message = "The price cannot be negative."
  }
  result {
    text       = "{{ args.price }}|{{ args.price * 2 }}|{{ args.price > 100 }}|{{ map(args.items, .price) }}"
    structured = "{ price: args.price, first: len(args.items) > 0 ? args.items[0].price : 0 }"
  }
}
`

// TestHostileExactNumberArguments: a number argument a double cannot hold
// as written (12345678901234567.89, 304.80, 30 digits) reaches templates
// and structured output with the client's digits, and programs still
// compute with it.
func TestHostileExactNumberArguments(t *testing.T) {
	proto := mcp.NewServer(server.New(compileWithAdapters(t, exactArgsConfig), nil), nil)
	ts := httptest.NewServer(proto.HTTPHandler(nil))
	defer ts.Close()
	u := ts.URL + "/mcp"
	for _, tc := range []struct{ price, text, structured string }{
		{"12345678901234567.89", `"text":"12345678901234567.89|24691357802469136|true|[12345678901234567.89]"`, `"structuredContent":{"first":12345678901234567.89,"price":12345678901234567.89}`},
		{"304.80", `"text":"304.80|609.6|true|[304.80]"`, `"structuredContent":{"first":304.80,"price":304.80}`},
		{"123456789012345678901234567890", `"text":"123456789012345678901234567890|`, `"price":123456789012345678901234567890}`},
		{"2", `"text":"2|4|false|[2]"`, `"structuredContent":{"first":2,"price":2}`},
	} {
		args := fmt.Sprintf(`{"price":%s,"items":[{"price":%s}]}`, tc.price, tc.price)
		resp, err := http.DefaultClient.Do(modernRequest(t, u, "1", "tools/call", "price", `"name":"price","arguments":`+args))
		if err != nil {
			t.Fatal(err)
		}
		body := readAll(t, resp.Body)
		resp.Body.Close()
		if !strings.Contains(body, tc.text) || !strings.Contains(body, tc.structured) {
			t.Errorf("price %s: %s\nwant %s and %s", tc.price, body, tc.text, tc.structured)
		}
	}
	resp, err := http.DefaultClient.Do(modernRequest(t, u, "1", "tools/call", "price", `"name":"price","arguments":{"price":-0.5}`))
	if err != nil {
		t.Fatal(err)
	}
	if body := readAll(t, resp.Body); !strings.Contains(body, "The price cannot be negative.") {
		t.Errorf("price -0.5: %s; want the validation's message", body)
	}
	resp.Body.Close()
}

// exactAnswerConfig echoes a number the user gives in an elicitation.
const exactAnswerConfig = `
tool "amount" {
  description = "Asks for an amount and echoes it."
  elicit {
    message = "How much?"
    requested_schema = {
      type       = "object"
      properties = { amount = { type = "number" } }
      required   = ["amount"]
    }
  }
  result {
    text       = "{{ elicit.content.amount }}|{{ elicit.content.amount > 1 }}"
    structured = "{ amount: elicit.content.amount }"
  }
}
`

// TestHostileExactNumberAnswers: a number the user answers an elicitation
// with reaches templates and structured output with the digits sent.
func TestHostileExactNumberAnswers(t *testing.T) {
	proto := mcp.NewServer(server.New(compileWithAdapters(t, exactAnswerConfig), nil), nil)
	ts := httptest.NewServer(proto.HTTPHandler(nil))
	defer ts.Close()
	u := ts.URL + "/mcp"
	post := func(params string) string {
		t.Helper()
		req := modernRequest(t, u, "1", "tools/call", "amount", `"name":"amount","arguments":{}`+params)
		req.Body = io.NopCloser(strings.NewReader(strings.Replace(readAll(t, req.Body),
			`clientCapabilities":{}`, `clientCapabilities":{"elicitation":{}}`, 1)))
		req.ContentLength = -1
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		return readAll(t, resp.Body)
	}
	var first struct {
		Result struct {
			RequestState string `json:"requestState"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(post("")), &first); err != nil || first.Result.RequestState == "" {
		t.Fatalf("first round: %v", err)
	}
	for _, n := range []string{"12345678901234567.89", "304.80"} {
		got := post(fmt.Sprintf(`,"requestState":%q,"inputResponses":{"elicit":{"action":"accept","content":{"amount":%s}}}`, first.Result.RequestState, n))
		if !strings.Contains(got, `"text":"`+n+`|true"`) || !strings.Contains(got, `"structuredContent":{"amount":`+n+`}`) {
			t.Errorf("amount %s: %s", n, got)
		}
	}
}

// slowConfig has a tool that works longer than the write timeout of
// TestHostileLongCallWriteTimeout.
const slowConfig = `
backend "shell" "sh" {
}
tool "slow" {
  description = "Works for a while."
  timeout     = "2m"
  shell {
    backend = "sh"
    command = ["sleep", "1"]
  }
  result {
    text = "'done'"
  }
}
`

// TestHostileLongCallWriteTimeout: the write timeout bounds each write of
// an answer, not the call. A tool that works longer than it (and than the
// connection's own WriteTimeout) still gets its plain JSON answer to the
// client, in both eras; a call is bounded by its tool's timeout alone.
func TestHostileLongCallWriteTimeout(t *testing.T) {
	const limit = 200 * time.Millisecond // the tool sleeps 1 s
	proto := mcp.NewServer(server.New(compileWithAdapters(t, slowConfig), nil), nil)
	ts := httptest.NewUnstartedServer(proto.HTTPHandler(&mcp.HTTPOptions{WriteTimeout: limit, BodyTimeout: limit}))
	ts.Config.WriteTimeout = limit
	ts.Start()
	defer ts.Close()
	u := ts.URL + "/mcp"
	modern := modernRequest(t, u, "1", "tools/call", "slow", `"name":"slow","arguments":{}`)
	modern.Header.Set("Accept", "application/json")
	legacy, err := http.NewRequest(http.MethodPost, u, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","arguments":{}}}`))
	if err != nil {
		t.Fatal(err)
	}
	legacy.Header.Set("Content-Type", "application/json")
	legacy.Header.Set("Accept", "application/json, text/event-stream")
	legacy.Header.Set("MCP-Protocol-Version", mcp.Version20251125)
	for name, req := range map[string]*http.Request{"2026-07-28": modern, "2025-11-25": legacy} {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Errorf("%s: the answer did not arrive: %v", name, err)
			continue
		}
		body := readAll(t, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(body, `"text":"done"`) {
			t.Errorf("%s: %d %s", name, resp.StatusCode, body)
		}
	}
}

// exactTemplateConfig echoes a number taken from a URI.
const exactTemplateConfig = `
resource_template "price" {
  uri_template = "price://{p}"
  name         = "price"
  mime_type    = "text/plain"
  arg "p" {
    type = number
  }
  text = "${args.p}"
}
`

// TestHostileExactNumberInURI: a number argument read from a URI keeps
// its value (12345678901234567.89 is not rounded to a double).
func TestHostileExactNumberInURI(t *testing.T) {
	proto := mcp.NewServer(server.New(compileWithAdapters(t, exactTemplateConfig), nil), nil)
	ts := httptest.NewServer(proto.HTTPHandler(nil))
	defer ts.Close()
	u := ts.URL + "/mcp"
	for uri, want := range map[string]string{
		"price://12345678901234567.89": `"text":"12345678901234567.89"`,
		"price://304.80":               `"text":"304.8"`,
	} {
		resp, err := http.DefaultClient.Do(modernRequest(t, u, "1", "resources/read", uri, fmt.Sprintf(`"uri":%q`, uri)))
		if err != nil {
			t.Fatal(err)
		}
		if body := readAll(t, resp.Body); !strings.Contains(body, want) {
			t.Errorf("%s: %s; want %s", uri, body, want)
		}
		resp.Body.Close()
	}
}

// TestHostileAbsentNumberArgument: an absent optional number argument is
// nil in programs, as every absent optional argument without a default
// is, so ?? gives the fallback; a given one keeps its digits, and one sent
// as 0 is 0.
func TestHostileAbsentNumberArgument(t *testing.T) {
	proto := mcp.NewServer(server.New(compileWithAdapters(t, `
tool "opt" {
  description = "Echoes optional numbers."
  arg "price" {
    type     = number
    required = false
  }
  arg "o" {
    type     = object({ p = optional(number) })
    required = false
  }
  result {
    text = "{{ args.price }}|{{ args.price == nil }}|{{ (args.price ?? 0) > 10 }}|{{ (args.price ?? 0) + 1 }}|{{ args.o?.p ?? 'none' }}"
  }
}
`), nil), nil)
	ts := httptest.NewServer(proto.HTTPHandler(nil))
	defer ts.Close()
	for args, want := range map[string]string{
		`{}`:                             `"text":"|true|false|1|none"`,
		`{"o":{}}`:                       `"text":"|true|false|1|none"`,
		`{"price":0,"o":{"p":0}}`:        `"text":"0|false|false|1|0"`,
		`{"price":12.50,"o":{"p":1.10}}`: `"text":"12.50|false|true|13.5|1.10"`,
	} {
		resp, err := http.DefaultClient.Do(modernRequest(t, ts.URL+"/mcp", "1", "tools/call", "opt", `"name":"opt","arguments":`+args))
		if err != nil {
			t.Fatal(err)
		}
		if body := readAll(t, resp.Body); !strings.Contains(body, want) {
			t.Errorf("%s: %s; want %s", args, body, want)
		}
		resp.Body.Close()
	}
}

func mustKeys(t *testing.T, key []byte) *mcp.Keys {
	t.Helper()
	ks, err := mcp.NewKeys([][]byte{key})
	if err != nil {
		t.Fatal(err)
	}
	return ks
}

// otherCallerConfig asks two rounds of a signed-in user; the second
// round's answer completes the call with the first round's answer.
const otherCallerConfig = `
auth {
  resource              = "http://127.0.0.1/mcp"
  authorization_servers = ["http://127.0.0.1:1/as"]
  token "alice" {
    value = "` + readerToken + `"
  }
  token "bob" {
    value = "` + adminToken + `"
  }
}
tool "transfer" {
  description = "Asks for a secret, then for a confirmation."
  elicit {
    key     = "secret"
    message = "Your PIN?"
    requested_schema = {
      type       = "object"
      properties = { pin = { type = "string" } }
      required   = ["pin"]
    }
  }
  elicit {
    key     = "confirm"
    round   = 2
    message = "Sure?"
    requested_schema = {
      type       = "object"
      properties = { ok = { type = "boolean" } }
      required   = ["ok"]
    }
  }
  result {
    text = "auth.subject + ' sent with PIN ' + answers.secret.content.pin"
  }
}
`

// TestHostileRequestStateOtherCaller: with an auth block, the state of
// Alice's second round does not show her first answer, and Bob, sending
// it with his own token, is refused instead of completing her call as
// himself; Alice completes it.
func TestHostileRequestStateOtherCaller(t *testing.T) {
	tbl, err := compileSource("auth.hcl", otherCallerConfig)
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(tbl, &server.Options{HTTPAuth: true})
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewServer(srv, nil).HTTPHandler(&mcp.HTTPOptions{Guard: srv.Guard}))
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	call := func(token, more string) (result map[string]any, errObj map[string]any) {
		t.Helper()
		params := `"name":"transfer","arguments":{}`
		if more != "" {
			params += "," + more
		}
		req := modernRequest(t, ts.URL+"/mcp", "3", "tools/call", "transfer", params)
		req.Body = io.NopCloser(strings.NewReader(strings.Replace(readAll(t, req.Body),
			`clientCapabilities":{}`, `clientCapabilities":{"elicitation":{}}`, 1)))
		req.ContentLength = -1
		_, body := send(t, req, token)
		var m struct {
			Result map[string]any `json:"result"`
			Error  map[string]any `json:"error"`
		}
		if err := json.Unmarshal([]byte(body), &m); err != nil {
			t.Fatalf("%v: %s", err, body)
		}
		return m.Result, m.Error
	}
	first, e := call(readerToken, "")
	state1, _ := first["requestState"].(string)
	if e != nil || state1 == "" {
		t.Fatalf("round 1: %v %v", first, e)
	}
	second, e := call(readerToken, `"requestState":"`+state1+`","inputResponses":{"secret":{"action":"accept","content":{"pin":"PIN-4711-SECRET"}}}`)
	state2, _ := second["requestState"].(string)
	if e != nil || state2 == "" {
		t.Fatalf("round 2: %v %v", second, e)
	}
	raw, _ := base64.RawURLEncoding.DecodeString(state2)
	for _, shown := range []string{state2, string(raw)} {
		if strings.Contains(shown, "PIN-4711") || strings.Contains(shown, "pin") {
			t.Errorf("the state shows the first answer: %q", shown)
		}
	}
	confirm := `"requestState":"` + state2 + `","inputResponses":{"confirm":{"action":"accept","content":{"ok":true}}}`
	res, e := call(adminToken, confirm)
	if res != nil || e == nil || e["code"] != float64(mcp.CodeInvalidParams) || !strings.Contains(e["message"].(string), "requestState") {
		t.Errorf("Bob replaying Alice's state: result %v, error %v; want -32602 naming requestState", res, e)
	}
	if msg, _ := e["message"].(string); !strings.Contains(msg, "caller") {
		t.Errorf("the refusal does not say the state belongs to another caller: %q", msg)
	}
	res, e = call(readerToken, confirm)
	if b, _ := json.Marshal(res); e != nil || !strings.Contains(string(b), "alice sent with PIN PIN-4711-SECRET") {
		t.Errorf("Alice's own state: %s %v", b, e)
	}
}
