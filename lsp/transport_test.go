package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// TestMalformedInputGetsErrorsNotACrash sends what a broken client might,
// then a good request, which must still be answered.
func TestMalformedInputGetsErrorsNotACrash(t *testing.T) {
	var in bytes.Buffer
	frame := func(body string) { fmt.Fprintf(&in, "Content-Length: %d\r\n\r\n%s", len(body), body) }
	frame(`{"jsonrpc":"2.0","id":0,"method":"textDocument/hover","params":{}}`) // before initialize
	frame(`{"jsonrpc":"2.0","id":6,"method":"initialize","params":{}}`)
	frame(`{"jsonrpc":"2.0","id":1,"method":`)                                   // not JSON
	in.WriteString("Content-Type: text/plain\r\n\r\n")                           // no length
	in.WriteString("Content-Length: many\r\n\r\n")                               // not a length
	frame(`{"jsonrpc":"2.0","id":2}`)                                            // neither method nor result
	frame(`{"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":[1]}`) // params of the wrong shape
	frame(`{"jsonrpc":"2.0","id":4,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///nowhere.hcl"},"position":{"line":0,"character":0}}}`)
	frame(`{"jsonrpc":"2.0","id":5,"method":"no/such/method"}`)
	frame(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///never-opened.hcl"},"contentChanges":[]}}`)
	frame(`{"jsonrpc":"2.0","id":7,"method":"shutdown"}`)
	frame(`{"jsonrpc":"2.0","id":8,"method":"textDocument/hover","params":{}}`)
	frame(`{"jsonrpc":"2.0","method":"exit"}`)
	var out bytes.Buffer
	if err := newServer().Run(context.Background(), &in, &out); err != nil {
		t.Fatalf("Run: %v", err)
	}
	codes := map[string]int{}
	r := newReader(&out)
	for {
		body, err := r.read()
		if err != nil {
			break
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatal(err)
		}
		if m.Method != "" {
			continue
		}
		code := 0
		if m.Error != nil {
			code = m.Error.Code
		}
		if string(m.ID) == "null" {
			codes[fmt.Sprintf("null%d", len(codes))] = code
			continue
		}
		codes[string(m.ID)] = code
	}
	want := map[string]int{"0": codeServerNotInitialized, "2": codeInvalidRequest, "3": codeInvalidParams, "4": codeInvalidParams, "5": codeMethodNotFound,
		"6": 0, "7": 0, "8": codeInvalidRequest}
	for id, code := range want {
		if got, ok := codes[id]; !ok || got != code {
			t.Errorf("request %s: code %d (answered: %v), want %d", id, got, ok, code)
		}
	}
	nulls := 0
	for id, code := range codes {
		if strings.HasPrefix(id, "null") && code == codeParseError {
			nulls++
		}
	}
	if nulls != 3 {
		t.Errorf("want 3 parse errors (id null), got %d in %v", nulls, codes)
	}
}

func TestExitWithoutShutdownAndEndOfInput(t *testing.T) {
	in := strings.NewReader("Content-Length: 33\r\n\r\n" + `{"jsonrpc":"2.0","method":"exit"}`)
	if err := newServer().Run(context.Background(), in, io.Discard); !errors.Is(err, ErrNoShutdown) {
		t.Errorf("exit alone: %v, want ErrNoShutdown", err)
	}
	if err := newServer().Run(context.Background(), strings.NewReader(""), io.Discard); !errors.Is(err, io.EOF) {
		t.Errorf("end of input: %v, want io.EOF", err)
	}
}

// TestCancelAndConcurrentRequests: a request that waits for its context
// is answered RequestCancelled after $/cancelRequest, and requests sent
// while it waits are answered meanwhile.
func TestCancelAndConcurrentRequests(t *testing.T) {
	requests["test/wait"] = func(_ *Server, ctx context.Context, _ json.RawMessage) (any, error) {
		<-ctx.Done()
		return "never seen", nil
	}
	requests["test/panic"] = func(*Server, context.Context, json.RawMessage) (any, error) { panic("a bug") }
	t.Cleanup(func() { delete(requests, "test/wait"); delete(requests, "test/panic") })
	c := startClient(t, newServer())
	c.initialize()
	waiting := c.send("test/wait", nil)
	uri := c.open("/tmp/any.hcl", books)
	var syms []documentSymbol
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, &syms)
	if len(syms) != 4 {
		t.Errorf("symbols while another request waits: %+v", syms)
	}
	m := c.await(c.send("test/panic", nil))
	if m.Error == nil || m.Error.Code != codeInternalError || !strings.Contains(m.Error.Message, "a bug") {
		t.Errorf("a panicking handler: %+v", m)
	}
	c.notify("$/cancelRequest", map[string]any{"id": json.RawMessage(waiting)})
	m = c.await(waiting)
	if m.Error == nil || m.Error.Code != codeRequestCancelled {
		t.Errorf("cancelled request answered %+v", m)
	}
	if err := c.shutdown(); err != nil {
		t.Errorf("shutdown and exit: %v", err)
	}
}

func TestPositionsInUTF16(t *testing.T) {
	src := "a😀é\r\nx\n"
	tx := newText(src)
	cases := []struct {
		off int
		pos Position
	}{{0, Position{0, 0}}, {1, Position{0, 1}}, {5, Position{0, 3}}, {7, Position{0, 4}}, {9, Position{1, 0}}, {len(src), Position{2, 0}}}
	for _, c := range cases {
		if got := tx.position(c.off); got != c.pos {
			t.Errorf("position(%d) = %+v, want %+v", c.off, got, c.pos)
		}
		if got := tx.offset(c.pos); got != c.off {
			t.Errorf("offset(%+v) = %d, want %d", c.pos, got, c.off)
		}
	}
	// Inside the surrogate pair: the start of the emoji. Past the line's
	// end: before its \r\n. Past the text: its end.
	if got := tx.offset(Position{0, 2}); got != 1 {
		t.Errorf("mid-pair: %d", got)
	}
	if got := tx.offset(Position{0, 99}); got != 7 {
		t.Errorf("past the line: %d", got)
	}
	if got := tx.offset(Position{9, 0}); got != len(src) {
		t.Errorf("past the text: %d", got)
	}
}

// index is an Index of one method, to show the hook is routed.
type index struct{}

func (index) Capabilities() map[string]any { return map[string]any{"definitionProvider": true} }
func (index) Methods() []string            { return []string{"textDocument/definition"} }
func (index) Answer(_ context.Context, method string, params json.RawMessage, src Source) (any, error) {
	var p textDocumentPosition
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, err
	}
	path := src.Path(p.TextDocument.URI)
	text, _ := src.Text(path)
	return map[string]any{"uri": p.TextDocument.URI, "offset": OffsetOf(text, p.Position), "files": len(src.ConfigFiles(path))}, nil
}

func TestIndexHook(t *testing.T) {
	c := startClient(t, &Server{Index: index{}})
	if caps := c.initialize(); caps["definitionProvider"] != true || caps["hoverProvider"] != true {
		t.Errorf("capabilities %v", caps)
	}
	dir := folder(t, map[string]string{"other.hcl": "tool \"t\" {}\n", "x_test.hcl": ""})
	uri := c.open(filepath.Join(dir, "x.hcl"), "# é\nserver {}\n") // never saved
	var got struct {
		Offset int `json:"offset"`
		Files  int `json:"files"`
	}
	c.call("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": Position{1, 3}}, &got)
	if got.Offset != 8 || got.Files != 3 {
		t.Errorf("offset %d, want 8; %d files, want the folder's 3", got.Offset, got.Files)
	}
}

func TestChangesApplyInOrder(t *testing.T) {
	r := func(l1, c1, l2, c2 int) *Range { return &Range{Start: Position{l1, c1}, End: Position{l2, c2}} }
	got, err := apply(newText("ab😀c\nde\n"), []contentChange{
		{Range: r(0, 4, 0, 5), Text: "C"},    // the c after the emoji (2 units)
		{Range: r(1, 0, 1, 0), Text: "x\ny"}, // a line break inserted
		{Range: r(2, 0, 2, 2), Text: "D"},    // on the line the second edit made
	})
	if err != nil || got != "ab😀C\nx\nDe\n" {
		t.Errorf("got %q, %v", got, err)
	}
	got, _ = apply(newText("old"), []contentChange{{Text: "new text"}, {Range: r(0, 3, 0, 8), Text: ""}})
	if got != "new" {
		t.Errorf("after a whole replacement: %q", got)
	}
	if _, err := apply(newText("abc"), []contentChange{{Range: r(0, 2, 0, 1)}}); err == nil {
		t.Error("a range ending before it starts was taken")
	}
}
