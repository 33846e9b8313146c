package e2e

import (
	"context"
	"database/sql"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	mcpgotransport "github.com/mark3labs/mcp-go/client/transport"
	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "modernc.org/sqlite"

	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/testkit/authtest"
)

// headerAPI records the headers of every request it gets.
type headerAPI struct {
	mu   sync.Mutex
	seen []http.Header
	urls []string
}

func (a *headerAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	a.seen, a.urls = append(a.seen, r.Header.Clone()), append(a.urls, r.URL.String())
	a.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"report":"ok"}`))
}

// authSetup is testdata/auth.hcl served in process with token checks,
// against the real authorization server.
type authSetup struct {
	as       *authtest.AS
	endpoint string
	api      *headerAPI
	logs     *syncBuffer
}

func startAuthServer(t *testing.T) *authSetup {
	t.Helper()
	as := authtest.Start(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "orders.db")
	seed(t, db, `CREATE TABLE orders (id INTEGER PRIMARY KEY, owner TEXT, item TEXT);
INSERT INTO orders (owner, item) VALUES ('alice', 'pen'), ('bob', 'ink'), ('alice', 'paper');`)
	api := &headerAPI{}
	apiSrv := httptest.NewServer(api)
	t.Cleanup(apiSrv.Close)
	logs := &syncBuffer{}
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	endpoint := serveWithAuth(t, repoPath(t, "testkit/e2e/testdata/auth.hcl"), func(endpoint string) map[string]string {
		return map[string]string{"resource": endpoint, "issuer": as.Issuer, "api": apiSrv.URL, "db": db}
	}, logger)
	return &authSetup{as: as, endpoint: endpoint, api: api, logs: logs}
}

func seed(t *testing.T, path, script string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(script); err != nil {
		t.Fatal(err)
	}
}

func (s *authSetup) token(t *testing.T, sub, tenant, scope string) string {
	return s.as.Token(t, authtest.TokenRequest{Subject: sub, Scope: scope, Resource: []string{s.endpoint}, Claims: map[string]any{"tenant": tenant}})
}

// bearer adds a token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// authClients connect with a token: go-sdk in both eras, mcp-go.
var authClients = []struct {
	name    string
	connect func(t *testing.T, endpoint, token string) client
}{
	{"go-sdk/2025-11-25", func(t *testing.T, endpoint, token string) client {
		hc := &http.Client{Transport: bearer{token, http.DefaultTransport}}
		return connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc, DisableStandaloneSSE: true}, mcp.Version20251125)
	}},
	{"go-sdk/2026-07-28", func(t *testing.T, endpoint, token string) client {
		hc := &http.Client{Transport: bearer{token, http.DefaultTransport}}
		return connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc, DisableStandaloneSSE: true}, mcp.Version20260728)
	}},
	{"mcp-go/2025-11-25", func(t *testing.T, endpoint, token string) client {
		tr, err := mcpgotransport.NewStreamableHTTP(endpoint, mcpgotransport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
		if err != nil {
			t.Fatal(err)
		}
		return connectMCPGo(t, tr, mcp.Version20251125)
	}},
}

// TestAuthenticatedClients: real SDK clients with tokens from the real
// authorization server: each caller sees only their own rows (the SQL
// filter is the token's sub), the HTTP backend gets the tenant claim and
// never the token, a model cannot send the claim as an argument, and a
// tool needing a scope the token lacks is refused.
func TestAuthenticatedClients(t *testing.T) {
	s := startAuthServer(t)
	for _, cl := range authClients {
		t.Run(cl.name, func(t *testing.T) {
			ctx := testCtx(t)
			token := s.token(t, "alice", "acme", "orders:read")
			c := cl.connect(t, s.endpoint, token)
			res, err := c.callTool(ctx, "my_orders", nil)
			if err != nil || res.IsError || !strings.Contains(res.Text, `"owner":"alice"`) || !strings.Contains(res.Text, "paper") || strings.Contains(res.Text, "ink") {
				t.Fatalf("my_orders: %+v, %v", res, err)
			}
			res, err = c.callTool(ctx, "my_orders", map[string]any{"sub": "bob"})
			if err != nil || !res.IsError || strings.Contains(res.Text, "ink") {
				t.Fatalf("my_orders with sub: %+v, %v; want a refusal", res, err)
			}
			res, err = c.callTool(ctx, "tenant_report", nil)
			if err != nil || res.IsError {
				t.Fatalf("tenant_report: %+v, %v", res, err)
			}
			s.api.mu.Lock()
			last, u := s.api.seen[len(s.api.seen)-1], s.api.urls[len(s.api.urls)-1]
			s.api.mu.Unlock()
			if last.Get("X-Tenant") != "acme" || last.Get("X-User") != "alice" || u != "/report?tenant=acme" {
				t.Errorf("backend got %v %s", last, u)
			}
			for name, vals := range last {
				if strings.EqualFold(name, "Authorization") || strings.Contains(strings.Join(vals, " "), token) {
					t.Errorf("the backend got the client's token in %s", name)
				}
			}
			if _, err := c.callTool(ctx, "purge", nil); err == nil {
				t.Errorf("purge: want a refusal for a token without orders:admin")
			}
			if strings.Contains(s.logs.String(), token) {
				t.Errorf("the server log holds the token")
			}
		})
	}
}

// TestAuthRefusesClients: without a token, with a made-up one, or with a
// token for another resource, a client cannot even connect.
func TestAuthRefusesClients(t *testing.T) {
	s := startAuthServer(t)
	other := s.as.Token(t, authtest.TokenRequest{Subject: "alice", Scope: "orders:read", Resource: []string{"http://127.0.0.1:1/other"}})
	for name, token := range map[string]string{"none": "", "garbage": "not-a-token", "other audience": other} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			var rt http.RoundTripper = http.DefaultTransport
			if token != "" {
				rt = bearer{token, rt}
			}
			c := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "e2e", Version: "1"}, nil)
			tr := &sdkmcp.StreamableClientTransport{Endpoint: s.endpoint, HTTPClient: &http.Client{Transport: rt}, MaxRetries: -1, DisableStandaloneSSE: true}
			if cs, err := c.Connect(ctx, tr, nil); err == nil {
				cs.Close()
				t.Fatal("connected without a valid token")
			}
		})
	}
}
