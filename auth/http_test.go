package auth_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/testkit/authtest"
)

// echoIdentity answers with the caller's subject and whether an
// Authorization header reached it.
var echoIdentity = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	id := auth.FromContext(r.Context())
	if id == nil {
		_, _ = io.WriteString(w, "anonymous")
		return
	}
	_, _ = io.WriteString(w, id.Subject+" header="+r.Header.Get("Authorization"))
})

func TestMiddleware(t *testing.T) {
	is := authtest.NewIssuer(t)
	v := newVerifier(t, is.URL, func(c *auth.Config) { c.ScopesSupported = []string{"tools:read"} })
	srv := httptest.NewServer(v.Middleware(echoIdentity))
	t.Cleanup(srv.Close)
	good := is.Sign(t, is.Key("rsa-1"), is.Claims(resource))
	bad := is.Sign(t, is.Key("rsa-1"), is.Claims("https://other.example.com"))

	cases := []struct {
		name       string
		method     string
		query      string
		headers    []string // "Name: value"
		status     int
		body       string
		errorCode  string // in WWW-Authenticate; "" means no error attribute
		challenged bool
	}{
		{name: "valid token", headers: []string{"Authorization: Bearer " + good}, status: 200, body: "alice header="},
		{name: "scheme in lower case", headers: []string{"Authorization: bearer " + good}, status: 200, body: "alice header="},
		{name: "no token", status: 401, challenged: true},
		{name: "other scheme", headers: []string{"Authorization: Basic dXNlcjpwYXNz"}, status: 401, challenged: true},
		{name: "token for another resource", headers: []string{"Authorization: Bearer " + bad}, status: 401, errorCode: "invalid_token", challenged: true},
		{name: "garbage token", headers: []string{"Authorization: Bearer not-a-jwt"}, status: 401, errorCode: "invalid_token", challenged: true},
		{name: "token in the query", query: "access_token=" + good, status: 400, errorCode: "invalid_request", challenged: true},
		{name: "token in the query and the header", query: "access_token=" + good, headers: []string{"Authorization: Bearer " + good}, status: 400, errorCode: "invalid_request", challenged: true},
		{name: "two Authorization headers", headers: []string{"Authorization: Bearer " + good, "Authorization: Bearer " + good}, status: 400, errorCode: "invalid_request", challenged: true},
		{name: "Bearer without a token", headers: []string{"Authorization: Bearer "}, status: 400, errorCode: "invalid_request", challenged: true},
		{name: "token with a space inside", headers: []string{"Authorization: Bearer abc def"}, status: 400, errorCode: "invalid_request", challenged: true},
		{name: "CORS preflight passes", method: http.MethodOptions, headers: []string{"Access-Control-Request-Method: POST", "Origin: https://app.example.com"}, status: 200, body: "anonymous"},
		{name: "OPTIONS without preflight needs a token", method: http.MethodOptions, status: 401, challenged: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			method := c.method
			if method == "" {
				method = http.MethodPost
			}
			u := srv.URL + "/mcp"
			if c.query != "" {
				u += "?" + c.query
			}
			req, _ := http.NewRequest(method, u, strings.NewReader("{}"))
			for _, h := range c.headers {
				name, value, _ := strings.Cut(h, ": ")
				req.Header.Add(name, value)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d; body %s", resp.StatusCode, c.status, body)
			}
			if c.body != "" && string(body) != c.body {
				t.Fatalf("body %q, want %q", body, c.body)
			}
			chal := resp.Header.Values("WWW-Authenticate")
			if !c.challenged {
				if len(chal) != 0 {
					t.Fatalf("unexpected challenge %q", chal)
				}
				return
			}
			if len(chal) != 1 {
				t.Fatalf("WWW-Authenticate = %q, want one", chal)
			}
			scheme, params := parseChallenge(t, chal[0])
			if scheme != "Bearer" || params["resource_metadata"] != "https://mcp.example.com/.well-known/oauth-protected-resource/mcp" {
				t.Fatalf("challenge %q", chal[0])
			}
			if params["error"] != c.errorCode {
				t.Fatalf("challenge error %q, want %q (%s)", params["error"], c.errorCode, chal[0])
			}
			if c.errorCode == "" && params["scope"] != "tools:read" {
				t.Fatalf("challenge without error should name the supported scopes: %s", chal[0])
			}
			var jb map[string]string
			if err := json.Unmarshal(body, &jb); err != nil || jb["error"] != c.errorCode || jb["error_description"] == "" {
				t.Fatalf("body %s", body)
			}
			if strings.Contains(string(body), good) || strings.Contains(chal[0], good) {
				t.Fatal("the token was echoed back")
			}
		})
	}
}

func TestMiddlewareUnavailableIs503(t *testing.T) {
	is := authtest.NewIssuer(t)
	v := newVerifier(t, is.URL, func(c *auth.Config) { c.JWKSURL = "http://127.0.0.1:1/jwks" })
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
	req.Header.Set("Authorization", "Bearer "+is.Sign(t, is.Key("rsa-1"), is.Claims(resource)))
	v.Middleware(echoIdentity).ServeHTTP(rec, req)
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" || rec.Header().Get("WWW-Authenticate") != "" {
		t.Fatalf("status %d, headers %v", rec.Code, rec.Header())
	}
}

func TestChallengeGrammar(t *testing.T) {
	v := newVerifier(t, "https://as.example.com")
	rec := httptest.NewRecorder()
	err := &auth.Error{Code: auth.CodeInsufficientScope, Description: `needs "admin" \ now` + "\r\nX-Evil: 1\x00é"}
	v.Challenge(rec, httptest.NewRequest("POST", "/mcp", nil), http.StatusForbidden, err, []string{"tools:call", `bad"scope`})
	h := rec.Header().Get("WWW-Authenticate")
	scheme, params := parseChallenge(t, h)
	want := map[string]string{
		"resource_metadata": "https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
		"scope":             "tools:call bad?scope",
		"error":             "insufficient_scope",
		"error_description": "needs 'admin' ? now??X-Evil: 1???",
	}
	if scheme != "Bearer" || len(params) != len(want) {
		t.Fatalf("challenge %q → %q %v", h, scheme, params)
	}
	for k, w := range want {
		if params[k] != w {
			t.Errorf("%s = %q, want %q", k, params[k], w)
		}
	}
	if rec.Code != http.StatusForbidden || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("status %d, content type %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	ins := auth.InsufficientScope([]string{"a", "b"})
	if ins.Code != auth.CodeInsufficientScope || ins.Description == "" {
		t.Fatalf("InsufficientScope = %+v", ins)
	}
}

// parseChallenge parses `Scheme k="v", k2=token` (RFC 9110 §11.3),
// failing the test on any syntax error.
func parseChallenge(t *testing.T, h string) (string, map[string]string) {
	t.Helper()
	scheme, rest, _ := strings.Cut(h, " ")
	params := map[string]string{}
	for rest = strings.TrimLeft(rest, " "); rest != ""; {
		eq := strings.IndexByte(rest, '=')
		if eq <= 0 {
			t.Fatalf("bad auth-param at %q in %q", rest, h)
		}
		name := strings.TrimSpace(rest[:eq])
		rest = rest[eq+1:]
		var value string
		if strings.HasPrefix(rest, `"`) {
			end := 1
			for end < len(rest) && rest[end] != '"' {
				if rest[end] == '\\' || rest[end] < 0x20 || rest[end] > 0x7e {
					t.Fatalf("character %q not allowed in a quoted value of %q", rest[end], h)
				}
				end++
			}
			if end == len(rest) {
				t.Fatalf("unterminated quoted string in %q", h)
			}
			value, rest = rest[1:end], rest[end+1:]
		} else {
			end := strings.IndexByte(rest, ',')
			if end < 0 {
				end = len(rest)
			}
			value, rest = strings.TrimSpace(rest[:end]), rest[end:]
		}
		if _, dup := params[name]; dup {
			t.Fatalf("parameter %s twice in %q", name, h)
		}
		params[name] = value
		rest = strings.TrimLeft(rest, " ")
		if rest != "" {
			if rest[0] != ',' {
				t.Fatalf("expected a comma at %q in %q", rest, h)
			}
			rest = strings.TrimLeft(rest[1:], " ")
		}
	}
	return scheme, params
}

func TestMetadata(t *testing.T) {
	v := newVerifier(t, "https://as.example.com/tenant", func(c *auth.Config) {
		c.Resource = "HTTPS://MCP.Example.com/mcp/"
		c.ScopesSupported = []string{"tools:read", "tools:call"}
		c.ResourceName = "Orders"
		c.ResourceDocumentation = "https://docs.example.com/orders"
	})
	var doc map[string]any
	if err := json.Unmarshal(v.Metadata(), &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"resource":                 "https://mcp.example.com/mcp",
		"authorization_servers":    []any{"https://as.example.com/tenant"},
		"scopes_supported":         []any{"tools:read", "tools:call"},
		"bearer_methods_supported": []any{"header"},
		"resource_name":            "Orders",
		"resource_documentation":   "https://docs.example.com/orders",
	}
	if len(doc) != len(want) {
		t.Fatalf("metadata %s", v.Metadata())
	}
	for k, w := range want {
		if got, _ := json.Marshal(doc[k]); string(got) != mustJSON(w) {
			t.Errorf("%s = %s, want %s", k, got, mustJSON(w))
		}
	}
	if u := v.MetadataURL(nil); u != "https://mcp.example.com/.well-known/oauth-protected-resource/mcp" {
		t.Fatalf("MetadataURL = %s", u)
	}

	srv := httptest.NewServer(v.MetadataHandler())
	t.Cleanup(srv.Close)
	resp, err := http.Get(srv.URL + "/.well-known/oauth-protected-resource/mcp")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" || resp.Header.Get("Access-Control-Allow-Origin") != "*" || string(body) != string(v.Metadata()) {
		t.Fatalf("GET metadata: %d %v %s", resp.StatusCode, resp.Header, body)
	}
	resp, err = http.Post(srv.URL, "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("POST metadata: %d", resp.StatusCode)
	}
}

func TestMetadataWithoutAuthorizationServers(t *testing.T) {
	v, err := auth.New(&auth.Config{Resource: resource, Static: []auth.StaticToken{{Name: "ci", Token: "0123456789abcdef0123"}}})
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	_ = json.Unmarshal(v.Metadata(), &doc)
	if _, ok := doc["authorization_servers"]; ok || doc["resource"] != resource {
		t.Fatalf("metadata %s", v.Metadata())
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestMetadataPaths(t *testing.T) {
	cases := map[string][]string{
		"/mcp":     {"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"},
		"/mcp/":    {"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"},
		"/api/mcp": {"/.well-known/oauth-protected-resource/api/mcp", "/.well-known/oauth-protected-resource"},
		"mcp":      {"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"},
		"/":        {"/.well-known/oauth-protected-resource"},
		"":         {"/.well-known/oauth-protected-resource"},
	}
	for in, want := range cases {
		if got := auth.MetadataPaths(in); !slices.Equal(got, want) {
			t.Errorf("MetadataPaths(%q) = %q, want %q", in, got, want)
		}
	}
}
