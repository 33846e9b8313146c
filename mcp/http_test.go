package mcp

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestHTTPSSEProgress(t *testing.T) {
	s, _ := newTestServer(nil)
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"progress","_meta":{"progressToken":7,"io.modelcontextprotocol/logLevel":"info","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	rec := doHTTP(t, s.HTTPHandler(nil), "POST", mh("tools/call", "progress"), body)
	if ct := rec.Header().Get("Content-Type"); ct != "text/event-stream" || rec.Header().Get("X-Accel-Buffering") != "no" {
		t.Fatalf("headers = %v", rec.Header())
	}
	msgs := messages(t, rec.Header().Get("Content-Type"), rec.Body.Bytes())
	if len(msgs) != 4 {
		t.Fatalf("got %d messages: %s", len(msgs), rec.Body)
	}
	for _, m := range msgs {
		checkSent(t, m26, "tools/call", m)
	}
	if r := decode(t, msgs[3]); r.Result == nil {
		t.Errorf("last event is not the response: %s", msgs[3])
	}
	// A client that accepts only JSON gets the plain response.
	req := httptest.NewRequest("POST", "http://localhost/", strings.NewReader(body))
	req.Header = mh("tools/call", "progress")
	req.Header.Set("Accept", "application/json")
	rec = httptest.NewRecorder()
	s.HTTPHandler(nil).ServeHTTP(rec, req)
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("JSON-only client got %s", ct)
	}
}

func TestHTTPTransportLimits(t *testing.T) {
	s, _ := newTestServer(nil)
	h := s.HTTPHandler(&HTTPOptions{MaxBodyBytes: 64, Loopback: true, AllowedOrigins: []string{"https://app.example"}, CORS: true})
	cases := []struct {
		name   string
		mod    func(r *http.Request)
		body   string
		status int
	}{
		{"body too large", nil, `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 100) + `"}}`, 413},
		{"wrong content type", func(r *http.Request) { r.Header.Set("Content-Type", "text/plain") }, `{}`, 415},
		{"rebinding Host", func(r *http.Request) { r.Host = "evil.example" }, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, 403},
		{"loopback Origin", func(r *http.Request) { r.Header.Set("Origin", "http://127.0.0.1:3000") }, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, 200},
		{"listed Origin", func(r *http.Request) { r.Header.Set("Origin", "https://app.example") }, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, 200},
		{"null Origin", func(r *http.Request) { r.Header.Set("Origin", "null") }, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, 403},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", "http://localhost/mcp", strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			if tc.mod != nil {
				tc.mod(req)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.status {
				t.Errorf("status = %d, want %d (%s)", rec.Code, tc.status, rec.Body)
			}
			if rec.Code != 200 {
				checkSent(t, m26, "", rec.Body.Bytes())
			}
		})
	}
}

func TestHTTPCORSPreflight(t *testing.T) {
	s, _ := newTestServer(nil)
	h := s.HTTPHandler(&HTTPOptions{CORS: true, AllowedOrigins: []string{"https://app.example"}, AllowedHosts: []string{"mcp.example"}})
	req := httptest.NewRequest("OPTIONS", "http://mcp.example/mcp", nil)
	req.Header.Set("Origin", "https://app.example")
	req.Header.Set("Access-Control-Request-Headers", "mcp-protocol-version, mcp-param-region")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	hd := rec.Header()
	if rec.Code != 204 || hd.Get("Access-Control-Allow-Origin") != "https://app.example" ||
		!strings.Contains(hd.Get("Access-Control-Allow-Headers"), "Mcp-Method") ||
		!strings.Contains(hd.Get("Access-Control-Allow-Headers"), "mcp-param-region") ||
		!strings.Contains(hd.Get("Access-Control-Expose-Headers"), "Mcp-Session-Id") {
		t.Errorf("preflight: %d %v", rec.Code, hd)
	}
}

// TestHTTPLegacySessions covers stateful legacy serving: a minted session id,
// the GET stream carrying list_changed, elicitation over the POST's SSE
// stream answered by a posted response, DELETE, then 404.
func TestHTTPLegacySessions(t *testing.T) {
	s, _ := newTestServer(nil)
	ts := httptest.NewServer(s.HTTPHandler(&HTTPOptions{LegacySessions: true}))
	defer ts.Close()
	post := func(sid, body string) *http.Response {
		req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set(HeaderProtocolVersion, l11)
		if sid != "" {
			req.Header.Set(HeaderSessionID, sid)
		}
		res, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := post("", initBodyEliciting(l11))
	sid := res.Header.Get(HeaderSessionID)
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	checkSent(t, l11, "initialize", b)
	if sid == "" {
		t.Fatal("no Mcp-Session-Id minted")
	}
	get, _ := http.NewRequest("GET", ts.URL, nil)
	get.Header.Set(HeaderSessionID, sid)
	get.Header.Set("Accept", "text/event-stream")
	stream, err := ts.Client().Do(get)
	if err != nil || stream.StatusCode != 200 {
		t.Fatalf("GET stream: %v %v", err, stream)
	}
	defer stream.Body.Close()
	waitListeners(t, s, 1)
	s.NotifyListChanged(ToolsListChanged)
	sc := bufio.NewScanner(stream.Body)
	if !scanData(sc, "notifications/tools/list_changed") {
		t.Fatal("no list_changed on the GET stream")
	}
	// Elicitation: the server request arrives on the POST's SSE stream.
	call := post(sid, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"elicit"}}`)
	csc := bufio.NewScanner(call.Body)
	var reqID string
	for csc.Scan() {
		if d, ok := strings.CutPrefix(csc.Text(), "data: "); ok {
			checkSent(t, l11, "tools/call", []byte(d))
			reqID = string(decode(t, []byte(d)).ID)
			break
		}
	}
	ans := post(sid, `{"jsonrpc":"2.0","id":`+reqID+`,"result":{"action":"accept","content":{"name":"Ada"}}}`)
	if ans.StatusCode != 202 {
		t.Errorf("posted response status %d", ans.StatusCode)
	}
	ans.Body.Close()
	if !scanData(csc, "got") {
		t.Error("no tool result after the elicitation answer")
	}
	call.Body.Close()
	del, _ := http.NewRequest("DELETE", ts.URL, nil)
	del.Header.Set(HeaderSessionID, sid)
	if res, _ := ts.Client().Do(del); res.StatusCode != 204 {
		t.Errorf("DELETE status %d", res.StatusCode)
	}
	if res := post(sid, `{"jsonrpc":"2.0","id":6,"method":"ping"}`); res.StatusCode != 404 {
		t.Errorf("ended session status %d, want 404", res.StatusCode)
	}
}

func scanData(sc *bufio.Scanner, want string) bool {
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok && strings.Contains(d, want) {
			return true
		}
	}
	return false
}

// TestHTTPDNSRebinding runs a real loopback listener: the Host check turns on
// by itself (conformance dns-rebinding-protection).
func TestHTTPDNSRebinding(t *testing.T) {
	s, _ := newTestServer(nil)
	ts := httptest.NewServer(s.HTTPHandler(nil))
	defer ts.Close()
	for _, tc := range []struct {
		host, origin string
		status       int
	}{
		{"", "", 200},
		{"localhost", "http://localhost:6274", 200},
		{"evil.example", "", 403},
		{"", "https://evil.example", 403},
	} {
		req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Content-Type", "application/json")
		if tc.host != "" {
			req.Host = tc.host
		}
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		res, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tc.status {
			t.Errorf("Host %q Origin %q: status %d, want %d", tc.host, tc.origin, res.StatusCode, tc.status)
		}
	}
}
