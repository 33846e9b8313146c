package e2e

import (
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/testkit/authtest"
)

// serveTeamExample serves examples/team.hcl over HTTP with token checks,
// as mcpdecl serve --http does, its issuer the real authorization server.
// It returns the endpoint and the database file.
func serveTeamExample(t *testing.T, as *authtest.AS) (endpoint, db string) {
	t.Helper()
	db = filepath.Join(t.TempDir(), "team.db")
	endpoint = serveWithAuth(t, repoPath(t, "examples/team.hcl"), func(endpoint string) map[string]string {
		return map[string]string{"resource": endpoint, "issuer": as.Issuer, "team_db": db}
	}, nil)
	return endpoint, db
}

// serveWithAuth serves the configuration at path over HTTP with token
// checks, with the variables vars gives for its endpoint, and returns the
// endpoint. The server logs to logger (nil: nowhere).
func serveWithAuth(t *testing.T, path string, vars func(endpoint string) map[string]string, logger *slog.Logger) string {
	t.Helper()
	return serveWithAuthEnv(t, path, vars, nil, logger)
}

// serveWithAuthEnv is serveWithAuth with env() reading env.
func serveWithAuthEnv(t *testing.T, path string, vars func(endpoint string) map[string]string, env map[string]string, logger *slog.Logger) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := "http://" + ln.Addr().String() + "/mcp"
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	srv := openServer(t, path, vars(endpoint), env, &server.Options{Logger: logger, HTTPAuth: true})
	proto := mcp.NewServer(srv, &mcp.Options{Logger: logger})
	mux := http.NewServeMux()
	mux.Handle("/mcp", proto.HTTPHandler(&mcp.HTTPOptions{Guard: srv.Guard}))
	for _, p := range auth.MetadataPaths("/mcp") {
		mux.Handle(p, srv.Metadata())
	}
	hs := &http.Server{Handler: mux}
	go func() { _ = hs.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = proto.Shutdown(ctx)
		_ = hs.Shutdown(ctx)
	})
	return endpoint
}

// callTeam posts one stateless 2025-06-18 tools/call, with token when
// not empty, and returns the response and its body.
func callTeam(t *testing.T, endpoint, token, tool string, args map[string]any) (*http.Response, string) {
	t.Helper()
	params, _ := json.Marshal(map[string]any{"name": tool, "arguments": args})
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + string(params) + `}`
	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", mcp.Version20250618)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// TestTeamExampleWithRealTokens runs the README's walk-through of
// examples/team.hcl against the real authorization server: no token is
// 401 with a challenge that asks for team:read only (never team:admin);
// a team:read token lists the members of its own tenant (the claim is
// the SQL filter) and is refused on add_member with 403
// insufficient_scope naming team:admin; a token with team:admin adds a
// member, and the database holds the token's tenant and subject.
func TestTeamExampleWithRealTokens(t *testing.T) {
	as := authtest.Start(t)
	endpoint, db := serveTeamExample(t, as)
	token := func(sub, tenant, scope string) string {
		return as.Token(t, authtest.TokenRequest{Subject: sub, Scope: scope, Resource: []string{endpoint}, Claims: map[string]any{"tenant": tenant}})
	}

	resp, _ := callTeam(t, endpoint, "", "list_members", nil)
	challenge := resp.Header.Get("WWW-Authenticate")
	if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(challenge, "Bearer ") ||
		!strings.Contains(challenge, `resource_metadata="`+strings.TrimSuffix(endpoint, "/mcp")+`/.well-known/oauth-protected-resource/mcp"`) ||
		!strings.Contains(challenge, `scope="team:read"`) || strings.Contains(challenge, "team:admin") || strings.Contains(challenge, "error=") {
		t.Fatalf("no token: %d %q", resp.StatusCode, challenge)
	}

	reader := token("alice", "acme", "team:read")
	resp, body := callTeam(t, endpoint, reader, "list_members", nil)
	if resp.StatusCode != 200 || !strings.Contains(body, "Ada (lead)") || !strings.Contains(body, "Brian (developer)") || strings.Contains(body, "Chen") {
		t.Fatalf("list_members as acme: %d %s", resp.StatusCode, body)
	}
	resp, body = callTeam(t, endpoint, token("carol", "globex", "team:read"), "list_members", nil)
	if resp.StatusCode != 200 || !strings.Contains(body, "Chen (lead)") || strings.Contains(body, "Ada") {
		t.Fatalf("list_members as globex: %d %s", resp.StatusCode, body)
	}
	resp, body = callTeam(t, endpoint, reader, "whoami", nil)
	if resp.StatusCode != 200 || !strings.Contains(body, "alice of team acme") {
		t.Fatalf("whoami: %d %s", resp.StatusCode, body)
	}

	args := map[string]any{"name": "Dana", "role": "designer"}
	resp, body = callTeam(t, endpoint, reader, "add_member", args)
	challenge = resp.Header.Get("WWW-Authenticate")
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(challenge, `error="insufficient_scope"`) ||
		!strings.Contains(challenge, `scope="team:read team:admin"`) || !strings.Contains(body, "team:admin") {
		t.Fatalf("add_member with team:read: %d %q %s", resp.StatusCode, challenge, body)
	}

	admin := token("alice", "acme", "team:read team:admin")
	resp, body = callTeam(t, endpoint, admin, "add_member", args)
	if resp.StatusCode != 200 || !strings.Contains(body, "Added Dana to team acme.") {
		t.Fatalf("add_member with team:admin: %d %s", resp.StatusCode, body)
	}
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var tenant, addedBy string
	if err := conn.QueryRow(`SELECT tenant, added_by FROM members WHERE name = 'Dana'`).Scan(&tenant, &addedBy); err != nil || tenant != "acme" || addedBy != "alice" {
		t.Fatalf("the new row: tenant %q, added_by %q, %v; want the token's tenant and subject", tenant, addedBy, err)
	}
}

// introspectionOnly checks tokens at an introspection endpoint alone: no
// authorization_servers, issuers or jwks_url.
const introspectionOnly = `
variable "resource" {
  type = string
}
variable "introspect" {
  type = string
}
variable "client_id" {
  type = string
}
variable "client_secret" {
  type      = string
  sensitive = true
}
auth {
  resource = var.resource
  scope "team:read" {}
  claim "tenant" {
    type = string
  }
  introspection {
    url           = var.introspect
    client_id     = var.client_id
    client_secret = var.client_secret
  }
}
tool "whoami" {
  description = "Who calls."
  scopes      = ["team:read"]
  result {
    text = "auth.subject + ' of ' + auth.claims.tenant"
  }
}
`

// TestIntrospectionOnlyWithRealServer: an auth block whose only check is
// the real authorization server's introspection endpoint lets in its
// opaque tokens and its JWTs (both introspected), with their subject and
// claims, and refuses a revoked token.
func TestIntrospectionOnlyWithRealServer(t *testing.T) {
	as := authtest.Start(t)
	path := filepath.Join(t.TempDir(), "introspect.hcl")
	if err := os.WriteFile(path, []byte(introspectionOnly), 0o600); err != nil {
		t.Fatal(err)
	}
	endpoint := serveWithAuth(t, path, func(endpoint string) map[string]string {
		return map[string]string{"resource": endpoint, "introspect": as.Issuer + "/introspect", "client_id": as.ClientID, "client_secret": as.ClientSecret}
	}, nil)
	req := authtest.TokenRequest{Subject: "alice", Scope: "team:read", Resource: []string{endpoint}, Claims: map[string]any{"tenant": "acme"}}
	opaque, jwt := as.Opaque(t, req), as.Token(t, req)
	for name, token := range map[string]string{"opaque": opaque, "jwt": jwt} {
		resp, body := callTeam(t, endpoint, token, "whoami", nil)
		if resp.StatusCode != 200 || !strings.Contains(body, "alice of acme") {
			t.Errorf("%s token: %d %s", name, resp.StatusCode, body)
		}
	}
	resp, _ := callTeam(t, endpoint, "", "whoami", nil)
	if h := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != http.StatusUnauthorized || !strings.Contains(h, `scope="team:read"`) {
		t.Errorf("no token: %d %q", resp.StatusCode, h)
	}
	revoked := as.Opaque(t, req)
	as.Revoke(t, revoked)
	resp, _ = callTeam(t, endpoint, revoked, "whoami", nil)
	if h := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != http.StatusUnauthorized || !strings.Contains(h, `error="invalid_token"`) {
		t.Errorf("revoked token: %d %q", resp.StatusCode, h)
	}
}
