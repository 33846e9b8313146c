package mcp

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

const listenBody = `{"jsonrpc":"2.0","id":"L1","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true,"promptsListChanged":true,"resourceSubscriptions":["file:///a.txt"]},$META}}`

func TestListenStdio(t *testing.T) {
	s, _ := newTestServer(nil)
	c := startStdio(t, s)
	c.rev = m26
	c.send(listenBody)
	ack := c.recv("subscriptions/listen")
	if ack.Method != "notifications/subscriptions/acknowledged" || !contains(ack.Params["_meta"], `"L1"`) {
		t.Fatalf("first message = %+v, want the acknowledgment tagged L1", ack)
	}
	waitListeners(t, s, 1)
	s.NotifyListChanged(ToolsListChanged | ResourcesListChanged) // resources not requested
	n := c.recv("subscriptions/listen")
	if n.Method != "notifications/tools/list_changed" || !contains(n.Params["_meta"], `"io.modelcontextprotocol/subscriptionId":"L1"`) {
		t.Fatalf("got %+v", n)
	}
	s.NotifyResourceUpdated("file:///a.txt")
	if n := c.recv("subscriptions/listen"); n.Method != "notifications/resources/updated" {
		t.Fatalf("got %+v", n)
	}
	// stdin EOF ends the stream: notifications/cancelled, then the final result.
	out := c.closeAndDrain()
	if len(out) != 2 || !strings.Contains(out[0], "notifications/cancelled") || !strings.Contains(out[1], `"result"`) {
		t.Fatalf("shutdown messages = %q", out)
	}
	for _, l := range out {
		checkSent(t, m26, "subscriptions/listen", []byte(l))
	}
}

func TestListenStdioClientCancel(t *testing.T) {
	s, _ := newTestServer(nil)
	c := startStdio(t, s)
	c.rev = m26
	c.send(listenBody)
	c.recv("subscriptions/listen")
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"L1"}}`)
	waitListeners(t, s, 0)
	if out := c.closeAndDrain(); len(out) != 0 {
		t.Errorf("a cancelled listen stream sent %q", out)
	}
}

func TestLegacyStdioListChanged(t *testing.T) {
	s, _ := newTestServer(nil)
	c := startStdio(t, s)
	c.rev = l11
	c.send(initBody(l11))
	c.recv("initialize")
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"file:///a.txt"}}`)
	c.recv("resources/subscribe")
	waitListeners(t, s, 1)
	s.NotifyListChanged(PromptsListChanged)
	if n := c.recv(""); n.Method != "notifications/prompts/list_changed" || n.Params != nil {
		t.Fatalf("got %+v", n)
	}
	s.NotifyResourceUpdated("file:///b.txt") // not subscribed
	s.NotifyResourceUpdated("file:///a.txt")
	if n := c.recv(""); n.Method != "notifications/resources/updated" || !contains(n.Params["uri"], "a.txt") {
		t.Fatalf("got %+v", n)
	}
	c.closeAndDrain()
}

func waitListeners(t *testing.T, s *Server, n int) {
	t.Helper()
	for range 500 {
		s.listeners.mu.RLock()
		got := len(s.listeners.m)
		s.listeners.mu.RUnlock()
		if got == n {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatalf("listeners never reached %d", n)
}

// sseReader reads SSE data lines from a live response.
func sseReader(t *testing.T, r *http.Response) func() resp {
	sc := bufio.NewScanner(r.Body)
	return func() resp {
		t.Helper()
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				checkSent(t, m26, "subscriptions/listen", []byte(d))
				return decode(t, []byte(d))
			}
		}
		t.Fatalf("stream ended: %v", sc.Err())
		return resp{}
	}
}

func TestListenHTTPAndShutdown(t *testing.T) {
	s, _ := newTestServer(nil)
	ts := httptest.NewServer(s.HTTPHandler(nil))
	defer ts.Close()
	req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(expand(listenBody)))
	req.Header = mh("subscriptions/listen", "")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" || res.Header.Get("X-Accel-Buffering") != "no" {
		t.Fatalf("headers %v", res.Header)
	}
	next := sseReader(t, res)
	if ack := next(); ack.Method != "notifications/subscriptions/acknowledged" {
		t.Fatalf("ack = %+v", ack)
	}
	waitListeners(t, s, 1)
	s.NotifyListChanged(ToolsListChanged)
	if n := next(); n.Method != "notifications/tools/list_changed" {
		t.Fatalf("got %+v", n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	final := next()
	if final.Result == nil || !contains(final.Result["_meta"], `"io.modelcontextprotocol/subscriptionId":"L1"`) {
		t.Fatalf("final = %+v", final)
	}
	// After shutdown began, new requests are refused.
	rec := doHTTP(t, s.HTTPHandler(nil), "POST", mh("tools/list", ""), `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{$META}}`)
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("status after shutdown = %d", rec.Code)
	}
}

func TestLegacyStdioLogging(t *testing.T) {
	s, _ := newTestServer(nil)
	c := startStdio(t, s)
	c.rev = l11
	c.send(initBody(l11))
	c.recv("initialize")
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"progress"}}`)
	if r := c.recv("tools/call"); r.Method != "" {
		t.Fatalf("log or progress sent without setLevel or token: %+v", r)
	}
	c.send(`{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"info"}}`)
	c.recv("logging/setLevel")
	c.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"progress","_meta":{"progressToken":5}}}`)
	var got []string
	for {
		r := c.recv("tools/call")
		if r.Method == "" {
			break
		}
		got = append(got, r.Method)
	}
	if strings.Join(got, " ") != "notifications/progress notifications/message notifications/progress" {
		t.Errorf("notifications = %v", got)
	}
	c.closeAndDrain()
}
