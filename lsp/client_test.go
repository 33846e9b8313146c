package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// client is a test's LSP client, talking to a Server over pipes: it
// sends requests and notifications and sorts what comes back into
// answers (by id) and published diagnostics (by URI).
type client struct {
	t    testing.TB
	out  *writer
	in   io.Closer // the server's input
	next int

	mu      sync.Mutex
	answers map[string]chan message
	diags   map[string][]Diagnostic
	version map[string]int   // of the last publish, by URI
	history map[string][]int // the version of every publish, by URI
	changed chan string      // the URI of each publish
	logs    []string
	done    chan error
}

func startClient(t testing.TB, s *Server) *client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &client{t: t, out: &writer{w: inW}, in: inW, answers: map[string]chan message{}, diags: map[string][]Diagnostic{}, version: map[string]int{}, history: map[string][]int{},
		changed: make(chan string, 1024), done: make(chan error, 1)}
	go func() {
		err := s.Run(context.Background(), inR, outW)
		outW.Close()
		c.done <- err
	}()
	go c.readLoop(outR)
	t.Cleanup(func() {
		inW.Close()
		<-c.done
	})
	return c
}

func (c *client) readLoop(r io.Reader) {
	rd := newReader(r)
	for {
		body, err := rd.read()
		if err != nil {
			return
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			panic(err)
		}
		c.mu.Lock()
		switch {
		case m.Method == "textDocument/publishDiagnostics":
			var p struct {
				URI         string       `json:"uri"`
				Version     int          `json:"version"`
				Diagnostics []Diagnostic `json:"diagnostics"`
			}
			_ = json.Unmarshal(m.Params, &p)
			c.diags[p.URI] = p.Diagnostics
			c.version[p.URI] = p.Version
			c.history[p.URI] = append(c.history[p.URI], p.Version)
			select {
			case c.changed <- p.URI:
			default: // enough wake-ups are waiting already
			}
		case m.Method == "window/logMessage":
			c.logs = append(c.logs, string(m.Params))
		case m.ID != nil:
			ch, ok := c.answers[idKey(m.ID)]
			if !ok {
				ch = make(chan message, 1)
				c.answers[idKey(m.ID)] = ch
			}
			ch <- m
		}
		c.mu.Unlock()
	}
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.out.notify(method, params); err != nil {
		c.t.Fatal(err)
	}
}

// send sends a request and returns its id, for await.
func (c *client) send(method string, params any) string {
	c.t.Helper()
	c.next++
	id := json.RawMessage(fmt.Sprint(c.next))
	if err := c.out.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		c.t.Fatal(err)
	}
	return idKey(id)
}

func (c *client) await(id string) message {
	c.t.Helper()
	c.mu.Lock()
	ch, ok := c.answers[id]
	if !ok {
		ch = make(chan message, 1)
		c.answers[id] = ch
	}
	c.mu.Unlock()
	select {
	case m := <-ch:
		return m
	case <-time.After(30 * time.Second):
		c.t.Fatalf("no answer to request %s", id)
	}
	return message{}
}

// call sends a request and decodes its result into result.
func (c *client) call(method string, params, result any) {
	c.t.Helper()
	m := c.await(c.send(method, params))
	if m.Error != nil {
		c.t.Fatalf("%s: %v", method, m.Error)
	}
	if result != nil {
		if err := json.Unmarshal(m.Result, result); err != nil {
			c.t.Fatalf("%s: %v in %s", method, err, m.Result)
		}
	}
}

func (c *client) initialize() map[string]any {
	c.t.Helper()
	var res struct {
		Capabilities map[string]any `json:"capabilities"`
	}
	c.call("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}, &res)
	c.notify("initialized", map[string]any{})
	return res.Capabilities
}

func (c *client) open(path, text string) string {
	uri := pathToURI(path)
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "mcpdecl", "version": 1, "text": text}})
	return uri
}

func (c *client) change(uri string, version int, changes ...contentChange) {
	c.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": uri, "version": version}, "contentChanges": changes})
}

// awaitVersion waits for the diagnostics of uri's version v.
func (c *client) awaitVersion(uri string, v int) {
	deadline := time.After(60 * time.Second)
	for {
		c.mu.Lock()
		got := c.version[uri]
		c.mu.Unlock()
		if got >= v {
			return
		}
		select {
		case <-c.changed:
		case <-deadline:
			c.t.Fatalf("no diagnostics for version %d of %s (last %d)", v, uri, got)
		}
	}
}

// diagnosticsFor waits until uri's published diagnostics satisfy ok and
// returns them.
func (c *client) diagnosticsFor(uri string, ok func([]Diagnostic) bool) []Diagnostic {
	c.t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		c.mu.Lock()
		d, seen := c.diags[uri]
		c.mu.Unlock()
		if seen && ok(d) {
			return d
		}
		select {
		case <-c.changed:
		case <-deadline:
			c.t.Fatalf("diagnostics of %s never became as wanted; last: %+v", uri, d)
		}
	}
}

func (c *client) shutdown() error {
	c.t.Helper()
	defer c.in.Close()
	c.call("shutdown", nil, nil)
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		c.done <- err
		return err
	case <-time.After(30 * time.Second):
		c.t.Fatal("the server did not end after exit")
	}
	return nil
}

// folder writes files into a new directory and returns its path.
func folder(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// at is the protocol position of the first occurrence of marker in
// text, plus offset bytes.
func at(t *testing.T, src, marker string, offset int) Position {
	t.Helper()
	i := strings.Index(src, marker)
	if i < 0 {
		t.Fatalf("%q not in the text", marker)
	}
	return newText(src).position(i + offset)
}
