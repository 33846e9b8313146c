package mcp

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// legacyPoster returns a function that POSTs a 2025-11-25 message with an
// optional session id and returns the answer, its body read.
func legacyPoster(t *testing.T, ts *httptest.Server) func(sid, body string) *http.Response {
	return func(sid, body string) *http.Response {
		t.Helper()
		res, err := ts.Client().Do(legacyRequest(context.Background(), ts.URL, sid, body))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res
	}
}

func legacyRequest(ctx context.Context, url, sid, body string) *http.Request {
	req, _ := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set(HeaderProtocolVersion, l11)
	if sid != "" {
		req.Header.Set(HeaderSessionID, sid)
	}
	return req
}

const pingBody = `{"jsonrpc":"2.0","id":1,"method":"ping"}`

// fakeClock replaces the handler's clock of session use.
func fakeClock(h *httpHandler) (advance func(time.Duration)) {
	var mu sync.Mutex
	now := time.Unix(1_000_000, 0)
	h.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	return func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
}

// waitSession waits until the session's busy state is want.
func waitSession(t *testing.T, h *httpHandler, sid string, want bool) {
	t.Helper()
	for range 2000 {
		h.mu.Lock()
		sess := h.sessions[sid]
		h.mu.Unlock()
		if sess != nil && sess.busy() == want {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("session %s never became busy=%v", sid, want)
}

// TestHTTPSessionCapEndsLeastRecentlyUsedIdle: at MaxSessions a new client
// still gets a session; the least recently used idle session makes room
// (its id then gets 404) and a busy one, even older, is kept.
func TestHTTPSessionCapEndsLeastRecentlyUsedIdle(t *testing.T) {
	s, _ := newTestServer(nil)
	hh := s.HTTPHandler(&HTTPOptions{LegacySessions: true, MaxSessions: 3})
	h := hh.(*httpHandler)
	advance := fakeClock(h)
	ts := httptest.NewServer(hh)
	t.Cleanup(ts.Close) // after the streams close (cleanups run in reverse)
	post := legacyPoster(t, ts)
	var ids []string
	for range 3 { // three clients that initialize and leave
		ids = append(ids, post("", initBody(l11)).Header.Get(HeaderSessionID))
		advance(time.Second)
	}
	a, b, c := ids[0], ids[1], ids[2]
	// a, the oldest, runs a call until cancelled.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // before the server closes, even on failure
	done := make(chan struct{})
	go func() {
		defer close(done)
		slow := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow"}}`
		if res, err := ts.Client().Do(legacyRequest(ctx, ts.URL, a, slow)); err == nil {
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
	}()
	waitSession(t, h, a, true)
	advance(time.Second)
	res := post("", initBody(l11))
	d := res.Header.Get(HeaderSessionID)
	if res.StatusCode != 200 || d == "" {
		t.Fatalf("a fourth client at the cap: status %d id %q, want a new session", res.StatusCode, d)
	}
	if res := post(b, pingBody); res.StatusCode != http.StatusNotFound {
		t.Errorf("the least recently used idle session: status %d, want 404", res.StatusCode)
	}
	cancel()
	<-done
	for name, sid := range map[string]string{"the busy session": a, "a newer idle session": c, "the new session": d} {
		if res := post(sid, pingBody); res.StatusCode != 200 {
			t.Errorf("%s: status %d, want 200", name, res.StatusCode)
		}
	}
}

// TestHostileAbandonedSessionsDoNotLockOut: a client that initializes
// sessions by the thousand and never uses them cannot keep a newcomer out
// (with the defaults, for the 30 minutes they take to expire).
func TestHostileAbandonedSessionsDoNotLockOut(t *testing.T) {
	s, _ := newTestServer(nil)
	h := s.HTTPHandler(&HTTPOptions{LegacySessions: true})
	for i := range DefaultMaxSessions + 10 {
		if rec := doHTTP(t, h, "POST", hdr(HeaderProtocolVersion, l11), initBody(l11)); rec.Code != 200 && i < DefaultMaxSessions {
			t.Fatalf("abandoned initialize %d: status %d", i, rec.Code)
		}
	}
	rec := doHTTP(t, h, "POST", hdr(HeaderProtocolVersion, l11), initBody(l11))
	sid := rec.Header().Get(HeaderSessionID)
	if rec.Code != 200 || sid == "" {
		t.Fatalf("a new client after 1,010 abandoned sessions: status %d %s", rec.Code, rec.Body)
	}
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{}}}`
	if rec := doHTTP(t, h, "POST", hdr(HeaderProtocolVersion, l11, HeaderSessionID, sid), call); rec.Code != 200 || !strings.Contains(rec.Body.String(), "hello") {
		t.Fatalf("the new client's call: status %d %s", rec.Code, rec.Body)
	}
}

// Raw requests that open streams. A stream's answer is left unread until
// statusOf, so that the client side holds little more than a socket.
func listenHead(body string) string {
	return "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\n" +
		HeaderProtocolVersion + ": " + Version20260728 + "\r\n" + HeaderMethod + ": subscriptions/listen\r\nContent-Length: " +
		strconv.Itoa(len(body)) + "\r\n\r\n" + body
}

func getStreamHead(sid string) string {
	return "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n" +
		HeaderProtocolVersion + ": " + l11 + "\r\n" + HeaderSessionID + ": " + sid + "\r\n\r\n"
}

func dialSend(t testing.TB, addr, request string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	_ = conn.SetDeadline(time.Now().Add(60 * time.Second))
	if _, err := io.WriteString(conn, request); err != nil {
		t.Fatal(err)
	}
	return conn
}

func statusOf(t testing.TB, conn net.Conn) *http.Response {
	t.Helper()
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	return res
}

// callEcho makes a 2026-07-28 tools/call and checks its answer.
func callEcho(t *testing.T, ts *httptest.Server) {
	t.Helper()
	body := expand(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{},$META}}`)
	req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(body))
	req.Header = mh("tools/call", "echo")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	got, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || !strings.Contains(string(got), "hello") {
		t.Fatalf("tools/call beside the streams: status %d %s", res.StatusCode, got)
	}
}

// TestHostileIdleListenersDoNotBlockCalls: more idle listen streams than
// MaxInFlight allows requests leave every call its room.
func TestHostileIdleListenersDoNotBlockCalls(t *testing.T) {
	s, _ := newTestServer(nil)
	ts := httptest.NewServer(s.HTTPHandler(nil))
	t.Cleanup(ts.Close) // after the streams close (cleanups run in reverse)
	const n = DefaultMaxInFlight + 16
	conns := make([]net.Conn, n)
	for i := range conns {
		conns[i] = dialSend(t, ts.Listener.Addr().String(), listenHead(expand(listenBody)))
	}
	for i, conn := range conns {
		if res := statusOf(t, conn); res.StatusCode != 200 {
			t.Fatalf("listener %d of %d: status %d", i+1, n, res.StatusCode)
		}
	}
	waitListeners(t, s, n)
	callEcho(t, ts)
}

// TestHTTPStreamCap: beyond MaxStreams a stream (listen or GET) gets 503
// with Retry-After, calls still pass, and a closed stream frees its place.
func TestHTTPStreamCap(t *testing.T) {
	s, _ := newTestServer(nil)
	ts := httptest.NewServer(s.HTTPHandler(&HTTPOptions{LegacySessions: true, MaxStreams: 2, MaxInFlight: 1}))
	t.Cleanup(ts.Close) // after the streams close (cleanups run in reverse)
	addr := ts.Listener.Addr().String()
	sid := legacyPoster(t, ts)("", initBody(l11)).Header.Get(HeaderSessionID)
	first := dialSend(t, addr, listenHead(expand(listenBody)))
	second := dialSend(t, addr, getStreamHead(sid))
	for _, c := range []net.Conn{first, second} {
		if res := statusOf(t, c); res.StatusCode != 200 {
			t.Fatalf("a stream within the cap: status %d", res.StatusCode)
		}
	}
	waitListeners(t, s, 2)
	for name, req := range map[string]string{"listen": listenHead(expand(listenBody)), "GET": getStreamHead(sid)} {
		res := statusOf(t, dialSend(t, addr, req))
		if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
			t.Errorf("a %s stream beyond the cap: status %d Retry-After %q, want 503 with Retry-After", name, res.StatusCode, res.Header.Get("Retry-After"))
		}
	}
	// tasks/result waits for its task as a stream waits: same cap.
	taskResult := `{"jsonrpc":"2.0","id":3,"method":"tasks/result","params":{"taskId":"t1"}}`
	if res := legacyPoster(t, ts)(sid, taskResult); res.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("tasks/result beyond the stream cap: status %d, want 503", res.StatusCode)
	}
	callEcho(t, ts) // MaxInFlight is 1: the streams hold none of it
	first.Close()
	waitListeners(t, s, 1)
	h := ts.Config.Handler.(*httpHandler)
	for i := 0; h.streams.Load() > 1; i++ {
		if i > 2000 {
			t.Fatal("a closed stream still counts")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if res := statusOf(t, dialSend(t, addr, listenHead(expand(listenBody)))); res.StatusCode != 200 {
		t.Errorf("a stream after one closed: status %d", res.StatusCode)
	}
}

// TestHostileThousandListeners: with the defaults 1,000 clients can each
// hold a listen stream, and calls still pass. It reports the memory one
// idle stream costs (heap and stacks of the whole process, the client
// side being little more than a socket).
func TestHostileThousandListeners(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 1,000 connections")
	}
	s, _ := newTestServer(nil)
	ts := httptest.NewServer(s.HTTPHandler(nil))
	t.Cleanup(ts.Close) // after the streams close (cleanups run in reverse)
	heap, stack := measureStreams(t, ts, s, 1000)
	perStream := heap + stack
	t.Logf("%.1f KiB per idle listen stream: %.1f KiB heap, %.1f KiB goroutine stacks", perStream/1024, heap/1024, stack/1024)
	// A generous bound that still catches a large per-stream buffer.
	if perStream > 64<<10 {
		t.Errorf("an idle stream costs %.0f bytes, want under 64 KiB", perStream)
	}
	callEcho(t, ts)
}

// measureStreams opens n listen streams and returns the growth of heap
// and of goroutine stacks in use per stream, once all are open and idle.
func measureStreams(t testing.TB, ts *httptest.Server, s *Server, n int) (heap, stack float64) {
	t.Helper()
	body := expand(listenBody)
	// One stream first, so that what every stream shares is in place.
	_ = statusOf(t, dialSend(t, ts.Listener.Addr().String(), listenHead(body)))
	waitListenersTB(t, s, 1)
	heap0, stack0 := memInUse()
	conns := make([]net.Conn, n)
	for i := range conns {
		conns[i] = dialSend(t, ts.Listener.Addr().String(), listenHead(body))
	}
	waitListenersTB(t, s, n+1)
	heap1, stack1 := memInUse()
	for i, conn := range conns {
		if res := statusOf(t, conn); res.StatusCode != 200 {
			t.Fatalf("listener %d of %d: status %d", i+1, n, res.StatusCode)
		}
	}
	return (float64(heap1) - float64(heap0)) / float64(n), (float64(stack1) - float64(stack0)) / float64(n)
}

func memInUse() (heap, stack uint64) {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse, m.StackInuse
}

func waitListenersTB(t testing.TB, s *Server, n int) {
	t.Helper()
	for range 6000 {
		s.listeners.mu.RLock()
		got := len(s.listeners.m)
		s.listeners.mu.RUnlock()
		if got == n {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("listeners never reached %d", n)
}

// TestHTTPGetStreamEndsWithSession: DELETE ends the session's open GET
// stream, and the stream's place under MaxStreams is free again.
func TestHTTPGetStreamEndsWithSession(t *testing.T) {
	s, _ := newTestServer(nil)
	hh := s.HTTPHandler(&HTTPOptions{LegacySessions: true})
	ts := httptest.NewServer(hh)
	t.Cleanup(ts.Close) // after the streams close (cleanups run in reverse)
	sid := legacyPoster(t, ts)("", initBody(l11)).Header.Get(HeaderSessionID)
	conn := dialSend(t, ts.Listener.Addr().String(), getStreamHead(sid))
	res := statusOf(t, conn)
	if res.StatusCode != 200 {
		t.Fatalf("GET stream: status %d", res.StatusCode)
	}
	waitListeners(t, s, 1)
	del, _ := http.NewRequest("DELETE", ts.URL, nil)
	del.Header.Set(HeaderSessionID, sid)
	if res, err := ts.Client().Do(del); err != nil || res.StatusCode != 204 {
		t.Fatalf("DELETE: %v %v", err, res)
	}
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		t.Fatalf("the GET stream did not end cleanly: %v", err)
	}
	waitListeners(t, s, 0)
	h := hh.(*httpHandler)
	for i := 0; h.streams.Load() > 0; i++ {
		if i > 2000 {
			t.Fatal("an ended stream still counts")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
