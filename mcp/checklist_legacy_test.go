package mcp

import (
	"net/http"
	"strings"
	"testing"
)

func lh(version string) http.Header { return hdr(HeaderProtocolVersion, version) }

// initBodyEliciting is initBody of a client that declares elicitation,
// so that the server may ask it.
func initBodyEliciting(version string) string {
	return strings.Replace(initBody(version), `"capabilities":{}`, `"capabilities":{"elicitation":{}}`, 1)
}

func initBody(version string) string {
	return `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + version +
		`","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
}

var legacyCases = []httpCase{
	{name: "initialize echoes 2025-11-25", rev: l11, method: "initialize", body: initBody(l11),
		check: resultContains(`"protocolVersion":"2025-11-25"`)},
	{name: "initialize echoes 2025-06-18", rev: l06, method: "initialize", body: initBody(l06),
		check: resultContains(`"protocolVersion":"2025-06-18"`)},
	{name: "initialize echoes 2025-03-26", rev: l03, method: "initialize", body: initBody(l03),
		check: resultContains(`"protocolVersion":"2025-03-26"`)},
	{name: "initialize never negotiates modern", rev: l11, method: "initialize", body: initBody(m26),
		check: resultContains(`"protocolVersion":"2025-11-25"`)},
	{name: "initialize counter-offers unknown", rev: l11, method: "initialize", body: initBody("2024-01-01"),
		check: resultContains(`"protocolVersion":"2025-11-25"`)},
	{name: "initialize result shape", rev: l11, method: "initialize", body: initBody(l11),
		check: hasKeys("capabilities", "serverInfo", "instructions", "!resultType", "!ttlMs")},
	{name: "initialize 2025-03-26 strips new Implementation fields", rev: l03, method: "initialize", body: initBody(l03),
		check: func(t *testing.T, r resp, h http.Header) {
			if s := string(r.Result["serverInfo"]); s != `{"name":"fake","version":"1.0.0"}` {
				t.Errorf("serverInfo = %s", s)
			}
		}},
	{name: "initialized notification 202", hdr: lh(l11), status: 202, body: `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
	{name: "ping", rev: l11, method: "ping", hdr: lh(l11), body: `{"jsonrpc":"2.0","id":1,"method":"ping"}`},
	{name: "logging/setLevel", rev: l11, method: "logging/setLevel", hdr: lh(l11),
		body: `{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"info"}}`},
	{name: "resources/subscribe", rev: l06, method: "resources/subscribe", hdr: lh(l06),
		body: `{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"file:///a.txt"}}`},
	{name: "tools/list has no modern fields", rev: l11, method: "tools/list", hdr: lh(l11),
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, check: hasKeys("tools", "!resultType", "!ttlMs", "!cacheScope", "!_meta")},
	{name: "tools/list 2025-03-26 strips title, outputSchema, icons", rev: l03, method: "tools/list",
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		check: func(t *testing.T, r resp, h http.Header) {
			for _, k := range []string{`"name":"echo","title"`, `outputSchema`, `icons`} {
				if contains(r.Result["tools"], k) {
					t.Errorf("2025-03-26 tools carry %s", k)
				}
			}
		}},
	{name: "tools/list 2025-06-18 drops non-object outputSchema only", rev: l06, method: "tools/list", hdr: lh(l06),
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		check: func(t *testing.T, r resp, h http.Header) {
			if contains(r.Result["tools"], `"type":"array"`) || !contains(r.Result["tools"], `"properties":{"n"`) || contains(r.Result["tools"], "icons") {
				t.Errorf("tools = %s", r.Result["tools"])
			}
		}},
	{name: "tools/call has no resultType", rev: l11, method: "tools/call", hdr: lh(l11),
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`, check: hasKeys("content", "!resultType", "!_meta")},
	{name: "structuredContent object kept", rev: l06, method: "tools/call", hdr: lh(l06),
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"structured"}}`, check: hasKeys("structuredContent")},
	{name: "structuredContent non-object dropped with text copy", rev: l11, method: "tools/call", hdr: lh(l11),
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"array"}}`, check: hasKeys("!structuredContent", "content")},
	{name: "structuredContent dropped for 2025-03-26", rev: l03, method: "tools/call",
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"structured"}}`, check: hasKeys("!structuredContent")},
	{name: "resource_link becomes text for 2025-03-26", rev: l03, method: "tools/call",
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"link"}}`, check: resultContains(`"type":"text"`)},
	{name: "resource_link kept for 2025-06-18", rev: l06, method: "tools/call", hdr: lh(l06),
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"link"}}`, check: resultContains(`"type":"resource_link"`)},
	{name: "input_required becomes isError on stateless legacy", rev: l11, method: "tools/call", hdr: lh(l11),
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"elicit"}}`, check: resultContains(`"isError":true`)},
	{name: "unknown tool", rev: l11, hdr: lh(l11), code: -32602,
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope"}}`},
	{name: "resource not found is -32002", rev: l11, hdr: lh(l11), code: -32002,
		body: `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///x"}}`},
	{name: "resources/read", rev: l06, method: "resources/read", hdr: lh(l06),
		body: `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///a.txt"}}`, check: hasKeys("contents", "!ttlMs")},
	{name: "resources/list strips lastModified for 2025-03-26", rev: l03, method: "resources/list",
		body: `{"jsonrpc":"2.0","id":1,"method":"resources/list"}`,
		check: func(t *testing.T, r resp, h http.Header) {
			if contains(r.Result["resources"], "lastModified") || contains(r.Result["resources"], `"title"`) {
				t.Errorf("resources = %s", r.Result["resources"])
			}
		}},
	{name: "prompts/list", rev: l06, method: "prompts/list", hdr: lh(l06), body: `{"jsonrpc":"2.0","id":1,"method":"prompts/list"}`},
	{name: "prompts/get", rev: l03, method: "prompts/get",
		body: `{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"greet","arguments":{"name":"Ada"}}}`},
	{name: "resources/templates/list", rev: l11, method: "resources/templates/list", hdr: lh(l11),
		body: `{"jsonrpc":"2.0","id":1,"method":"resources/templates/list"}`},
	{name: "completion", rev: l11, method: "completion/complete", hdr: lh(l11),
		body: `{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"name","value":"a"}}}`},
	{name: "unknown method is -32601 with 200", rev: l11, hdr: lh(l11), code: -32601,
		body: `{"jsonrpc":"2.0","id":1,"method":"foo/bar"}`},
	{name: "discover is not a legacy method", rev: m26, status: 400, code: -32602,
		body: `{"jsonrpc":"2.0","id":1,"method":"server/discover"}`},
	{name: "unknown version header is 400", rev: m26, hdr: lh("2024-99-99"), status: 400, code: -32022,
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
	{name: "Mcp-Method not validated on legacy", rev: l11, method: "tools/list", hdr: hdr(HeaderProtocolVersion, l11, HeaderMethod, "wrong"),
		body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
	{name: "batch accepted for 2025-03-26", rev: l03, status: 200,
		body: `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`},
	{name: "batch rejected for 2025-06-18", hdr: lh(l06), status: 400, code: -32600,
		body: `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`},
	{name: "posted response accepted", hdr: lh(l11), status: 202, body: `{"jsonrpc":"2.0","id":"srv-1","result":{}}`},
	{name: "legacy GET without session 405", verb: "GET", status: 405, code: -32600},
}

func contains(b []byte, sub string) bool { return len(b) > 0 && stringContains(string(b), sub) }

func TestChecklistLegacyHTTP(t *testing.T) {
	runHTTPCases(t, legacyCases, &HTTPOptions{Loopback: true})
}
