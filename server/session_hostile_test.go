package server_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/tasks"
	"github.com/mcpdecl/mcpdecl/testkit/wiretest"
)

// legacyPost sends one 2025-11-25 request under session id sid ("" for
// none) and returns the answer's result and error, and the session id
// the server handed out.
func legacyPost(t *testing.T, url, sid, method, params string) (map[string]any, map[string]any, string) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":` + params + `}`
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", mcp.Version20251125)
	if sid != "" {
		req.Header.Set(mcp.HeaderSessionID, sid)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	msgs := wiretest.SplitHTTPMessages(resp.Header.Get("Content-Type"), b)
	if len(msgs) == 0 {
		t.Fatalf("%s: no answer (HTTP %d)", method, resp.StatusCode)
	}
	var m struct {
		Result map[string]any `json:"result"`
		Error  map[string]any `json:"error"`
	}
	if err := json.Unmarshal(msgs[len(msgs)-1], &m); err != nil {
		t.Fatalf("%s: answer is not JSON: %s", method, b)
	}
	return m.Result, m.Error, resp.Header.Get(mcp.HeaderSessionID)
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestHostileSignedSessionIDsAreUnique: two 2025 clients that initialize
// alike, at once, get different signed session ids, and the second can
// neither list nor read the task of the first.
func TestHostileSignedSessionIDsAreUnique(t *testing.T) {
	a := newReplica(t, tasks.NewMemory(), nil)
	init := `{"protocolVersion":"` + mcp.Version20251125 + `","capabilities":{"tasks":{}},"clientInfo":{"name":"same","version":"1"}}`
	var sids []string
	for range 2 {
		_, e, sid := legacyPost(t, a.url, "", "initialize", init)
		if e != nil || sid == "" {
			t.Fatalf("initialize: %v, session %q", e, sid)
		}
		sids = append(sids, sid)
	}
	if sids[0] == sids[1] {
		t.Fatalf("two identical initializes got the same session id %q", sids[0])
	}
	created, e, _ := legacyPost(t, a.url, sids[0], "tools/call", `{"name":"must_task","task":{"ttl":60000}}`)
	task, _ := created["task"].(map[string]any)
	id, _ := task["taskId"].(string)
	if e != nil || id == "" {
		t.Fatalf("the first client's task: %v %v", created, e)
	}
	if l, e, _ := legacyPost(t, a.url, sids[1], "tasks/list", `{}`); e != nil || strings.Contains(toJSON(l), id) {
		t.Errorf("the second client's tasks/list: %v %v; must not list %s", l, e, id)
	}
	for _, m := range []string{"tasks/get", "tasks/result"} {
		if r, e, _ := legacyPost(t, a.url, sids[1], m, `{"taskId":"`+id+`"}`); e == nil || r != nil {
			t.Errorf("the second client's %s of the first's task: %v %v", m, r, e)
		}
	}
	if l, _, _ := legacyPost(t, a.url, sids[0], "tasks/list", `{}`); !strings.Contains(toJSON(l), id) {
		t.Errorf("the first client's own tasks/list lacks %s: %v", id, l)
	}
}
