package server_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	mcpgotransport "github.com/mark3labs/mcp-go/client/transport"
	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolsetsAuthSource adds toolsets to authSource: "admin" requires the
// admin scope at its endpoint; "dyn" serves every tool through the
// meta-tools, whose call_tool must refuse a tool's scope as a direct call
// does.
const toolsetsAuthSource = authSource + `
toolset "admin" {
  description = "Administration."
  tools       = ["purge", "open"]
  scopes      = ["admin"]
}
toolset "dyn" {
  tools   = ["*"]
  dynamic = true
}
`

func startToolsetsAuthBinary(t *testing.T) string {
	t.Helper()
	return startToolsetsAuthBinaryWith(t, toolsetsAuthSource)
}

func startToolsetsAuthBinaryWith(t *testing.T, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "auth.hcl")
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	return startHTTPBinary(t, &wireLog{}, path)
}

// TestToolsetScopes: a toolset's endpoint requires its scopes: without a
// token the 401 challenge names them, a token without them gets 403
// naming the scopes to ask for, in both eras; the MCP endpoint itself
// asks only for a valid token.
func TestToolsetScopes(t *testing.T) {
	base := startToolsetsAuthBinary(t)
	for era, build := range authEras {
		resp, _ := send(t, build(t, base+"/toolsets/admin", "tools/list", "", ""), "")
		challenge := resp.Header.Get("WWW-Authenticate")
		if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(challenge, `scope="admin"`) || !strings.Contains(challenge, `resource_metadata="`) {
			t.Errorf("%s, no token: %d %q; want 401 naming the admin scope", era, resp.StatusCode, challenge)
		}
		resp, body := send(t, build(t, base+"/toolsets/admin", "tools/list", "", ""), readerToken)
		challenge = resp.Header.Get("WWW-Authenticate")
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(challenge, `error="insufficient_scope"`) || !strings.Contains(challenge, `scope="read admin"`) {
			t.Errorf("%s, reader: %d %q %s; want 403 asking for read admin", era, resp.StatusCode, challenge, body)
		}
		resp, body = send(t, build(t, base+"/toolsets/admin", "tools/list", "", ""), adminToken)
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"purge"`) || strings.Contains(body, `"whoami"`) {
			t.Errorf("%s, admin: %d %s", era, resp.StatusCode, body)
		}
		resp, body = send(t, build(t, base, "tools/list", "", ""), readerToken)
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"whoami"`) {
			t.Errorf("%s, reader at the MCP endpoint: %d %s", era, resp.StatusCode, body)
		}
		resp, _ = send(t, build(t, base+"/toolsets/nosuch", "tools/list", "", ""), adminToken)
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s, an unknown toolset: %d; want 404", era, resp.StatusCode)
		}
		// call_tool refuses a tool's scope as the direct call does: 403
		// with the challenge.
		resp, body = send(t, build(t, base+"/toolsets/dyn", "tools/call", "call_tool", `"name":"call_tool","arguments":{"name":"purge"}`), readerToken)
		challenge = resp.Header.Get("WWW-Authenticate")
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(challenge, `scope="read admin"`) || strings.Contains(body, "purged") {
			t.Errorf("%s, call_tool purge as reader: %d %q %s", era, resp.StatusCode, challenge, body)
		}
	}
}

// TestToolsetFirstChallengeWithInitialScopes: the 401 of a toolset's
// endpoint names the auth block's initial scopes, then the toolset's.
func TestToolsetFirstChallengeWithInitialScopes(t *testing.T) {
	src := strings.Replace(toolsetsAuthSource, `scope "read" {}`, "initial_scopes = [\"read\"]\n  scope \"read\" {}", 1)
	base := startToolsetsAuthBinaryWith(t, src)
	for era, build := range authEras {
		resp, _ := send(t, build(t, base+"/toolsets/admin", "tools/list", "", ""), "")
		if c := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != http.StatusUnauthorized || !strings.Contains(c, `scope="read admin"`) {
			t.Errorf("%s: %d %q; want 401 naming read admin", era, resp.StatusCode, c)
		}
		resp, _ = send(t, build(t, base, "tools/list", "", ""), "")
		if c := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != http.StatusUnauthorized || !strings.Contains(c, `scope="read"`) {
			t.Errorf("%s, the MCP endpoint: %d %q; want 401 naming read", era, resp.StatusCode, c)
		}
	}
}

// bearer adds a token to every request of a client.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// TestDynamicScopeRefusalRealClients: through call_tool, go-sdk and mcp-go
// get the tool's scope refusal in both eras, and the tool they may call
// runs with their identity.
func TestDynamicScopeRefusalRealClients(t *testing.T) {
	base := startToolsetsAuthBinary(t)
	u := base + "/toolsets/dyn"
	for _, e := range eras {
		clients := map[string]func() interopClient{
			"go-sdk": func() interopClient {
				return connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: u,
					HTTPClient: &http.Client{Transport: bearer{readerToken, http.DefaultTransport}}}, e.version)
			},
			"mcp-go": func() interopClient {
				tr, err := mcpgotransport.NewStreamableHTTP(u, mcpgotransport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + readerToken}))
				if err != nil {
					t.Fatal(err)
				}
				return connectMCPGo(t, tr, e.version)
			},
		}
		for name, connect := range clients {
			t.Run(name+"/"+e.name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				c := connect()
				defer c.close()
				text, _, isErr, err := c.callTool(ctx, "call_tool", map[string]any{"name": "whoami"})
				if err != nil || isErr || text != "reader of team blue" {
					t.Errorf("call_tool whoami: %q %v %v", text, isErr, err)
				}
				text, _, _, err = c.callTool(ctx, "call_tool", map[string]any{"name": "purge"})
				if err == nil || !strings.Contains(err.Error(), "admin") || text == "purged" {
					t.Errorf("call_tool purge as reader: %q %v; want the scope refusal", text, err)
				}
			})
		}
	}
}
