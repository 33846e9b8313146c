package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// stdioClient drives ServeStdio through pipes, like a host process would.
type stdioClient struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan []byte
	done  chan error
	rev   string // revision for schema checks of what arrives
}

func startStdio(t *testing.T, s *Server) *stdioClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &stdioClient{t: t, in: inW, lines: make(chan []byte, 100), done: make(chan error, 1)}
	go func() {
		err := s.ServeStdio(context.Background(), inR, outW)
		outW.Close()
		c.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			c.lines <- append([]byte(nil), sc.Bytes()...)
		}
		close(c.lines)
	}()
	t.Cleanup(func() { inW.Close() })
	return c
}

func (c *stdioClient) send(line string) {
	c.t.Helper()
	if _, err := c.in.Write([]byte(expand(line) + "\n")); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// recv returns the next line the server wrote, checking that it is a valid
// message of revision c.rev for method.
func (c *stdioClient) recv(method string) resp {
	c.t.Helper()
	select {
	case b, ok := <-c.lines:
		if !ok {
			c.t.Fatalf("stdout closed")
		}
		checkSent(c.t, c.rev, method, b)
		return decode(c.t, b)
	case <-time.After(5 * time.Second):
		c.t.Fatalf("timeout waiting for a server message")
	}
	return resp{}
}

// closeAndDrain closes stdin and returns everything written until
// ServeStdio returned.
func (c *stdioClient) closeAndDrain() []string {
	c.t.Helper()
	c.in.Close()
	var out []string
	for b := range c.lines {
		out = append(out, string(b))
	}
	if err := <-c.done; err != nil {
		c.t.Errorf("ServeStdio: %v", err)
	}
	return out
}

func TestStdioModernAndLegacyOnOnePipe(t *testing.T) {
	s, _ := newTestServer(nil)
	c := startStdio(t, s)
	c.rev = m26
	c.send(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{$META}}`)
	if r := c.recv("server/discover"); r.Result["resultType"] == nil {
		t.Fatalf("discover: %+v", r)
	}
	// A probe does not pin the era: the client may still initialize.
	c.rev = l11
	c.send(initBody(l11))
	c.recv("initialize")
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	r := c.recv("tools/list")
	if r.Result["ttlMs"] != nil {
		t.Errorf("legacy tools/list carries ttlMs")
	}
	c.rev = m26
	c.send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo",$META}}`)
	if r := c.recv("tools/call"); string(r.Result["resultType"]) != `"complete"` {
		t.Errorf("modern call after legacy initialize: %+v", r)
	}
	if rest := c.closeAndDrain(); len(rest) != 0 {
		t.Errorf("unexpected output: %q", rest)
	}
}

func TestStdioEOFDrainsPendingResponses(t *testing.T) {
	s, _ := newTestServer(nil)
	c := startStdio(t, s)
	for i := range 20 {
		c.send(`{"jsonrpc":"2.0","id":` + itoa(i) + `,"method":"tools/call","params":{"name":"echo",$META}}`)
	}
	out := c.closeAndDrain()
	if len(out) != 20 {
		t.Fatalf("got %d responses after EOF, want 20", len(out))
	}
	for _, l := range out {
		checkSent(t, m26, "tools/call", []byte(l))
	}
}

func TestStdioCancellation(t *testing.T) {
	s, _ := newTestServer(nil)
	c := startStdio(t, s)
	c.rev = m26
	c.send(`{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"slow",$META}}`)
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow"}}`)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo",$META}}`)
	if r := c.recv("tools/call"); string(r.ID) != "2" {
		t.Errorf("first message after cancel = %+v, want the answer to id 2", r)
	}
	if rest := c.closeAndDrain(); len(rest) != 0 {
		t.Errorf("a cancelled request was answered: %q", rest)
	}
}

func TestStdioNotificationsAndErrors(t *testing.T) {
	s, _ := newTestServer(nil)
	c := startStdio(t, s)
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(`{"jsonrpc":"2.0","method":"notifications/unknown","params":{$META}}`)
	c.send(`not json`)
	if r := c.recv(""); r.Error == nil || r.Error.Code != CodeParseError || r.ID != nil {
		t.Errorf("parse error = %+v", r)
	}
	c.send(`{"jsonrpc":"2.0","id":7,"method":"ping","params":{$META}}`)
	c.rev = m26
	if r := c.recv("ping"); r.Error == nil || r.Error.Code != CodeMethodNotFound {
		t.Errorf("modern ping = %+v", r)
	}
	c.send(`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`)
	c.rev = l03
	if r := <-c.lines; !strings.HasPrefix(string(r), "[") {
		t.Errorf("2025-03-26 batch over stdio: %s", r)
	} else {
		checkSent(t, l03, "", r)
	}
	c.closeAndDrain()
}

func TestStdioProgressAndLog(t *testing.T) {
	s, _ := newTestServer(nil)
	c := startStdio(t, s)
	c.rev = m26
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"progress","_meta":{"progressToken":"p1","io.modelcontextprotocol/logLevel":"info","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`)
	var methods []string
	for {
		r := c.recv("tools/call")
		if r.Method == "" {
			break
		}
		methods = append(methods, r.Method)
	}
	want := "notifications/progress notifications/message notifications/progress"
	if got := strings.Join(methods, " "); got != want {
		t.Errorf("notifications = %q, want %q", got, want)
	}
	// Without a token or a level nothing but the result is sent.
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"progress",$META}}`)
	if r := c.recv("tools/call"); r.Method != "" {
		t.Errorf("unrequested notification %s", r.Method)
	}
	c.closeAndDrain()
}

func TestStdioLegacyElicitation(t *testing.T) {
	s, _ := newTestServer(nil)
	c := startStdio(t, s)
	c.rev = l06
	c.send(initBodyEliciting(l06))
	c.recv("initialize")
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"elicit"}}`)
	r := c.recv("")
	if r.Method != "elicitation/create" {
		t.Fatalf("want a server request, got %+v", r)
	}
	c.send(`{"jsonrpc":"2.0","id":` + string(r.ID) + `,"result":{"action":"accept","content":{"name":"Ada"}}}`)
	if r := c.recv("tools/call"); !contains(r.Result["content"], "Ada") {
		t.Errorf("result = %+v", r.Result)
	}
	c.closeAndDrain()
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }
