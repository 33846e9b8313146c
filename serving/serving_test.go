package serving

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
)

// lockedBuffer is a log destination that handlers write to at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// post sends one JSON-RPC request to the MCP endpoint as a stateless
// 2025 client and returns the result.
func post(t *testing.T, url, body string) map[string]any {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-06-18")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	text := string(raw)
	if i := strings.Index(text, "data: "); i >= 0 { // an event stream
		text = strings.TrimSpace(strings.SplitN(text[i+len("data: "):], "\n", 2)[0])
	}
	var msg struct {
		Result map[string]any `json:"result"`
		Error  any            `json:"error"`
	}
	if err := json.Unmarshal([]byte(text), &msg); err != nil || msg.Result == nil {
		t.Fatalf("POST %s: %d %s", body, resp.StatusCode, raw)
	}
	return msg.Result
}

func toolNames(t *testing.T, url string) []string {
	t.Helper()
	res := post(t, url, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	var names []string
	for _, tool := range res["tools"].([]any) {
		names = append(names, tool.(map[string]any)["name"].(string))
	}
	return names
}

// TestInstanceLifecycle serves a configuration without the command line:
// Start on a free port, one initialize and tools/list over HTTP, a
// reload that adds a tool, a reload that fails and keeps the tools, and
// Stop.
func TestInstanceLifecycle(t *testing.T) {
	config := filepath.Join(t.TempDir(), "config.hcl")
	writeFile(t, config, reloadConfigA)
	var logs lockedBuffer
	inst, err := Start(context.Background(), Options{
		Paths: []string{config}, HTTP: "127.0.0.1:0",
		Logger:       slog.New(slog.NewTextHandler(&logs, nil)),
		DrainTimeout: 5 * time.Second, HTTPLimits: HTTPLimits{HeaderTimeout: 10 * time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Stop()
	url := "http://" + inst.Addr().String() + "/mcp"
	init := post(t, url, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`)
	if info, _ := init["serverInfo"].(map[string]any); info["name"] != "reload" {
		t.Errorf("initialize: %v", init)
	}
	if got := toolNames(t, url); len(got) != 1 || got[0] != "greet" {
		t.Errorf("tools/list: %v", got)
	}
	if rep := inst.Ready(context.Background()); rep.Status != "ready" {
		t.Errorf("Ready: %+v", rep)
	}

	writeFile(t, config, reloadConfigA+`
tool "shout" {
  description = "Shout a word."
  arg "word" {
    type = string
  }
  result {
    text = "upper(args.word) + '!'"
  }
}
`)
	if err := inst.Reload(); err != nil {
		t.Fatal(err)
	}
	if got := toolNames(t, url); len(got) != 2 {
		t.Errorf("tools/list after the reload: %v", got)
	}
	writeFile(t, config, "tool \"x\" {\n")
	var ce *ConfigError
	if err := inst.Reload(); err == nil || !errors.As(err, &ce) {
		t.Errorf("a broken reload: %v", err)
	}
	if got := toolNames(t, url); len(got) != 2 {
		t.Errorf("tools/list after a broken reload: %v", got)
	}
	if !strings.Contains(logs.String(), "reload failed; still serving the previous configuration") {
		t.Errorf("the failed reload is not logged:\n%s", logs.String())
	}

	if err := inst.Stop(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-inst.Done():
	default:
		t.Error("Done is open after Stop")
	}
	if _, err := http.Get(url); err == nil {
		t.Error("the listener still answers after Stop")
	}
}

// TestStartBrokenConfig: a configuration that does not compile is a
// *ConfigError, its diagnostics given to Options.Diagnostics.
func TestStartBrokenConfig(t *testing.T) {
	config := filepath.Join(t.TempDir(), "broken.hcl")
	writeFile(t, config, "tool \"x\" {\n")
	reported := 0
	_, err := Start(context.Background(), Options{Paths: []string{config}, HTTP: "127.0.0.1:0",
		Diagnostics: func(diags hcl.Diagnostics, _ map[string]*hcl.File) { reported = len(diags) }})
	var ce *ConfigError
	if !errors.As(err, &ce) || reported == 0 || reported != len(ce.Diagnostics) {
		t.Errorf("Start: %v, %d diagnostics reported", err, reported)
	}
}
