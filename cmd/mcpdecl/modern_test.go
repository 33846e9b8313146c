package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// callModern sends a 2026-07-28 tools/call of tool to url over HTTP, with
// params (arguments and more, without braces) and the client capabilities
// caps, and returns the JSON-RPC result, or the error object when there
// is one.
func callModern(t *testing.T, url, tool, params, caps string) json.RawMessage {
	t.Helper()
	raw := postModern(t, url, "tools/call", tool, `"name":"`+tool+`",`+params, caps)
	var m struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("not JSON-RPC: %s", raw)
	}
	if m.Error != nil {
		return m.Error
	}
	return m.Result
}

// readModern sends a 2026-07-28 resources/read of uri and returns the
// response body.
func readModern(t *testing.T, url, uri string) string {
	t.Helper()
	return string(postModern(t, url, "resources/read", uri, `"uri":"`+uri+`"`, `{}`))
}

// postModern POSTs a 2026-07-28 request of method with the headers a
// conforming client sends (name is Mcp-Name) and returns the body.
func postModern(t *testing.T, url, method, name, params, caps string) []byte {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{` + params +
		`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}}}`
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	req.Header.Set("Mcp-Name", name)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return raw
}
