package mcp

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// httpCase is one row of the protocol checklist exercised over HTTP.
type httpCase struct {
	name   string
	rev    string // revision the response must validate against
	method string // JSON-RPC method, for the result definition
	verb   string // HTTP method; POST when empty
	hdr    http.Header
	body   string
	status int
	code   int // expected JSON-RPC error code; 0 = a result (or no body)
	check  func(t *testing.T, r resp, h http.Header)
}

func hasKeys(keys ...string) func(t *testing.T, r resp, h http.Header) {
	return func(t *testing.T, r resp, h http.Header) {
		t.Helper()
		for _, k := range keys {
			neg := strings.HasPrefix(k, "!")
			_, ok := r.Result[strings.TrimPrefix(k, "!")]
			if ok == neg {
				t.Errorf("result key %s: present=%v; result=%v", k, ok, r.Result)
			}
		}
	}
}

func resultContains(sub string) func(t *testing.T, r resp, h http.Header) {
	return func(t *testing.T, r resp, h http.Header) {
		t.Helper()
		b, _ := json.Marshal(r.Result)
		if !strings.Contains(string(b), sub) {
			t.Errorf("result lacks %s: %s", sub, b)
		}
	}
}

func errDataContains(sub string) func(t *testing.T, r resp, h http.Header) {
	return func(t *testing.T, r resp, h http.Header) {
		t.Helper()
		if r.Error == nil || !strings.Contains(string(r.Error.Data), sub) {
			t.Errorf("error data lacks %s: %+v", sub, r.Error)
		}
	}
}

const (
	m26 = Version20260728
	l11 = Version20251125
	l06 = Version20250618
	l03 = Version20250326
)

var modernCases = []httpCase{
	{name: "discover", rev: m26, method: "server/discover", hdr: mh("server/discover", ""),
		body:  `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{$META}}`,
		check: hasKeys("supportedVersions", "capabilities", "instructions", "resultType", "ttlMs", "cacheScope", "_meta")},
	{name: "discover lists legacy versions too", rev: m26, method: "server/discover", hdr: mh("server/discover", ""),
		body:  `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{$META}}`,
		check: resultContains(`"supportedVersions":["2026-07-28","2025-11-25","2025-06-18","2025-03-26"]`)},
	{name: "clientInfo is not required", rev: m26, method: "tools/list", hdr: mh("tools/list", ""),
		body: `{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{$META}}`, check: hasKeys("tools", "ttlMs", "cacheScope", "resultType")},
	{name: "missing clientCapabilities", rev: m26, hdr: mh("tools/list", ""), status: 400, code: -32602,
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`},
	{name: "discover without _meta is malformed modern", rev: m26, hdr: mh("server/discover", ""), status: 400, code: -32602,
		body: `{"jsonrpc":"2.0","id":1,"method":"server/discover"}`},
	{name: "modern header without _meta", rev: m26, hdr: mh("tools/list", ""), status: 400, code: -32602,
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`},
	{name: "header and body unsupported", rev: m26, hdr: hdr(HeaderProtocolVersion, "v999.0.0", HeaderMethod, "tools/list"), status: 400, code: -32022,
		body:  `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"v999.0.0","io.modelcontextprotocol/clientCapabilities":{}}}}`,
		check: errDataContains(`"requested":"v999.0.0"`)},
	{name: "header supported body unsupported", rev: m26, hdr: mh("tools/list", ""), status: 400, code: -32020,
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"v999.0.0","io.modelcontextprotocol/clientCapabilities":{}}}}`},
	{name: "unknown date in body is not legacy", rev: m26, status: 400, code: -32022,
		hdr:  hdr(HeaderProtocolVersion, "1900-01-01", HeaderMethod, "tools/list"),
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}`},
	{name: "legacy version claimed in _meta", rev: m26, status: 400, code: -32022,
		hdr:  hdr(HeaderProtocolVersion, l11, HeaderMethod, "tools/list"),
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}}}}`},
	{name: "missing version header", rev: m26, hdr: hdr(HeaderMethod, "tools/list"), status: 400, code: -32020,
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{$META}}`},
	{name: "missing Mcp-Method", rev: m26, hdr: hdr(HeaderProtocolVersion, m26), status: 400, code: -32020,
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{$META}}`},
	{name: "Mcp-Method mismatch", rev: m26, hdr: mh("prompts/list", ""), status: 400, code: -32020,
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{$META}}`},
	{name: "Mcp-Name missing on tools/call", rev: m26, hdr: mh("tools/call", ""), status: 400, code: -32020,
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo",$META}}`},
	{name: "Mcp-Name mismatch", rev: m26, hdr: mh("tools/call", "fail"), status: 400, code: -32020,
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo",$META}}`},
	{name: "Mcp-Name base64 sentinel", rev: m26, method: "resources/read", hdr: mh("resources/read", "=?base64?ZmlsZTovLy9hLnR4dA==?="),
		body: `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///a.txt",$META}}`, check: hasKeys("contents", "ttlMs", "cacheScope")},
	{name: "Mcp-Name control characters", rev: m26, hdr: mh("tools/call", "ec\x01ho"), status: 400, code: -32020,
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo",$META}}`},
	{name: "Mcp-Param header matches", rev: m26, method: "tools/call",
		hdr:  hdr(HeaderProtocolVersion, m26, HeaderMethod, "tools/call", HeaderName, "echo", "Mcp-Param-Text", "hi"),
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},$META}}`},
	{name: "Mcp-Param header missing", rev: m26, hdr: mh("tools/call", "echo"), status: 400, code: -32020,
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},$META}}`},
	{name: "Mcp-Param header differs", rev: m26, status: 400, code: -32020,
		hdr:  hdr(HeaderProtocolVersion, m26, HeaderMethod, "tools/call", HeaderName, "echo", "Mcp-Param-Text", "ho"),
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},$META}}`},
	{name: "removed initialize", rev: m26, hdr: mh("initialize", ""), status: 404, code: -32601,
		body: `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2026-07-28",$META}}`},
	{name: "removed ping", rev: m26, hdr: mh("ping", ""), status: 404, code: -32601,
		body: `{"jsonrpc":"2.0","id":1,"method":"ping","params":{$META}}`},
	{name: "removed logging/setLevel", rev: m26, hdr: mh("logging/setLevel", ""), status: 404, code: -32601,
		body: `{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"info",$META}}`},
	{name: "removed resources/subscribe", rev: m26, hdr: mh("resources/subscribe", ""), status: 404, code: -32601,
		body: `{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"file:///a.txt",$META}}`},
	{name: "unknown method", rev: m26, hdr: mh("foo/bar", ""), status: 404, code: -32601,
		body: `{"jsonrpc":"2.0","id":1,"method":"foo/bar","params":{$META}}`},
	{name: "tools/call result has no cache hints", rev: m26, method: "tools/call", hdr: mh("tools/call", "echo"),
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo",$META}}`, check: hasKeys("resultType", "_meta", "!ttlMs", "!cacheScope")},
	{name: "unknown tool", rev: m26, hdr: mh("tools/call", "nope"), status: 200, code: -32602,
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope",$META}}`},
	{name: "tool failure is a result", rev: m26, method: "tools/call", hdr: mh("tools/call", "fail"),
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fail",$META}}`, check: resultContains(`"isError":true`)},
	{name: "non-object structuredContent allowed in modern", rev: m26, method: "tools/call", hdr: mh("tools/call", "array"),
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"array",$META}}`, check: resultContains(`"structuredContent":[1,2]`)},
	{name: "resource not found is -32602 with uri", rev: m26, hdr: mh("resources/read", "file:///x"), status: 200, code: -32602,
		body: `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///x",$META}}`, check: errDataContains(`"uri":"file:///x"`)},
	{name: "prompts/get", rev: m26, method: "prompts/get", hdr: mh("prompts/get", "greet"),
		body: `{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"greet","arguments":{"name":"Ada"},$META}}`, check: hasKeys("messages", "resultType", "!ttlMs")},
	{name: "prompt missing argument", rev: m26, hdr: mh("prompts/get", "greet"), code: -32602,
		body: `{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"greet",$META}}`},
	{name: "completion capped at 100", rev: m26, method: "completion/complete", hdr: mh("completion/complete", ""),
		body:  `{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"name","value":"a"},$META}}`,
		check: resultContains(`"hasMore":true`)},
	{name: "resources/templates/list", rev: m26, method: "resources/templates/list", hdr: mh("resources/templates/list", ""),
		body: `{"jsonrpc":"2.0","id":1,"method":"resources/templates/list","params":{$META}}`, check: hasKeys("resourceTemplates", "ttlMs", "cacheScope")},
	{name: "prompts/list", rev: m26, method: "prompts/list", hdr: mh("prompts/list", ""),
		body: `{"jsonrpc":"2.0","id":1,"method":"prompts/list","params":{$META}}`, check: hasKeys("prompts", "ttlMs", "cacheScope")},
	{name: "pagination", rev: m26, method: "resources/list", hdr: mh("resources/list", ""),
		body: `{"jsonrpc":"2.0","id":1,"method":"resources/list","params":{$META}}`, check: hasKeys("resources", "nextCursor")},
	{name: "invalid cursor", rev: m26, hdr: mh("resources/list", ""), code: -32602,
		body: `{"jsonrpc":"2.0","id":1,"method":"resources/list","params":{"cursor":"garbage",$META}}`},
	{name: "invalid logLevel", rev: m26, hdr: mh("tools/list", ""), status: 400, code: -32602,
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"loud"}}}`},
	{name: "input_required needs the elicitation capability", rev: m26, hdr: mh("tools/call", "elicit"), status: 400, code: -32021,
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"elicit",$META}}`, check: errDataContains("requiredCapabilities")},
	{name: "input_required result", rev: m26, method: "tools/call", hdr: mh("tools/call", "elicit"),
		body:  `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"elicit","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}}}`,
		check: resultContains(`"resultType":"input_required"`)},
	{name: "MRTR retry", rev: m26, method: "tools/call", hdr: mh("tools/call", "elicit"),
		body:  `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"elicit","requestState":"asked","inputResponses":{"name":{"action":"accept","content":{"name":"Ada"}}},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}}}`,
		check: resultContains(`Ada`)},
	{name: "notification 202", hdr: mh("notifications/cancelled", ""), status: 202,
		body: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,$META}}`},
	{name: "batch rejected for modern", hdr: mh("tools/list", ""), status: 400, code: -32600,
		body: `[{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{$META}}]`},
	{name: "posted response rejected", hdr: mh("tools/list", ""), status: 400, code: -32600,
		body: `{"jsonrpc":"2.0","id":1,"result":{}}`},
	{name: "parse error", hdr: mh("tools/list", ""), status: 400, code: -32700, body: `{"jsonrpc":`},
	{name: "null id", hdr: mh("tools/list", ""), status: 400, code: -32600,
		body: `{"jsonrpc":"2.0","id":null,"method":"tools/list","params":{$META}}`},
	{name: "GET 405", verb: "GET", status: 405, code: -32600,
		check: func(t *testing.T, r resp, h http.Header) {
			if h.Get("Allow") != "POST" {
				t.Errorf("Allow = %q", h.Get("Allow"))
			}
		}},
	{name: "DELETE 405", verb: "DELETE", hdr: hdr(HeaderSessionID, "abc"), status: 405, code: -32600},
	{name: "evil Origin 403", hdr: hdr("Origin", "https://evil.example"), status: 403, code: -32600,
		body: `{"jsonrpc":"2.0","id":1,"method":"ping"}`},
	{name: "session id ignored and never minted", rev: m26, method: "tools/list",
		hdr:  hdr(HeaderProtocolVersion, m26, HeaderMethod, "tools/list", HeaderSessionID, "abc"),
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{$META}}`,
		check: func(t *testing.T, r resp, h http.Header) {
			if h.Get(HeaderSessionID) != "" {
				t.Errorf("modern response carries a session id")
			}
		}},
}

func TestChecklistModernHTTP(t *testing.T) {
	runHTTPCases(t, modernCases, &HTTPOptions{Loopback: true})
}

func runHTTPCases(t *testing.T, cases []httpCase, opts *HTTPOptions) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newTestServer(&Options{PageSize: 2})
			h := s.HTTPHandler(opts)
			verb := tc.verb
			if verb == "" {
				verb = "POST"
			}
			rec := doHTTP(t, h, verb, tc.hdr, tc.body)
			want := tc.status
			if want == 0 {
				want = 200
			}
			if rec.Code != want {
				t.Errorf("status = %d, want %d; body %s", rec.Code, want, rec.Body)
			}
			msgs := messages(t, rec.Header().Get("Content-Type"), rec.Body.Bytes())
			if want == 202 {
				if len(msgs) != 0 {
					t.Errorf("202 with a body: %s", rec.Body)
				}
				return
			}
			if len(msgs) == 0 {
				t.Fatalf("no response body")
			}
			for _, m := range msgs {
				checkSent(t, tc.rev, tc.method, m)
			}
			last := msgs[len(msgs)-1]
			if IsBatch(last) {
				return
			}
			r := decode(t, last)
			switch {
			case tc.code == 0 && r.Error != nil:
				t.Errorf("unexpected error %+v", r.Error)
			case tc.code != 0 && (r.Error == nil || r.Error.Code != tc.code):
				t.Errorf("error = %+v, want code %d", r.Error, tc.code)
			}
			if tc.check != nil {
				tc.check(t, r, rec.Header())
			}
		})
	}
}
