package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
)

const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// modernRequest builds a 2026-07-28 POST with the headers a conforming
// client sends.
func modernRequest(t testing.TB, url, id, method, name, params string) *http.Request {
	t.Helper()
	if params != "" {
		params += ","
	}
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":{%s%s}}`, id, method, params, modernMeta)
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", mcp.Version20260728)
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	return req
}

// sseEvents delivers the data of each SSE event of body.
func sseEvents(body io.Reader) <-chan []byte {
	ch := make(chan []byte, 16)
	go func() {
		defer close(ch)
		br := bufio.NewReader(body)
		var data []byte
		for {
			line, err := br.ReadString('\n')
			line = strings.TrimRight(line, "\r\n")
			if d, ok := strings.CutPrefix(line, "data:"); ok {
				data = append(data, strings.TrimPrefix(d, " ")...)
			} else if line == "" && len(data) > 0 {
				ch <- data
				data = nil
			}
			if err != nil {
				return
			}
		}
	}()
	return ch
}

func next(t *testing.T, ch <-chan []byte, what string) []byte {
	t.Helper()
	select {
	case b, ok := <-ch:
		if !ok {
			t.Fatalf("%s: stream ended", what)
		}
		return b
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: nothing within 10s", what)
	}
	return nil
}

// withExtraTool returns interop.hcl plus one more tool.
func withExtraTool(t testing.TB) string {
	t.Helper()
	src, err := os.ReadFile(interopConfig)
	if err != nil {
		t.Fatal(err)
	}
	return string(src) + `
tool "shout" {
  description = "Shout a word."
  arg "word" {
    type = string
  }
  result {
    text = "upper(args.word) + '!'"
  }
}
`
}

func toolNames(t *testing.T, result []byte) []string {
	t.Helper()
	var m struct {
		Result struct {
			Tools []struct{ Name string } `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(result, &m); err != nil {
		t.Fatalf("tools/list answer: %v\n%s", err, result)
	}
	var names []string
	for _, tool := range m.Result.Tools {
		names = append(names, tool.Name)
	}
	return names
}

// TestReload swaps the table under live listeners: a modern
// subscriptions/listen stream over HTTP, a legacy stdio session, and
// go-sdk clients of both eras. Each gets exactly the tools list_changed and
// then lists the new tool; a broken configuration never reaches the server.
func TestReload(t *testing.T) {
	requireSchemas(t)
	log := &wireLog{}
	srv := server.New(compileFile(t, interopConfig), nil)
	u, proto := startHTTPInProcess(t, log, srv)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	// A modern listen stream.
	req := modernRequest(t, u, `"listen-1"`, "subscriptions/listen", "", `"notifications":{"toolsListChanged":true,"promptsListChanged":true}`)
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("subscriptions/listen: %d %s", resp.StatusCode, ct)
	}
	listen := sseEvents(resp.Body)
	ack := next(t, listen, "listen acknowledgment")
	assertJSON(t, ack, `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{
		"notifications":{"toolsListChanged":true,"promptsListChanged":true},
		"_meta":{"io.modelcontextprotocol/subscriptionId":"listen-1"}}}`)

	// A legacy stdio session, in process.
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	tap := newStdioTap(log)
	clientIn, clientOut := tap.clientWriter(stdinW), tap.serverReader(stdoutR)
	served := make(chan error, 1)
	go func() { served <- proto.ServeStdio(ctx, stdinR, stdoutW) }()
	lines := readLines(clientOut)
	send := func(s string) {
		t.Helper()
		if _, err := io.WriteString(clientIn, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	next(t, lines, "initialize answer")
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	// go-sdk clients that opted in to tools list_changed.
	sdkNotes := make(chan string, 8)
	sdkOpts := func(who string) *sdkmcp.ClientOptions {
		return &sdkmcp.ClientOptions{ToolListChangedHandler: func(context.Context, *sdkmcp.ToolListChangedRequest) { sdkNotes <- who }}
	}
	modernSDK, err := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "m", Version: "1"}, sdkOpts("modern")).
		Connect(ctx, &sdkmcp.StreamableClientTransport{Endpoint: u}, &sdkmcp.ClientSessionOptions{ProtocolVersion: mcp.Version20260728})
	if err != nil {
		t.Fatal(err)
	}
	defer modernSDK.Close()
	sdkIn, sdkInW := io.Pipe()
	sdkOutR, sdkOut := io.Pipe()
	go func() { _ = proto.ServeStdio(ctx, sdkIn, sdkOut) }()
	legacySDK, err := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "l", Version: "1"}, sdkOpts("legacy")).
		Connect(ctx, &sdkmcp.IOTransport{Reader: sdkOutR, Writer: sdkInW}, &sdkmcp.ClientSessionOptions{ProtocolVersion: mcp.Version20251125})
	if err != nil {
		t.Fatal(err)
	}
	defer legacySDK.Close()

	// The go-sdk clients open their push streams after Connect returns:
	// a notification sent before that is lost to them, so wait for all
	// four destinations (the raw listen stream, the raw stdio session and
	// the two go-sdk clients).
	for deadline := time.Now().Add(30 * time.Second); proto.Listeners() < 4; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d push destinations open, want 4", proto.Listeners())
		}
	}

	// Swapping in the same configuration changes nothing.
	if kinds := srv.Swap(compileFile(t, interopConfig)); kinds != 0 {
		t.Errorf("Swap(same configuration) = %v, want 0", kinds)
	}

	// A valid change: one more tool.
	next2, err := compileSource("interop.hcl", withExtraTool(t))
	if err != nil {
		t.Fatal(err)
	}
	kinds := srv.Swap(next2)
	if kinds != mcp.ToolsListChanged {
		t.Errorf("Swap(extra tool) = %v, want ToolsListChanged only", kinds)
	}
	proto.NotifyListChanged(kinds)

	assertJSON(t, next(t, listen, "listen list_changed"), `{"jsonrpc":"2.0","method":"notifications/tools/list_changed",
		"params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"listen-1"}}}`)
	assertJSON(t, next(t, lines, "stdio list_changed"), `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)
	got := map[string]bool{}
	for range 2 {
		select {
		case who := <-sdkNotes:
			got[who] = true
		case <-time.After(10 * time.Second):
			t.Fatalf("go-sdk clients notified: %v; want modern and legacy", got)
		}
	}

	want := []string{"greet", "add", "shout"}
	r, err := http.DefaultClient.Do(modernRequest(t, u, "2", "tools/list", "", ""))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if diff := cmp.Diff(want, toolNames(t, body)); diff != "" {
		t.Errorf("modern tools/list after reload mismatch (-want +got):\n%s", diff)
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if diff := cmp.Diff(want, toolNames(t, next(t, lines, "stdio tools/list"))); diff != "" {
		t.Errorf("legacy stdio tools/list after reload mismatch (-want +got):\n%s", diff)
	}
	for _, cs := range []*sdkmcp.ClientSession{modernSDK, legacySDK} {
		res, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "shout", Arguments: map[string]any{"word": "hi"}})
		if err != nil || res.IsError || res.Content[0].(*sdkmcp.TextContent).Text != "HI!" {
			t.Errorf("go-sdk (%s) call of the new tool = %+v, %v", cs.InitializeResult().ProtocolVersion, res, err)
		}
	}

	// A broken change: the load fails, nothing is swapped or announced,
	// and the previous table keeps serving.
	if _, err := compileSource("interop.hcl", withExtraTool(t)+"\ntool \"bad\" {\n  result {\n    text = \"nosuchname\"\n  }\n}\n"); err == nil {
		t.Fatal("a broken configuration compiled")
	}
	if diff := cmp.Diff(want, toolNames(t, mustList(t, srv))); diff != "" {
		t.Errorf("tools after a broken reload mismatch (-want +got):\n%s", diff)
	}

	// Shutdown ends the listen stream with its final result.
	sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer scancel()
	_ = proto.Shutdown(sctx)
	final := next(t, listen, "listen final result")
	assertJSON(t, final, `{"jsonrpc":"2.0","id":"listen-1","result":{"resultType":"complete",
		"_meta":{"io.modelcontextprotocol/subscriptionId":"listen-1",
		"io.modelcontextprotocol/serverInfo":{"name":"interop","version":"1.2.3"}}}}`)
	stdinW.Close()
	select {
	case <-served:
	case <-time.After(5 * time.Second):
		t.Error("ServeStdio did not return after stdin EOF")
	}
	log.verify(t, "2026-07-28 subscriptions/listen", "2026-07-28 notifications/tools/list_changed",
		"2025-11-25 notifications/tools/list_changed", "2025-11-25 tools/list", "2026-07-28 tools/list")
}

// mustList lists the tools through the handler, as the router would.
func mustList(t *testing.T, srv *server.Server) []byte {
	t.Helper()
	tools, err := srv.ListTools(context.Background(), &mcp.Request{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{"result": map[string]any{"tools": tools}})
	return b
}

// assertJSON compares JSON semantically, ignoring key order and spacing.
func assertJSON(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad want: %v", err)
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("message mismatch (-want +got):\n%s\ngot: %s", diff, bytes.TrimSpace(got))
	}
}
