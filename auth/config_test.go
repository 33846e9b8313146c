package auth_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/auth"
)

func TestNewRefusesBadConfig(t *testing.T) {
	ok := func() *auth.Config {
		return &auth.Config{Resource: resource, AuthorizationServers: []string{"https://as.example.com"}}
	}
	tok := func(name, value string) auth.StaticToken { return auth.StaticToken{Name: name, Token: value} }
	cases := []struct {
		name  string
		edit  func(*auth.Config)
		field string
		index int
		want  string
	}{
		{"no resource", func(c *auth.Config) { c.Resource = "" }, "resource", -1, "is empty"},
		{"relative resource", func(c *auth.Config) { c.Resource = "/mcp" }, "resource", -1, "must be an absolute https://"},
		{"resource with fragment", func(c *auth.Config) { c.Resource = resource + "#x" }, "resource", -1, "fragment"},
		{"resource with credentials", func(c *auth.Config) { c.Resource = "https://u:hunter2@mcp.example.com/mcp" }, "resource", -1, "must not hold credentials"},
		{"bad authorization server", func(c *auth.Config) { c.AuthorizationServers = []string{"https://ok.example.com", "as.example.com"} }, "authorization_servers", 1, "absolute"},
		{"bad issuer", func(c *auth.Config) { c.Issuers = []string{"ftp://as.example.com"} }, "issuers", 0, "absolute"},
		{"bad jwks_url", func(c *auth.Config) { c.JWKSURL = "https:///keys" }, "jwks_url", -1, "has no host"},
		{"alg none", func(c *auth.Config) { c.Algorithms = []string{"RS256", "none"} }, "algorithms", 1, `"none" accepts unsigned tokens`},
		{"alg HS256", func(c *auth.Config) { c.Algorithms = []string{"HS256"} }, "algorithms", 0, "shared secret"},
		{"unknown alg", func(c *auth.Config) { c.Algorithms = []string{"RS257"} }, "algorithms", 0, "unknown algorithm"},
		{"negative leeway", func(c *auth.Config) { c.Leeway = -1 }, "leeway", -1, "out of range"},
		{"nothing to verify with", func(c *auth.Config) { c.AuthorizationServers = nil }, "auth", -1, "nothing can verify a token"},
		{"introspection without URL", func(c *auth.Config) { c.Introspection = &auth.Introspection{} }, "introspection.url", -1, "is empty"},
		{"introspection secret without id", func(c *auth.Config) {
			c.Introspection = &auth.Introspection{URL: "https://as.example.com/introspect", ClientSecret: "x"}
		}, "introspection.client_id", -1, "is missing"},
		{"static without name", func(c *auth.Config) { c.Static = []auth.StaticToken{tok("", "0123456789abcdef0")} }, "static.name", 0, "has no name"},
		{"static too short", func(c *auth.Config) { c.Static = []auth.StaticToken{tok("ci", "short")} }, "static.token", 0, "shorter than 16"},
		{"static with a space", func(c *auth.Config) { c.Static = []auth.StaticToken{tok("ci", "0123456789 abcdef0")} }, "static.token", 0, "cannot carry"},
		{"static duplicate name", func(c *auth.Config) {
			c.Static = []auth.StaticToken{tok("ci", "0123456789abcdef0"), tok("ci", "0123456789abcdef1")}
		}, "static.name", 1, "two static tokens are named"},
		{"static duplicate value", func(c *auth.Config) {
			c.Static = []auth.StaticToken{tok("a", "0123456789abcdef0"), tok("b", "0123456789abcdef0")}
		}, "static.token", 1, `"a" and "b" have the same value`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := ok()
			c.edit(cfg)
			_, err := auth.New(cfg)
			var ce *auth.ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("New error = %v, want a *auth.ConfigError", err)
			}
			if ce.Field != c.field || ce.Index != c.index || !strings.Contains(ce.Message, c.want) {
				t.Fatalf("New error = %+v, want field %q index %d message with %q", ce, c.field, c.index, c.want)
			}
			if strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "0123456789abcdef") {
				t.Fatalf("the error repeats a secret: %v", err)
			}
		})
	}
	if _, err := auth.New(ok()); err != nil {
		t.Fatalf("valid config refused: %v", err)
	}
}

func TestNewReportsEveryProblem(t *testing.T) {
	_, err := auth.New(&auth.Config{Algorithms: []string{"none"}, Leeway: -1})
	joined, ok := err.(interface{ Unwrap() []error })
	if !ok || len(joined.Unwrap()) != 4 { // resource, algorithms, leeway, nothing to verify with
		t.Fatalf("New error = %v", err)
	}
}

func TestNewWarnsOfCleartext(t *testing.T) {
	logs := &logBuffer{}
	_, err := auth.New(&auth.Config{
		Resource:             "http://127.0.0.1:8080/mcp",
		AuthorizationServers: []string{"http://keycloak.internal:8080/realms/x", "http://localhost:9000"},
		Logger:               logs.logger(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(logs.String(), "requires https"); got != 1 || !strings.Contains(logs.String(), "keycloak.internal") {
		t.Fatalf("warnings:\n%s", logs)
	}
}

func TestStaticTokens(t *testing.T) {
	v, err := auth.New(&auth.Config{
		Resource: resource,
		Static: []auth.StaticToken{
			{Name: "ci", Token: "ci-token-0123456789abcdef", Scopes: []string{"tools:call"}, Claims: map[string]any{"team": "build"}},
			{Name: "ops", Token: "ops-token-0123456789abcdef"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	id := mustVerify(t, v, "ci-token-0123456789abcdef")
	if id.Subject != "ci" || len(id.Scopes) != 1 || id.Scopes[0] != "tools:call" || id.Claims["team"] != "build" {
		t.Fatalf("identity %+v", id)
	}
	if id := mustVerify(t, v, "ops-token-0123456789abcdef"); id.Subject != "ops" || id.Claims == nil {
		t.Fatalf("identity %+v", id)
	}
	for _, bad := range []string{"ci-token-0123456789abcde", "ci-token-0123456789abcdef0", "CI-TOKEN-0123456789ABCDEF", "x"} {
		mustRefuse(t, v, bad, auth.CodeInvalidToken, "not accepted")
	}
}
