package server_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	mcpgotransport "github.com/mark3labs/mcp-go/client/transport"
	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
	"github.com/mcpdecl/mcpdecl/limits"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
)

// limitedEcho is testdata/echo.hcl's echo with a second tool and limits:
// two calls of echo per caller per hour; other tools are free.
const limitedEcho = `
server {
  name    = "echo"
  version = "1.0.0"
}
tool "echo" {
  description = "Echoes the text back."
  arg "text" {
    type        = string
    description = "Text to echo."
  }
  content "text" {
    text = "echo: ${args.text}"
  }
}
tool "free" {
  description = "Answers without a limit."
  content "text" {
    text = "free"
  }
}
limit "echo_per_caller" {
  per   = "caller"
  rate  = "2/hour"
  tools = ["echo"]
}
`

func mustCompile(t testing.TB, src string) *server.Server {
	t.Helper()
	tbl, err := compileSource("limits.hcl", src)
	if err != nil {
		t.Fatal(err)
	}
	return server.New(tbl, nil)
}

// startGuarded serves h over HTTP with the server's Guard, as serving
// does: a whole-server limit can answer before the body is read.
func startGuarded(t *testing.T, srv *server.Server, h mcp.Handler) string {
	t.Helper()
	proto := mcp.NewServer(h, nil)
	ts := httptest.NewServer(proto.HTTPHandler(&mcp.HTTPOptions{Guard: srv.Guard}))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = proto.Shutdown(ctx)
		ts.Close()
	})
	return ts.URL + "/mcp"
}

// wantRefusals calls echo three times: two pass, the third is a tool
// error saying when to retry; the unlimited tool still answers.
func wantRefusals(t *testing.T, c interopClient) {
	t.Helper()
	ctx := context.Background()
	for i := 0; i < 2; i++ {
		text, _, isErr, err := c.callTool(ctx, "echo", map[string]any{"text": "hi"})
		if err != nil || isErr || text != "echo: hi" {
			t.Fatalf("call %d: %q %v %v", i, text, isErr, err)
		}
	}
	text, _, isErr, err := c.callTool(ctx, "echo", map[string]any{"text": "hi"})
	if err != nil || !isErr || !strings.Contains(text, `Refused by the limit "echo_per_caller" (2/hour, per caller): retry in `) {
		t.Fatalf("third call: %q isError=%v err=%v; want a tool error saying when to retry", text, isErr, err)
	}
	if text, _, isErr, err := c.callTool(ctx, "free", nil); err != nil || isErr || text != "free" {
		t.Fatalf("unlimited tool: %q %v %v", text, isErr, err)
	}
}

// TestLimitsRealClients: go-sdk and mcp-go, in both eras, over HTTP
// (each connection a caller of its own only in 2025 sessions; anonymous
// modern callers share one bucket, so each subtest has its own server)
// and over stdio (the binary).
func TestLimitsRealClients(t *testing.T) {
	for _, e := range eras {
		t.Run("go-sdk/http/"+e.name, func(t *testing.T) {
			srv := mustCompile(t, limitedEcho)
			u := startGuarded(t, srv, srv)
			c := connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: u}, e.version)
			defer c.close()
			wantRefusals(t, c)
		})
		t.Run("mcp-go/http/"+e.name, func(t *testing.T) {
			srv := mustCompile(t, limitedEcho)
			u := startGuarded(t, srv, srv)
			tr, err := mcpgotransport.NewStreamableHTTP(u)
			if err != nil {
				t.Fatal(err)
			}
			c := connectMCPGo(t, tr, e.version)
			defer c.close()
			wantRefusals(t, c)
		})
		t.Run("go-sdk/stdio/"+e.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "limits.hcl")
			if err := os.WriteFile(path, []byte(limitedEcho), 0o600); err != nil {
				t.Fatal(err)
			}
			p := startStdio(t, &wireLog{}, path)
			c := connectSDK(t, &sdkmcp.IOTransport{Reader: p.stdout, Writer: p.stdin}, e.version)
			defer c.close()
			wantRefusals(t, c)
		})
	}
}

// TestLimitsPerSessionCaller: two 2025 sessions are two callers, each
// with its own bucket.
func TestLimitsPerSessionCaller(t *testing.T) {
	srv := mustCompile(t, limitedEcho)
	proto := mcp.NewServer(srv, nil)
	ts := httptest.NewServer(proto.HTTPHandler(&mcp.HTTPOptions{Guard: srv.Guard, LegacySessions: true}))
	defer ts.Close()
	for i := 0; i < 2; i++ {
		c := connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp"}, mcp.Version20251125)
		wantRefusals(t, c)
		c.close()
	}
}

const serverWide = `
server {
  name    = "echo"
  version = "1.0.0"
}
tool "echo" {
  description = "Echoes the text back."
  arg "text" {
    type        = string
    description = "Text to echo."
  }
  content "text" {
    text = "echo: ${args.text}"
  }
}
limit "everyone" {
  per  = "server"
  rate = "3/hour"
}
`

// TestLimitsReplicasShareRedis: two servers (replicas) on one Redis
// store share the whole-server bucket: three calls across both pass, the
// fourth is refused on either, and a 2025 client sees the tool error.
func TestLimitsReplicasShareRedis(t *testing.T) {
	url := testenv.OwnKeys(t, testenv.Redis.Need(t))
	var urls []string
	for i := 0; i < 2; i++ {
		store, err := limits.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		tbl, err := compileSource("limits.hcl", serverWide)
		if err != nil {
			t.Fatal(err)
		}
		srv := server.New(tbl, &server.Options{LimitStore: store})
		urls = append(urls, startGuarded(t, srv, srv))
	}
	a := connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: urls[0]}, mcp.Version20251125)
	defer a.close()
	b := connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: urls[1]}, mcp.Version20251125)
	defer b.close()
	ctx := context.Background()
	for i, c := range []interopClient{a, b, a} {
		if _, _, isErr, err := c.callTool(ctx, "echo", map[string]any{"text": "x"}); err != nil || isErr {
			t.Fatalf("call %d: %v %v", i, isErr, err)
		}
	}
	for _, c := range []interopClient{b, a} {
		text, _, isErr, err := c.callTool(ctx, "echo", map[string]any{"text": "x"})
		if err != nil || !isErr || !strings.Contains(text, `"everyone"`) {
			t.Fatalf("call beyond the shared bucket: %q %v %v", text, isErr, err)
		}
	}
}

// TestLimits429: a modern HTTP tools/call under an exhausted whole-server
// limit gets 429 with Retry-After before its body is read; the limit's
// tokens are taken once per call (three pass, not one and a half).
func TestLimits429(t *testing.T) {
	srv := mustCompile(t, serverWide)
	u := startGuarded(t, srv, srv)
	post := func() *http.Response {
		req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", mcp.Version20260728)
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "echo")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for i := 0; i < 3; i++ {
		res := post()
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || strings.Contains(string(body), `"isError":true`) {
			t.Fatalf("call %d: %d %s", i, res.StatusCode, body)
		}
	}
	res := post()
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" || !strings.Contains(string(body), `"everyone"`) {
		t.Fatalf("fourth call: %d Retry-After=%q %s; want 429 with Retry-After", res.StatusCode, res.Header.Get("Retry-After"), body)
	}
	if secs := res.Header.Get("Retry-After"); secs < "1" || len(secs) > 4 {
		t.Errorf("Retry-After %q, want whole seconds up to the 20 minutes a token takes", secs)
	}
}

// TestRefusedCallCostsNoOtherLimit: a call refused by one limit gives
// back the tokens the limits before it took, so retrying a tool whose own
// limit is spent does not use up the caller's budget for other tools.
func TestRefusedCallCostsNoOtherLimit(t *testing.T) {
	srv := mustCompile(t, limitedEcho+`
limit "caller_budget" {
  per  = "caller"
  rate = "3/hour"
}
`)
	// The caller's budget is declared after echo's own limit; declared
	// first, it would be taken before echo's refuses.
	srv2 := mustCompile(t, strings.Replace(limitedEcho, `limit "echo_per_caller"`, `limit "caller_budget" {
  per  = "caller"
  rate = "3/hour"
}
limit "echo_per_caller"`, 1))
	// A whole-server budget, which a 2026-07-28 request over HTTP takes
	// before its body is read.
	srv3 := mustCompile(t, limitedEcho+`
limit "caller_budget" {
  per  = "server"
  rate = "3/hour"
}
`)
	for name, s := range map[string]*server.Server{"budget last": srv, "budget first": srv2, "server budget": srv3} {
		t.Run(name, func(t *testing.T) {
			u := startGuarded(t, s, s)
			c := connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: u}, eras[0].version)
			defer c.close()
			ctx := context.Background()
			// echo twice (its limit: 2/hour), then three refused retries,
			// then one free call: the budget of 3 holds 2 echoes and it.
			for i := range 5 {
				_, _, isErr, err := c.callTool(ctx, "echo", map[string]any{"text": "hi"})
				if err != nil || isErr != (i >= 2) {
					t.Fatalf("echo %d: isError %v, %v", i, isErr, err)
				}
			}
			text, _, isErr, err := c.callTool(ctx, "free", nil)
			if err != nil || isErr || text != "free" {
				t.Fatalf("free after refused retries: %q %v %v; want it within the caller's budget", text, isErr, err)
			}
			// The budget refuses the next call: a tool error, or for the
			// whole-server budget of a 2026-07-28 request, 429.
			text, _, isErr, err = c.callTool(ctx, "free", nil)
			refused := isErr && strings.Contains(text, `"caller_budget"`) || err != nil && strings.Contains(err.Error(), "Too Many Requests")
			if !refused {
				t.Fatalf("a fourth call: %q %v %v; want the budget's refusal", text, isErr, err)
			}
		})
	}
}
