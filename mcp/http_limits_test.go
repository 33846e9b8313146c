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

// rawRequest sends head (request line and headers, without the blank
// line) and body on a fresh connection and returns the response's status
// and headers. The connection's own deadline is far longer than any limit
// under test, so the test ends by itself if the server never answers.
func rawRequest(t *testing.T, addr, head, body string) (*http.Response, net.Conn) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	_ = conn.SetDeadline(time.Now().Add(20 * time.Second))
	if _, err := io.WriteString(conn, head+"\r\n\r\n"+body); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	return res, conn
}

// TestHTTPBodyDeadline: a client that sends its headers and then trickles
// the body gets 408 and a closed connection once BodyTimeout passes.
func TestHTTPBodyDeadline(t *testing.T) {
	s, _ := newTestServer(nil)
	ts := httptest.NewServer(s.HTTPHandler(&HTTPOptions{BodyTimeout: 100 * time.Millisecond}))
	defer ts.Close()
	head := "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100"
	res, conn := rawRequest(t, ts.Listener.Addr().String(), head, `{"jsonrpc"`)
	if res.StatusCode != http.StatusRequestTimeout {
		t.Fatalf("status %d, want 408", res.StatusCode)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	if n, err := conn.Read(make([]byte, 1)); err == nil {
		t.Errorf("connection still open after the body deadline (read %d bytes)", n)
	}
}

// TestHTTPInFlightCap: beyond MaxInFlight a request gets 503 with
// Retry-After before its body is read (the body here never comes).
func TestHTTPInFlightCap(t *testing.T) {
	s, _ := newTestServer(nil)
	hh := s.HTTPHandler(&HTTPOptions{MaxInFlight: 1})
	ts := httptest.NewServer(hh)
	defer ts.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // holds the only slot until cancelled
		defer wg.Done()
		req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`))
		req.Header.Set("Content-Type", "application/json")
		if res, err := ts.Client().Do(req); err == nil {
			res.Body.Close()
		}
	}()
	defer wg.Wait()
	defer cancel()
	h := hh.(*httpHandler)
	for i := 0; h.inFlight.Load() < 1; i++ {
		if i > 2000 {
			t.Fatal("the slow call never started")
		}
		time.Sleep(5 * time.Millisecond)
	}
	head := "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000"
	res, conn := rawRequest(t, ts.Listener.Addr().String(), head, "")
	conn.Close()
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
		t.Fatalf("status %d Retry-After %q, want 503 with Retry-After", res.StatusCode, res.Header.Get("Retry-After"))
	}
	cancel()
	wg.Wait()
	for i := 0; h.inFlight.Load() > 0; i++ {
		if i > 2000 {
			t.Fatal("the slow call never ended")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if rec := doHTTP(t, hh, "POST", nil, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); rec.Code != 200 {
		t.Errorf("after the slot freed: status %d", rec.Code)
	}
}

// TestHTTPBodyDecodedOnce: a large body is held about once while it is
// served, not copied by reading, message decoding and params decoding.
func TestHTTPBodyDecodedOnce(t *testing.T) {
	s, _ := newTestServer(nil)
	h := s.HTTPHandler(nil)
	const size = 2 << 20
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"structured","arguments":{"text":"` +
		strings.Repeat("x", size) + `"}}}`
	call := func() {
		req := httptest.NewRequest("POST", "http://localhost/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			t.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	}
	call()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	call()
	runtime.ReadMemStats(&after)
	got := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d bytes allocated for a %d-byte body", got, size)
	if got > size*3/2 {
		t.Errorf("one call with a %d-byte body allocated %d bytes; want the body about once", size, got)
	}
}

// TestHTTPSessionCapAndExpiry: when every session is busy (here, each
// holds a GET stream) an initialize beyond MaxSessions gets 503; an idle
// session expires and its id gets 404; an open GET stream keeps a session
// alive.
func TestHTTPSessionCapAndExpiry(t *testing.T) {
	s, _ := newTestServer(nil)
	hh := s.HTTPHandler(&HTTPOptions{LegacySessions: true, MaxSessions: 2, SessionIdleTimeout: time.Minute})
	h := hh.(*httpHandler)
	advance := fakeClock(h)
	ts := httptest.NewServer(hh)
	defer ts.Close()
	post := legacyPoster(t, ts)
	a := post("", initBody(l11)).Header.Get(HeaderSessionID)
	b := post("", initBody(l11)).Header.Get(HeaderSessionID)
	if a == "" || b == "" {
		t.Fatal("sessions not minted")
	}
	openGet := func(sid string) *http.Response {
		get, _ := http.NewRequest("GET", ts.URL, nil)
		get.Header.Set(HeaderSessionID, sid)
		get.Header.Set("Accept", "text/event-stream")
		stream, err := ts.Client().Do(get)
		if err != nil || stream.StatusCode != 200 {
			t.Fatalf("GET stream: %v %v", err, stream)
		}
		return stream
	}
	streamA, streamB := openGet(a), openGet(b)
	defer streamA.Body.Close()
	waitListeners(t, s, 2)
	if res := post("", initBody(l11)); res.StatusCode != http.StatusServiceUnavailable || res.Header.Get(HeaderSessionID) != "" {
		t.Fatalf("a third session while both are busy: status %d id %q, want 503 and no id", res.StatusCode, res.Header.Get(HeaderSessionID))
	}
	// a keeps its GET stream open; b's ends and b stays idle.
	streamB.Body.Close()
	waitSession(t, h, b, false)
	advance(2 * time.Minute)
	if res := post(b, pingBody); res.StatusCode != http.StatusNotFound {
		t.Errorf("expired session: status %d, want 404", res.StatusCode)
	}
	if res := post(a, pingBody); res.StatusCode != 200 {
		t.Errorf("session with an open stream: status %d, want 200", res.StatusCode)
	}
	if res := post("", initBody(l11)); res.StatusCode != 200 || res.Header.Get(HeaderSessionID) == "" {
		t.Fatalf("after b expired: status %d, want a new session", res.StatusCode)
	}
}

// TestHTTPStreamsOutliveDeadlines: the body deadline is lifted once the
// body is in and the write deadline is renewed per write, so a listen
// stream still delivers long after both passed.
func TestHTTPStreamsOutliveDeadlines(t *testing.T) {
	s, _ := newTestServer(nil)
	const limit = 50 * time.Millisecond
	ts := httptest.NewUnstartedServer(s.HTTPHandler(&HTTPOptions{BodyTimeout: limit, WriteTimeout: limit, ServerWriteTimeout: limit}))
	ts.Config.WriteTimeout = limit
	ts.Start()
	defer ts.Close()
	req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(expand(listenBody)))
	req.Header = mh("subscriptions/listen", "")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	if !scanData(sc, "notifications/subscriptions/acknowledged") {
		t.Fatal("no acknowledgment")
	}
	waitListeners(t, s, 1)
	time.Sleep(6 * limit)
	s.NotifyListChanged(ToolsListChanged)
	if !scanData(sc, "notifications/tools/list_changed") {
		t.Fatalf("the stream ended after the deadlines: %v", sc.Err())
	}
}

// TestHTTPHostPolicy: the Host must name the server for the address the
// connection arrived on; a rebinding page's DNS name never does.
func TestHTTPHostPolicy(t *testing.T) {
	s, _ := newTestServer(nil)
	loop := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	lan := &net.TCPAddr{IP: net.IPv4(192, 168, 1, 5), Port: 8080}
	lan6 := &net.TCPAddr{IP: net.ParseIP("fd00::5"), Port: 8080}
	unix := &net.UnixAddr{Name: "/run/mcp.sock", Net: "unix"}
	allowed := &HTTPOptions{AllowedHosts: []string{"mcp.example.com", "pinned.example:8443"}, AllowedOrigins: []string{"https://app.example"}}
	cases := []struct {
		name   string
		opts   *HTTPOptions
		local  net.Addr
		host   string
		origin string
		status int
	}{
		{"loopback name", nil, loop, "localhost:8080", "", 200},
		{"loopback IPv6", nil, loop, "[::1]:8080", "", 200},
		{"loopback, foreign name", nil, loop, "evil.example:8080", "", 403},
		{"LAN IP bind, its IP", nil, lan, "192.168.1.5:8080", "", 200},
		{"LAN IP bind, its IP without port", nil, lan, "192.168.1.5", "", 200},
		{"LAN IP bind, rebinding name", nil, lan, "evil.example:8080", "", 403},
		{"LAN IP bind, same-host rebinding Origin", nil, lan, "evil.example:8080", "http://evil.example:8080", 403},
		{"LAN IP bind, another IP", nil, lan, "10.0.0.1:8080", "", 403},
		{"LAN IP bind, localhost", nil, lan, "localhost:8080", "", 403},
		{"IPv6 bind, its IP", nil, lan6, "[fd00::5]:8080", "", 200},
		{"allowed name", allowed, lan, "MCP.example.com", "", 200},
		{"allowed name with port", allowed, lan, "pinned.example:8443", "", 200},
		{"allowed name, other port", allowed, lan, "pinned.example:9000", "", 403},
		{"same-host Origin", allowed, lan, "mcp.example.com", "https://mcp.example.com", 200},
		{"Origin of an allowed host", allowed, lan, "192.168.1.5:8080", "https://mcp.example.com", 200},
		{"listed Origin", allowed, lan, "192.168.1.5:8080", "https://app.example", 200},
		{"foreign Origin", allowed, lan, "192.168.1.5:8080", "https://evil.example", 403},
		{"loopback Origin on a LAN bind", nil, lan, "192.168.1.5:8080", "http://localhost:3000", 403},
		{"unix socket", nil, unix, "anything", "", 200},
		{"unknown local address", nil, nil, "evil.example", "", 403},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", "http://placeholder/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
			req.Host = tc.host
			req.Header.Set("Content-Type", "application/json")
			if tc.origin != "" {
				req.Header.Set("Origin", tc.origin)
			}
			if tc.local != nil {
				req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, tc.local))
			}
			rec := httptest.NewRecorder()
			s.HTTPHandler(tc.opts).ServeHTTP(rec, req)
			if rec.Code != tc.status {
				t.Errorf("status %d, want %d (%s)", rec.Code, tc.status, rec.Body)
			}
		})
	}
}

// TestSessionSubscriptionCap: one session cannot grow without bound by
// subscribing to ever new URIs.
func TestSessionSubscriptionCap(t *testing.T) {
	s, _ := newTestServer(nil)
	h := s.HTTPHandler(&HTTPOptions{LegacySessions: true})
	sid := doHTTP(t, h, "POST", hdr(HeaderProtocolVersion, l11), initBody(l11)).Header().Get(HeaderSessionID)
	if sid == "" {
		t.Fatal("no session")
	}
	sub := func(i int) resp {
		body := `{"jsonrpc":"2.0","id":1,"method":"resources/subscribe","params":{"uri":"file:///` + strconv.Itoa(i) + `.txt"}}`
		return decode(t, doHTTP(t, h, "POST", hdr(HeaderProtocolVersion, l11, HeaderSessionID, sid), body).Body.Bytes())
	}
	for i := range maxSubscriptions {
		if r := sub(i); r.Error != nil {
			t.Fatalf("subscription %d: %+v", i, r.Error)
		}
	}
	if r := sub(maxSubscriptions); r.Error == nil || r.Error.Code != CodeInvalidParams {
		t.Errorf("subscription beyond the cap: %+v", r)
	}
	if r := sub(0); r.Error != nil {
		t.Errorf("renewing a subscription at the cap: %+v", r.Error)
	}
}

// TestHTTPStalledReaderCutOff: a client that opens a listen stream and
// stops reading is cut off by the write deadline, instead of pinning its
// stream and an ever longer queue of notifications.
func TestHTTPStalledReaderCutOff(t *testing.T) {
	bigURI := "file:///" + strings.Repeat("x", 64<<10)
	s, _ := newTestServer(nil)
	ts := httptest.NewServer(s.HTTPHandler(&HTTPOptions{WriteTimeout: 100 * time.Millisecond}))
	defer ts.Close()
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.(*net.TCPConn).SetReadBuffer(4096)
	body := strings.ReplaceAll(expand(listenBody), `"resourceSubscriptions":["file:///a.txt"]`, `"resourceSubscriptions":["`+bigURI+`"]`)
	head := "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\n" +
		HeaderProtocolVersion + ": " + Version20260728 + "\r\n" + HeaderMethod + ": subscriptions/listen\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n"
	if _, err := io.WriteString(conn, head+body); err != nil {
		t.Fatal(err)
	}
	waitListeners(t, s, 1)
	// The client reads nothing from here on; the server keeps pushing.
	deadline := time.Now().Add(20 * time.Second)
	for {
		s.listeners.mu.RLock()
		n := len(s.listeners.m)
		s.listeners.mu.RUnlock()
		if n == 0 {
			return // the stream ended on the write deadline
		}
		if time.Now().After(deadline) {
			t.Fatal("a client that stopped reading still holds its stream")
		}
		for range 16 {
			s.NotifyResourceUpdated(bigURI)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
