package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
)

// twoStepBackends are a slow read that waits for its request's context
// (or release), and a write that counts.
type twoStepBackends struct {
	url       string
	started   chan struct{} // a slow request arrived
	cancelled chan struct{} // the slow request's context ended
	release   chan struct{} // lets the slow request answer
	writes    atomic.Int32
}

func startTwoStepBackends(t *testing.T) *twoStepBackends {
	b := &twoStepBackends{started: make(chan struct{}, 8), cancelled: make(chan struct{}, 8), release: make(chan struct{})}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/slow":
			b.started <- struct{}{}
			select {
			case <-r.Context().Done():
				b.cancelled <- struct{}{}
				return
			case <-b.release:
			}
			_, _ = io.WriteString(w, `{"ok":true}`)
		case "/write":
			b.writes.Add(1)
			_, _ = io.WriteString(w, `{"written":true}`)
		}
	}))
	t.Cleanup(ts.Close)
	t.Cleanup(func() {
		select {
		case <-b.release:
		default:
			close(b.release)
		}
	})
	b.url = ts.URL
	return b
}

func (b *twoStepBackends) config() string {
	return fmt.Sprintf(`
backend "http" "api" {
  base_url = %q
  timeout  = "10m" # only a cancel ends the slow request
}

tool "slow_then_write" {
  description = "Reads slowly, then writes."
  step "read" {
    http "api" {
      path = "/slow"
    }
  }
  http "api" {
    method = "POST"
    path   = "/write"
  }
}
`, b.url)
}

// wait reads one of ch, failing the test when nothing comes for long
// (a hang, not a measured time).
func wait(t *testing.T, ch <-chan struct{}, what string) bool {
	t.Helper()
	select {
	case <-ch:
		return true
	case <-time.After(20 * time.Second):
		t.Errorf("%s never happened", what)
		return false
	}
}

// startTableHTTP serves src over Streamable HTTP with opts.
func startTableHTTP(t *testing.T, src string, opts *mcp.HTTPOptions) (string, *mcp.Server) {
	t.Helper()
	srv, err := server.Open(context.Background(), compileWithAdapters(t, src), &server.Options{})
	if err != nil {
		t.Fatal(err)
	}
	proto := mcp.NewServer(srv, nil)
	ts := httptest.NewServer(proto.HTTPHandler(opts))
	t.Cleanup(func() {
		ts.Close()
		srv.Close()
	})
	return ts.URL, proto
}

// rawClient is a 2025-11-25 client over plain HTTP.
type rawClient struct {
	t    *testing.T
	url  string
	sid  string
	caps string
}

func (c *rawClient) post(ctx context.Context, body string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set(mcp.HeaderProtocolVersion, mcp.Version20251125)
	if c.sid != "" {
		req.Header.Set(mcp.HeaderSessionID, c.sid)
	}
	return http.DefaultClient.Do(req)
}

func (c *rawClient) initialize(name string) {
	c.t.Helper()
	resp, err := c.post(context.Background(), `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":`+c.caps+`,"clientInfo":{"name":"`+name+`","version":"1"}}}`)
	if err != nil {
		c.t.Fatal(err)
	}
	resp.Body.Close()
	if c.sid = resp.Header.Get(mcp.HeaderSessionID); c.sid == "" {
		c.t.Fatalf("initialize: %d and no session id", resp.StatusCode)
	}
	c.notify(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func (c *rawClient) notify(body string) {
	c.t.Helper()
	resp, err := c.post(context.Background(), body)
	if err != nil {
		c.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		c.t.Fatalf("notification: %d", resp.StatusCode)
	}
}

// messages reads the JSON-RPC messages of a response, JSON or SSE.
func messages(resp *http.Response) ([]map[string]any, error) {
	defer resp.Body.Close()
	var raw [][]byte
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if d, ok := bytes.CutPrefix(sc.Bytes(), []byte("data: ")); ok {
				raw = append(raw, bytes.Clone(d))
			}
		}
		if err := sc.Err(); err != nil {
			return nil, err
		}
	} else {
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(b)) > 0 {
			raw = append(raw, b)
		}
	}
	var out []map[string]any
	for _, r := range raw {
		var m map[string]any
		if err := json.Unmarshal(r, &m); err != nil {
			return nil, fmt.Errorf("%s: %v", r, err)
		}
		out = append(out, m)
	}
	return out, nil
}

// callAsync sends tools/call id 7 of name; the messages of its response
// arrive on the channel.
func (c *rawClient) callAsync(name string) <-chan []map[string]any {
	ch := make(chan []map[string]any, 1)
	go func() {
		resp, err := c.post(context.Background(), `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"`+name+`","arguments":{}}}`)
		if err != nil {
			c.t.Error(err)
			ch <- nil
			return
		}
		ms, err := messages(resp)
		if err != nil {
			c.t.Error(err)
		}
		ch <- ms
	}()
	return ch
}

// TestServeCancelOverHTTP: a 2025 client's notifications/cancelled stops
// the running backend call, the write after it never runs and the call is
// not answered, with signed sessions and with --legacy-sessions.
func TestServeCancelOverHTTP(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		t.Run(fmt.Sprintf("legacy_sessions=%v", legacy), func(t *testing.T) {
			b := startTwoStepBackends(t)
			url, proto := startTableHTTP(t, b.config(), &mcp.HTTPOptions{LegacySessions: legacy})
			c := &rawClient{t: t, url: url, caps: "{}"}
			c.initialize("canceller")
			answer := c.callAsync("slow_then_write")
			if !wait(t, b.started, "the slow request") {
				return
			}
			c.notify(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"user"}}`)
			if !wait(t, b.cancelled, "the cancellation of the backend request") {
				close(b.release) // let the call end, to see what it does next
			}
			for _, m := range <-answer {
				if m["id"] != nil {
					t.Errorf("the cancelled call was answered: %v", m)
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			_ = proto.Shutdown(ctx) // every call has ended
			if n := b.writes.Load(); n != 0 {
				t.Errorf("the write after the cancelled step ran %d times", n)
			}
		})
	}
}

// TestServeDeleteSessionCancelsItsCalls: a legacy session ended by its
// client (DELETE) takes its running calls with it: the backend request is
// cancelled and the write after it never runs.
func TestServeDeleteSessionCancelsItsCalls(t *testing.T) {
	b := startTwoStepBackends(t)
	url, proto := startTableHTTP(t, b.config(), &mcp.HTTPOptions{LegacySessions: true})
	c := &rawClient{t: t, url: url, caps: "{}"}
	c.initialize("leaver")
	answer := c.callAsync("slow_then_write")
	if !wait(t, b.started, "the slow request") {
		return
	}
	req, _ := http.NewRequest(http.MethodDelete, url, nil)
	req.Header.Set(mcp.HeaderSessionID, c.sid)
	req.Header.Set(mcp.HeaderProtocolVersion, mcp.Version20251125)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %d", resp.StatusCode)
	}
	if !wait(t, b.cancelled, "the cancellation of the backend request") {
		close(b.release)
	}
	<-answer
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_ = proto.Shutdown(ctx)
	if n := b.writes.Load(); n != 0 {
		t.Errorf("the write after the ended session's step ran %d times", n)
	}
}

// TestServeHostileCancelOtherSession: a notifications/cancelled naming
// another session's request id (the ids are small numbers every client
// uses) cancels nothing, nor does one sent without a session.
func TestServeHostileCancelOtherSession(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		t.Run(fmt.Sprintf("legacy_sessions=%v", legacy), func(t *testing.T) {
			b := startTwoStepBackends(t)
			url, _ := startTableHTTP(t, b.config(), &mcp.HTTPOptions{LegacySessions: legacy})
			victim := &rawClient{t: t, url: url, caps: "{}"}
			victim.initialize("victim")
			attacker := &rawClient{t: t, url: url, caps: "{}"}
			attacker.initialize("attacker")
			anonymous := &rawClient{t: t, url: url}
			answer := victim.callAsync("slow_then_write")
			if !wait(t, b.started, "the slow request") {
				return
			}
			attacker.notify(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`)
			anonymous.notify(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`)
			close(b.release)
			var answered bool
			for _, m := range <-answer {
				if m["id"] == float64(7) && m["result"] != nil {
					answered = true
				}
			}
			select {
			case <-b.cancelled:
				t.Error("another session's notifications/cancelled cancelled the call")
			default:
			}
			if !answered || b.writes.Load() != 1 {
				t.Errorf("the victim's call did not finish: answered %v, writes %d", answered, b.writes.Load())
			}
		})
	}
}

// TestServeCancelGoSDK: go-sdk's client, speaking 2025-11-25 over HTTP,
// cancels a call through its context; the server stops the backend call
// and never runs the write after it, in both session modes.
func TestServeCancelGoSDK(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		t.Run(fmt.Sprintf("legacy_sessions=%v", legacy), func(t *testing.T) {
			b := startTwoStepBackends(t)
			url, proto := startTableHTTP(t, b.config(), &mcp.HTTPOptions{LegacySessions: legacy})
			c := connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: url}, mcp.Version20251125).(*sdkClient)
			defer c.close()
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				_, err := c.cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "slow_then_write", Arguments: map[string]any{}})
				done <- err
			}()
			if !wait(t, b.started, "the slow request") {
				cancel()
				return
			}
			cancel()
			if err := <-done; err == nil {
				t.Error("the cancelled call returned no error")
			}
			if !wait(t, b.cancelled, "the cancellation of the backend request") {
				close(b.release)
			}
			sctx, stop := context.WithTimeout(context.Background(), 20*time.Second)
			defer stop()
			_ = proto.Shutdown(sctx) // every call has ended
			if n := b.writes.Load(); n != 0 {
				t.Errorf("the write after the cancelled step ran %d times", n)
			}
		})
	}
}
