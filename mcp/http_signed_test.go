package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// capsHandler reports what a legacy request knows of its client.
type capsHandler struct{ *fakeHandler }

func (c capsHandler) CallTool(ctx context.Context, req *Request, p *CallToolParams) (*CallToolResult, error) {
	if p.Name != "caps" {
		return c.fakeHandler.CallTool(ctx, req, p)
	}
	b, _ := json.Marshal(map[string]any{"caps": req.ClientCapabilities, "level": req.LogLevel, "version": req.ProtocolVersion})
	return &CallToolResult{Content: []ContentBlock{TextContent(string(b))}}, nil
}

type replica struct {
	ts *httptest.Server
	h  *httpHandler
}

func newReplica(t *testing.T, keys *Keys) *replica {
	s := NewServer(capsHandler{newFake()}, nil)
	h := s.HTTPHandler(&HTTPOptions{SessionKeys: keys}).(*httpHandler)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return &replica{ts: ts, h: h}
}

func (r *replica) post(t *testing.T, sid, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("POST", r.ts.URL, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set(HeaderProtocolVersion, l11)
	if sid != "" {
		req.Header.Set(HeaderSessionID, sid)
	}
	res, err := r.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

// Without LegacySessions a 2025 client gets a signed session id: any
// replica with the same keys knows its revision and capabilities, a
// server→client request rides the POST's own SSE stream, logs flow at
// info, and a forged, foreign or expired id is an unknown session (404).
func TestHTTPSignedSessions(t *testing.T) {
	shared, _ := NewKeys([][]byte{bytes.Repeat([]byte("k"), MinKeyLen)})
	a, b := newReplica(t, shared), newReplica(t, shared)
	other := newReplica(t, nil)

	init := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + l11 +
		`","capabilities":{"elicitation":{"form":{}},"sampling":{},"experimental":{"big":"` + strings.Repeat("x", 5000) + `"}},"clientInfo":{"name":"c","version":"1"}}}`
	res := a.post(t, "", init)
	sid := res.Header.Get(HeaderSessionID)
	if !strings.HasPrefix(sid, signedSessionPrefix) || len(sid) > 1024 {
		t.Fatalf("session id %q (%d bytes)", sid, len(sid))
	}

	// Replica b reads what initialize on a negotiated.
	body, _ := io.ReadAll(b.post(t, sid, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"caps"}}`).Body)
	for _, want := range []string{`\"elicitation\":{\"form\":{}}`, `\"sampling\":{}`, `\"level\":\"info\"`, `\"version\":\"` + l11} {
		if !strings.Contains(string(body), want) {
			t.Errorf("replica b's view lacks %s: %s", want, body)
		}
	}
	if strings.Contains(string(body), "experimental") {
		t.Errorf("unused capabilities were carried: %s", body)
	}

	// Elicitation on the POST's stream, answered by a posted response.
	call := b.post(t, sid, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"elicit"}}`)
	sc := bufio.NewScanner(call.Body)
	var reqID string
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			checkSent(t, l11, "tools/call", []byte(d))
			reqID = string(decode(t, []byte(d)).ID)
			break
		}
	}
	if len(reqID) < 30 {
		t.Fatalf("server request id %s: want a random one", reqID)
	}
	if ans := b.post(t, sid, `{"jsonrpc":"2.0","id":`+reqID+`,"result":{"action":"accept","content":{"name":"Ada"}}}`); ans.StatusCode != 202 {
		t.Errorf("posted response status %d", ans.StatusCode)
	}
	if !scanData(sc, `got {\"action\":\"accept\"`) {
		t.Error("no tool result after the elicitation answer")
	}

	// Logs at info and above by default.
	logs, _ := io.ReadAll(a.post(t, sid, `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"progress"}}`).Body)
	if !strings.Contains(string(logs), `"working"`) || strings.Contains(string(logs), `"noise"`) {
		t.Errorf("want the info log and not the debug one: %s", logs)
	}

	for name, bad := range map[string]struct {
		r   *replica
		sid string
	}{
		"other keys": {other, sid},
		"tampered":   {a, sid[:len(sid)-3] + "AAA"},
		"payload":    {a, sid[:10] + flip(sid[10]) + sid[11:]},
		"not signed": {a, "0123456789abcdef0123456789abcdef"},
	} {
		if res := bad.r.post(t, bad.sid, `{"jsonrpc":"2.0","id":7,"method":"ping"}`); res.StatusCode != 404 {
			t.Errorf("%s: status %d, want 404", name, res.StatusCode)
		}
	}
	a.h.now = func() time.Time { return time.Now().Add(SignedSessionTTL + time.Minute) }
	if res := a.post(t, sid, `{"jsonrpc":"2.0","id":8,"method":"ping"}`); res.StatusCode != 404 {
		t.Errorf("expired id: status %d, want 404", res.StatusCode)
	}
	get, _ := http.NewRequest("GET", b.ts.URL, nil)
	get.Header.Set(HeaderSessionID, sid)
	get.Header.Set("Accept", "text/event-stream")
	if res, err := b.ts.Client().Do(get); err != nil || res.StatusCode != 405 {
		t.Errorf("GET with a signed id: %v %v, want 405 (no stream without sessions)", err, res)
	}
}

func flip(c byte) string {
	if c == 'A' {
		return "B"
	}
	return "A"
}

// TestSignedSessionsPromiseNoPushes: a signed session lives for one
// request, so its initialize promises no list_changed and no
// resources/updated (tools, prompts and resources are still there, and a
// subscribe is still answered); a stateful session, which has its GET
// stream, promises both.
func TestSignedSessionsPromiseNoPushes(t *testing.T) {
	init := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + l11 +
		`","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	capsOf := func(res *http.Response) map[string]map[string]any {
		t.Helper()
		body, _ := io.ReadAll(res.Body)
		checkSent(t, l11, "initialize", body)
		var m struct {
			Result struct {
				Capabilities map[string]map[string]any `json:"capabilities"`
			} `json:"result"`
		}
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("%v: %s", err, body)
		}
		return m.Result.Capabilities
	}

	signed := newReplica(t, nil)
	res := signed.post(t, "", init)
	sid := res.Header.Get(HeaderSessionID)
	caps := capsOf(res)
	for _, kind := range []string{"tools", "prompts", "resources"} {
		c, ok := caps[kind]
		if !ok {
			t.Errorf("signed session: no %s capability: %v", kind, caps)
		}
		if len(c) != 0 {
			t.Errorf("signed session: %s promises %v, which it cannot deliver", kind, c)
		}
	}
	sub, _ := io.ReadAll(signed.post(t, sid, `{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"test://a"}}`).Body)
	if !strings.Contains(string(sub), `"result":{}`) {
		t.Errorf("subscribe under a signed session: %s", sub)
	}

	s := NewServer(newFake(), nil)
	ts := httptest.NewServer(s.HTTPHandler(&HTTPOptions{LegacySessions: true}))
	t.Cleanup(ts.Close)
	stateful := &replica{ts: ts}
	caps = capsOf(stateful.post(t, "", init))
	if caps["tools"]["listChanged"] != true || caps["resources"]["subscribe"] != true || caps["resources"]["listChanged"] != true {
		t.Errorf("stateful session: want list_changed and subscribe promised: %v", caps)
	}
}
