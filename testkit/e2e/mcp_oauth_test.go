package e2e

import (
	"net"
	"strings"
	"testing"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/testkit/authtest"
)

// TestMCPBackendClientCredentials: a backend "mcp" over Streamable HTTP
// with auth { oauth2 { ... } } calls a `mcpdecl serve --http` whose auth
// block wants tokens for its own URL with the scope remote:call. The
// front gets a token from the test authorization server with the client
// credentials grant, for the remote's URL (RFC 8707 resource, by
// default the backend's url) and the scopes asked, and the remote sees
// the front's client as the caller; the token is asked for once and kept
// for the calls after; a backend without a token is refused by the
// remote, and says so, and one whose token endpoint answers 404 says
// that it got no token.
func TestMCPBackendClientCredentials(t *testing.T) {
	as := authtest.Start(t)
	// The remote's resource is its own URL, known before it starts.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	remoteURL := "http://" + addr + "/mcp"
	_, endpoint := serveBinaryAt(t, addr, []string{"--var", "resource=" + remoteURL, "--var", "issuer=" + as.Issuer,
		repoPath(t, "testkit/e2e/testdata/mcp_remote_oauth.hcl")}, nil, &syncBuffer{}, true)
	if endpoint != remoteURL {
		t.Fatalf("the remote serves on %s, want %s", endpoint, remoteURL)
	}

	front := serveHTTPInProcess(t, repoPath(t, "testkit/e2e/testdata/mcp_front_oauth.hcl"),
		map[string]string{"remote": remoteURL, "token_url": as.Issuer + "/token"},
		map[string]string{"FRONT_SECRET": "front-secret-value"}, &wireLog{}, &syncBuffer{})
	c := connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: front, DisableStandaloneSSE: true}, mcp.Version20251125)
	defer c.close()
	ctx := testCtx(t)
	before := as.Stats(t).Token
	for i := range 3 {
		res, err := c.callTool(ctx, "remote_whoami", nil)
		if err != nil || res.IsError || res.Text != "front-client with remote:call" {
			t.Fatalf("call %d: %+v, %v", i, res, err)
		}
	}
	if n := as.Stats(t).Token - before; n != 1 {
		t.Errorf("%d token requests for three calls, want 1 (the token is kept until it ends)", n)
	}

	res, err := c.callTool(ctx, "anonymous_whoami", nil)
	if err != nil || !res.IsError || !strings.Contains(res.Text, `backend "anonymous"`) {
		t.Errorf("a backend without a token: %+v, %v", res, err)
	}
	if strings.Contains(res.Text, "front-secret-value") {
		t.Errorf("an error repeats the client secret: %q", res.Text)
	}

	res, err = c.callTool(ctx, "misconfigured_whoami", nil)
	if err != nil || !res.IsError || !strings.Contains(res.Text, `The MCP server of backend "misconfigured" was not called`) ||
		!strings.Contains(res.Text, "Could not get an OAuth2 access token: the token endpoint answered 404") {
		t.Errorf("a token endpoint that is not there: %+v, %v", res, err)
	}
	if strings.Contains(res.Text, "front-secret-value") {
		t.Errorf("an error repeats the client secret: %q", res.Text)
	}
}
