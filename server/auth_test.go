package server_test

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
)

const (
	readerToken = "reader-7f3c91e2b84d05a6c1e9"
	adminToken  = "admin-e05b7a3d92c4f1688b2d"
)

// authSource is a configuration with two static tokens: one may read,
// the other may also administer.
const authSource = `
auth {
  resource              = "http://127.0.0.1/mcp"
  authorization_servers = ["http://127.0.0.1:1/as"]
  scope "read" {}
  scope "admin" {}
  claim "team" {
    type = string
  }
  token "reader" {
    value  = "` + readerToken + `"
    scopes = ["read"]
    claims = { team = "blue" }
  }
  token "admin" {
    value  = "` + adminToken + `"
    scopes = ["read", "admin"]
    claims = { team = "red" }
  }
}
tool "whoami" {
  description = "Who is calling."
  scopes      = ["read"]
  content "text" {
    text = "${auth.subject} of team ${auth.claims.team}"
  }
}
tool "purge" {
  description = "Administration."
  scopes      = ["admin"]
  content "text" {
    text = "purged"
  }
}
tool "open" {
  description = "Needs only a valid token."
  content "text" {
    text = "open"
  }
}
`

// authServer serves authSource over HTTP with token checks, as
// mcpdecl serve --http mounts it.
func authServer(t *testing.T) string { return authServerWith(t, &mcp.HTTPOptions{}) }

func authServerWith(t *testing.T, opts *mcp.HTTPOptions) string {
	t.Helper()
	table, err := compileSource("auth.hcl", authSource)
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(table, &server.Options{HTTPAuth: true})
	proto := mcp.NewServer(srv, nil)
	mux := http.NewServeMux()
	opts.Guard = srv.Guard
	mux.Handle("/mcp", proto.HTTPHandler(opts))
	for _, p := range auth.MetadataPaths("/mcp") {
		mux.Handle(p, srv.Metadata())
	}
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts.URL
}

// legacyRequest is a stateless 2025-06-18 POST.
func legacyRequest(t *testing.T, url, method, params string) *http.Request {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{` + params + `}}`
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", mcp.Version20250618)
	return req
}

type eraRequest func(t *testing.T, url, method, name, params string) *http.Request

var authEras = map[string]eraRequest{
	"2025-06-18": func(t *testing.T, url, method, _, params string) *http.Request {
		return legacyRequest(t, url, method, params)
	},
	"2026-07-28": func(t *testing.T, url, method, name, params string) *http.Request {
		return modernRequest(t, url, "1", method, name, params)
	},
}

func send(t *testing.T, req *http.Request, token string) (*http.Response, string) {
	t.Helper()
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

// TestTokenRequired: without a token, or with one nobody issued, every
// MCP request gets 401 with a challenge pointing at the metadata; the
// metadata itself needs no token.
func TestTokenRequired(t *testing.T) {
	base := authServer(t)
	for era, build := range authEras {
		for _, token := range []string{"", "garbage", readerToken + "x"} {
			resp, body := send(t, build(t, base+"/mcp", "tools/list", "", ""), token)
			challenge := resp.Header.Get("WWW-Authenticate")
			if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(challenge, "Bearer") ||
				!strings.Contains(challenge, `resource_metadata="`) || strings.Contains(body, "whoami") {
				t.Errorf("%s, token %q: %d %q %s", era, token, resp.StatusCode, challenge, body)
			}
		}
	}
	resp, err := http.Get(base + auth.MetadataPaths("/mcp")[0])
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var prm struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
		Scopes               []string `json:"scopes_supported"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&prm); err != nil || resp.StatusCode != 200 ||
		prm.Resource != "http://127.0.0.1/mcp" || len(prm.AuthorizationServers) != 1 || len(prm.Scopes) != 2 {
		t.Fatalf("metadata: %d %+v %v", resp.StatusCode, prm, err)
	}
}

// TestInsufficientScope: a token without a tool's scope gets 403 with an
// insufficient_scope challenge naming the scopes to ask for (those held
// and the one needed), in both eras; the body is a JSON-RPC error.
func TestInsufficientScope(t *testing.T) {
	base := authServer(t)
	for era, build := range authEras {
		resp, body := send(t, build(t, base+"/mcp", "tools/call", "purge", `"name":"purge"`), readerToken)
		challenge := resp.Header.Get("WWW-Authenticate")
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(challenge, `error="insufficient_scope"`) ||
			!strings.Contains(challenge, `scope="read admin"`) || !strings.Contains(challenge, `resource_metadata="`) {
			t.Errorf("%s: %d %q", era, resp.StatusCode, challenge)
		}
		var msg struct {
			Error *mcp.Error `json:"error"`
		}
		if err := json.Unmarshal([]byte(body), &msg); err != nil || msg.Error == nil || msg.Error.Code != mcp.CodeForbidden ||
			strings.Contains(body, readerToken) {
			t.Errorf("%s: body %s (%v)", era, body, err)
		}
		resp, body = send(t, build(t, base+"/mcp", "tools/call", "purge", `"name":"purge"`), adminToken)
		if resp.StatusCode != 200 || !strings.Contains(body, "purged") {
			t.Errorf("%s, admin: %d %s", era, resp.StatusCode, body)
		}
	}
}

// TestIdentityReachesCalls: the token's subject and claims are what the
// tool reads; every tool is listed whatever the token's scopes.
func TestIdentityReachesCalls(t *testing.T) {
	base := authServer(t)
	for era, build := range authEras {
		for token, want := range map[string]string{readerToken: "reader of team blue", adminToken: "admin of team red"} {
			resp, body := send(t, build(t, base+"/mcp", "tools/call", "whoami", `"name":"whoami"`), token)
			if resp.StatusCode != 200 || !strings.Contains(body, want) {
				t.Errorf("%s: %d %s, want %q", era, resp.StatusCode, body, want)
			}
		}
		resp, body := send(t, build(t, base+"/mcp", "tools/list", "", ""), readerToken)
		if resp.StatusCode != 200 || !strings.Contains(body, `"purge"`) || !strings.Contains(body, `"open"`) {
			t.Errorf("%s: list %d %s", era, resp.StatusCode, body)
		}
	}
}

// TestAuthIgnoredWithoutHTTPAuth: served without token checks (stdio), a
// scoped tool runs, and one that reads auth.* is refused with a message.
func TestAuthIgnoredWithoutHTTPAuth(t *testing.T) {
	table, err := compileSource("auth.hcl", authSource)
	if err != nil {
		t.Fatal(err)
	}
	proto := mcp.NewServer(server.New(table, nil), nil)
	ts := httptest.NewServer(proto.HTTPHandler(nil))
	defer ts.Close()
	_, body := send(t, legacyRequest(t, ts.URL, "tools/call", `"name":"purge"`), "")
	if !strings.Contains(body, "purged") {
		t.Errorf("purge: %s", body)
	}
	_, body = send(t, legacyRequest(t, ts.URL, "tools/call", `"name":"whoami"`), "")
	if !strings.Contains(body, `"isError":true`) || !strings.Contains(body, "no verified access token") {
		t.Errorf("whoami: %s", body)
	}
}

// TestLogRedactsBearerTokens: whatever path brings a bearer credential to
// a log line, the server's log handler does not write it.
func TestLogRedactsBearerTokens(t *testing.T) {
	table, err := compileSource("auth.hcl", authSource)
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	srv := server.New(table, &server.Options{Logger: slog.New(slog.NewTextHandler(&buf, nil)), HTTPAuth: true})
	log := server.LoggerOf(srv)
	log.Info("backend said: Authorization: Bearer eyJhbGciOi.payload.sig and bearer   abc-123", "header", "Bearer xyz~789=", "err", errors.New("BEARER q1w2e3"))
	out := buf.String()
	for _, secret := range []string{"eyJhbGciOi", "abc-123", "xyz~789", "q1w2e3"} {
		if strings.Contains(out, secret) {
			t.Errorf("the log holds %q:\n%s", secret, out)
		}
	}
	if strings.Count(out, "[redacted]") != 4 {
		t.Errorf("want 4 redactions:\n%s", out)
	}
}

// TestGuardOrder: the token is checked after the Host and Origin checks (a
// rebound page gets 403, not a challenge) and after the CORS headers (a
// browser can read the 401 and its challenge); a preflight needs no token.
func TestGuardOrder(t *testing.T) {
	base := authServerWith(t, &mcp.HTTPOptions{CORS: true, AllowedOrigins: []string{"https://app.example"}})
	req := legacyRequest(t, base+"/mcp", "tools/list", "")
	req.Host = "evil.example"
	if resp, _ := send(t, req, ""); resp.StatusCode != http.StatusForbidden || resp.Header.Get("WWW-Authenticate") != "" {
		t.Errorf("rebound Host: %d %v", resp.StatusCode, resp.Header)
	}
	req = legacyRequest(t, base+"/mcp", "tools/list", "")
	req.Header.Set("Origin", "https://app.example")
	resp, _ := send(t, req, "")
	if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("Access-Control-Allow-Origin") != "https://app.example" ||
		!strings.Contains(resp.Header.Get("Access-Control-Expose-Headers"), "WWW-Authenticate") {
		t.Errorf("browser without a token: %d %v", resp.StatusCode, resp.Header)
	}
	pre, _ := http.NewRequest(http.MethodOptions, base+"/mcp", nil)
	pre.Header.Set("Origin", "https://app.example")
	pre.Header.Set("Access-Control-Request-Method", "POST")
	pre.Header.Set("Access-Control-Request-Headers", "authorization, content-type")
	if resp, _ := send(t, pre, ""); resp.StatusCode != http.StatusNoContent || !strings.Contains(resp.Header.Get("Access-Control-Allow-Headers"), "Authorization") {
		t.Errorf("preflight: %d %v", resp.StatusCode, resp.Header)
	}
}
