package e2e

// Hostile HTTP clients against `mcpdecl serve --http` (the real binary) and
// the real handler: slow headers and bodies, idle keep-alive connections, a
// flood beyond the in-flight cap, large invalid bodies, legacy sessions
// beyond the cap or idle too long, DNS-rebinding Host and Origin headers,
// and cursors of another list or of a list a reload changed. Every limit is
// set short on the command line, so each test ends by itself.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/mcp"
)

// guard bounds every wait of these tests: far longer than any limit under
// test, so reaching it means the server did not enforce the limit.
const guard = 20 * time.Second

// hostileConfig writes a configuration of n tools (each taking a short
// "text"), one resource and one prompt, and returns its path.
func hostileConfig(t *testing.T, dir string, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("server {\n  name    = \"hostile\"\n  version = \"1.0.0\"\n}\n\nbackend \"shell\" \"sh\" {\n  timeout = \"10s\"\n}\n")
	for i := range n {
		fmt.Fprintf(&b, "\ntool \"t%03d\" {\n  description = \"Tool %d.\"\n  arg \"text\" {\n    type       = string\n    max_length = 10\n  }\n  shell {\n    command = [\"true\"]\n  }\n}\n", i, i)
	}
	b.WriteString("\nresource \"r\" {\n  uri       = \"hostile://r\"\n  name      = \"R\"\n  mime_type = \"text/plain\"\n  text      = \"r\"\n}\n")
	b.WriteString("\nprompt \"p\" {\n  description = \"P.\"\n  message \"user\" {\n    text = \"hi\"\n  }\n}\n")
	path := filepath.Join(dir, "hostile.hcl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// serveProcess is `mcpdecl serve --http 127.0.0.1:0` with extra flags.
type serveProcess struct {
	cmd  *exec.Cmd
	addr string // host:port
	logs *syncBuffer
}

func startServe(t *testing.T, config string, flags ...string) *serveProcess {
	t.Helper()
	p := &serveProcess{logs: &syncBuffer{}}
	// The hostile clients leave connections half-sent, so the exit status
	// after SIGINT is not this test's concern.
	var endpoint string
	p.cmd, endpoint = serveBinary(t, append(flags, config), nil, p.logs, false)
	u, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	p.addr = u.Host
	return p
}

// dialRaw opens a connection whose every read and write ends at the guard.
func dialRaw(t *testing.T, addr string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	_ = conn.SetDeadline(time.Now().Add(guard))
	return conn
}

// closedByServer reads until the server closes conn; it fails when the
// guard ends the wait instead.
func closedByServer(t *testing.T, conn net.Conn, what string) {
	t.Helper()
	_, err := io.Copy(io.Discard, conn)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("%s: the server kept the connection open for %v", what, guard)
	}
}

// post sends a JSON-RPC body to the endpoint with the given extra headers.
func post(t *testing.T, addr, body string, hdr ...string) *http.Response {
	t.Helper()
	req, err := http.NewRequest("POST", "http://"+addr+"/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Host" {
			req.Host = hdr[i+1]
			continue
		}
		req.Header.Set(hdr[i], hdr[i+1])
	}
	client := &http.Client{Timeout: guard}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

func TestHostileSlowHeaders(t *testing.T) {
	p := startServe(t, hostileConfig(t, t.TempDir(), 1), "--header-timeout", "300ms")
	conn := dialRaw(t, p.addr)
	// Headers trickled and never finished.
	if _, err := io.WriteString(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n"); err != nil {
		t.Fatal(err)
	}
	closedByServer(t, conn, "unfinished headers")
}

func TestHostileSlowBody(t *testing.T) {
	p := startServe(t, hostileConfig(t, t.TempDir(), 1), "--body-timeout", "300ms")
	for _, path := range []string{"/mcp", "/healthz", "/elsewhere"} {
		conn := dialRaw(t, p.addr)
		head := "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
		if _, err := io.WriteString(conn, head); err != nil {
			t.Fatal(err)
		}
		go func() { // one byte at a time, until the server hangs up
			for {
				time.Sleep(50 * time.Millisecond)
				if _, err := conn.Write([]byte(" ")); err != nil {
					return
				}
			}
		}()
		br := bufio.NewReader(conn)
		if path == "/mcp" {
			res, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatalf("%s: no answer to a trickled body: %v", path, err)
			}
			if res.StatusCode != http.StatusRequestTimeout {
				t.Errorf("%s: status %d, want 408", path, res.StatusCode)
			}
		}
		_, err := io.Copy(io.Discard, br)
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Fatalf("%s: a body trickled a byte at a time kept the connection for %v", path, guard)
		}
	}
}

func TestHostileIdleKeepAlive(t *testing.T) {
	p := startServe(t, hostileConfig(t, t.TempDir(), 1), "--idle-timeout", "300ms")
	conn := dialRaw(t, p.addr)
	body := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, nil)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("ping: %v %v", res, err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	_, err = io.Copy(io.Discard, br) // the connection is now idle
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("an idle keep-alive connection stayed open for %v", guard)
	}
}

// hostileListen opens a modern subscriptions/listen stream, which counts
// against --max-streams, not --max-in-flight.
const hostileListen = `{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`

func TestHostileInFlightCap(t *testing.T) {
	p := startServe(t, hostileConfig(t, t.TempDir(), 1), "--max-in-flight", "2", "--max-streams", "2")
	listen := func() *http.Response {
		return post(t, p.addr, hostileListen, mcp.HeaderProtocolVersion, mcp.Version20260728, mcp.HeaderMethod, "subscriptions/listen")
	}
	for range 2 { // two open streams fill --max-streams
		res := listen()
		if res.StatusCode != 200 {
			t.Fatalf("listen: status %d", res.StatusCode)
		}
		if _, err := bufio.NewReader(res.Body).ReadString('\n'); err != nil {
			t.Fatalf("listen stream: %v", err)
		}
	}
	if res := listen(); res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
		t.Errorf("a stream beyond --max-streams: status %d Retry-After %q, want 503 with Retry-After", res.StatusCode, res.Header.Get("Retry-After"))
	}
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	if res := post(t, p.addr, ping); res.StatusCode != 200 {
		t.Fatalf("a request beside the open streams: status %d, want 200", res.StatusCode)
	}
	// Two requests whose bodies never come take both in-flight slots; a
	// request beyond them is refused before its body is read.
	stall := func() net.Conn {
		conn := dialRaw(t, p.addr)
		io.WriteString(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 4000000\r\n\r\n{")
		return conn
	}
	stalled := []net.Conn{stall(), stall()}
	deadline := time.Now().Add(guard)
	for {
		// A probe may be counted before a stalled request whose headers the
		// server has not read yet, which is then the one refused: it is
		// replaced, so that two stay pending.
		for i, conn := range stalled {
			if answered(conn) {
				conn.Close()
				stalled[i] = stall()
			}
		}
		conn := dialRaw(t, p.addr)
		io.WriteString(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "+strconv.Itoa(len(ping))+"\r\n\r\n"+ping)
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("no answer beyond the in-flight cap: %v", err)
		}
		conn.Close()
		if res.StatusCode == http.StatusServiceUnavailable {
			if res.Header.Get("Retry-After") == "" {
				t.Errorf("beyond the cap: 503 without Retry-After")
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the stalled requests never filled the in-flight cap (status %d)", res.StatusCode)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// answered reports whether the server has answered on conn, or closed
// it, by now.
func answered(conn net.Conn) bool {
	_ = conn.SetReadDeadline(time.Now().Add(time.Millisecond))
	defer conn.SetReadDeadline(time.Now().Add(guard))
	var b [1]byte
	n, err := conn.Read(b[:])
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return false
	}
	return n > 0 || err != nil
}

func TestHostileLegacySessions(t *testing.T) {
	p := startServe(t, hostileConfig(t, t.TempDir(), 1), "--legacy-sessions", "--max-sessions", "2", "--session-idle-timeout", "500ms")
	initialize := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	newSession := func() string {
		res := post(t, p.addr, initialize)
		if res.StatusCode != 200 || res.Header.Get(mcp.HeaderSessionID) == "" {
			t.Fatalf("initialize: status %d, no session", res.StatusCode)
		}
		return res.Header.Get(mcp.HeaderSessionID)
	}
	a, b := newSession(), newSession()
	if res := post(t, p.addr, ping, mcp.HeaderSessionID, a); res.StatusCode != 200 {
		t.Fatalf("a session in use: status %d", res.StatusCode)
	}
	// At the cap a newcomer ends the least recently used idle session, b.
	c := newSession()
	if res := post(t, p.addr, ping, mcp.HeaderSessionID, b); res.StatusCode != http.StatusNotFound {
		t.Errorf("the least recently used session: status %d, want 404", res.StatusCode)
	}
	// Keep c in use; a expires.
	for range 8 {
		if res := post(t, p.addr, ping, mcp.HeaderSessionID, c); res.StatusCode != 200 {
			t.Fatalf("a session in use: status %d", res.StatusCode)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if res := post(t, p.addr, ping, mcp.HeaderSessionID, a); res.StatusCode != http.StatusNotFound {
		t.Errorf("an expired session: status %d, want 404", res.StatusCode)
	}
}

func TestHostileRebinding(t *testing.T) {
	p := startServe(t, hostileConfig(t, t.TempDir(), 1), "--allowed-host", "mcp.test")
	_, port, _ := net.SplitHostPort(p.addr)
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	for _, tc := range []struct {
		host, origin string
		status       int
	}{
		{"", "", 200},
		{"localhost:" + port, "", 200},
		{"[::1]:" + port, "http://localhost:6274", 200},
		{"mcp.test:" + port, "http://mcp.test:" + port, 200},
		{"evil.example:" + port, "", 403},
		{"evil.example:" + port, "http://evil.example:" + port, 403},
		{"", "http://evil.example", 403},
		{"", "null", 403},
	} {
		var hdr []string
		if tc.host != "" {
			hdr = append(hdr, "Host", tc.host)
		}
		if tc.origin != "" {
			hdr = append(hdr, "Origin", tc.origin)
		}
		if res := post(t, p.addr, ping, hdr...); res.StatusCode != tc.status {
			t.Errorf("Host %q Origin %q: status %d, want %d", tc.host, tc.origin, res.StatusCode, tc.status)
		}
	}
}

// rpcAnswer decodes a JSON-RPC answer: its result, or its error code and message.
func rpcAnswer(t *testing.T, res *http.Response) (result map[string]json.RawMessage, code int, msg string) {
	t.Helper()
	var r struct {
		Result map[string]json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.NewDecoder(res.Body).Decode(&r); err != nil {
		t.Fatalf("answer: %v", err)
	}
	if r.Error != nil {
		return nil, r.Error.Code, r.Error.Message
	}
	return r.Result, 0, ""
}

func TestHostileCursors(t *testing.T) {
	dir := t.TempDir()
	config := hostileConfig(t, dir, 150)
	p := startServe(t, config)
	list := func(method, cursor string) (map[string]json.RawMessage, int, string) {
		params := `{}`
		if cursor != "" {
			params = `{"cursor":"` + cursor + `"}`
		}
		return rpcAnswer(t, post(t, p.addr, `{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+params+`}`))
	}
	first, _, _ := list("tools/list", "")
	var cursor string
	if json.Unmarshal(first["nextCursor"], &cursor) != nil || cursor == "" {
		t.Fatalf("150 tools in one page: %s", first["nextCursor"])
	}
	for _, other := range []string{"prompts/list", "resources/list", "resources/templates/list"} {
		if _, code, msg := list(other, cursor); code != -32602 {
			t.Errorf("%s with a tools/list cursor: code %d %q, want -32602", other, code, msg)
		}
	}
	if _, code, msg := list("tools/list", cursor); code != 0 {
		t.Fatalf("own cursor refused: %d %q", code, msg)
	}
	// A reload that drops a tool of the first page: the cursor is stale.
	hostileConfig(t, dir, 149)
	if err := p.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(guard)
	for !strings.Contains(p.logs.String(), "configuration reloaded") {
		if time.Now().After(deadline) {
			t.Fatalf("no reload; stderr:\n%s", p.logs)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, code, msg := list("tools/list", cursor); code != -32602 || !strings.Contains(msg, "list again") {
		t.Errorf("a cursor from before the reload: code %d %q, want -32602 saying to list again", code, msg)
	}
}

// TestHostileLargeInvalidBodies sends 4 MiB arguments that fail max_length,
// many at once, through the real handler, and bounds what each costs. The
// protocol layer holds such a body once; the bound is generous for the
// argument decoding behind it.
func TestHostileLargeInvalidBodies(t *testing.T) {
	config := hostileConfig(t, t.TempDir(), 1)
	h := mcp.NewServer(openServer(t, config, nil, nil, nil), nil).HTTPHandler(&mcp.HTTPOptions{MaxInFlight: -1})
	const size = 4<<20 - 200
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t000","arguments":{"text":"` +
		strings.Repeat("a", size) + `"}}}`)
	call := func() {
		req, _ := http.NewRequestWithContext(context.Background(), "POST", "http://localhost/mcp", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := &recorder{header: http.Header{}}
		h.ServeHTTP(rec, req)
		if rec.status != 200 || !strings.Contains(rec.body.String(), "isError") {
			t.Errorf("status %d: %.200s", rec.status, rec.body.String())
		}
	}
	call()
	const n = 8
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var wg sync.WaitGroup
	for range n {
		wg.Go(call)
	}
	wg.Wait()
	runtime.ReadMemStats(&after)
	perCall := (after.TotalAlloc - before.TotalAlloc) / n
	t.Logf("a %d-byte invalid body costs %d bytes of allocation", size, perCall)
	// The body once, one copy of the arguments' text (strings are slices
	// of it) and the schema library's own pass: about 3 times the body.
	if perCall > 4*size {
		t.Errorf("a %d-byte invalid body allocated %d bytes; want at most 4 times the body", size, perCall)
	}
}

// recorder is a minimal ResponseWriter that keeps no copy beyond the answer.
type recorder struct {
	header http.Header
	status int
	body   strings.Builder
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) WriteHeader(s int)   { r.status = s }
func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = 200
	}
	return r.body.Write(b)
}
