package auth_test

import (
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/auth"
)

func TestNewRefusesBadConfig(t *testing.T) {
	ok := func() *auth.Config {
		return &auth.Config{Resource: resource, AuthorizationServers: []string{"https://as.example.com"}}
	}
	cases := []struct {
		name string
		edit func(*auth.Config)
		want string
	}{
		{"no resource", func(c *auth.Config) { c.Resource = "" }, "resource is empty"},
		{"relative resource", func(c *auth.Config) { c.Resource = "/mcp" }, "must be an absolute https://"},
		{"resource with fragment", func(c *auth.Config) { c.Resource = resource + "#x" }, "fragment"},
		{"resource with credentials", func(c *auth.Config) { c.Resource = "https://u:hunter2@mcp.example.com/mcp" }, "must not hold credentials"},
		{"bad issuer", func(c *auth.Config) { c.AuthorizationServers = []string{"as.example.com"} }, "authorization server"},
		{"alg none", func(c *auth.Config) { c.Algorithms = []string{"none"} }, `"none" accepts unsigned tokens`},
		{"alg HS256", func(c *auth.Config) { c.Algorithms = []string{"HS256"} }, "shared secret"},
		{"unknown alg", func(c *auth.Config) { c.Algorithms = []string{"RS257"} }, "unknown algorithm"},
		{"negative leeway", func(c *auth.Config) { c.Leeway = -1 }, "leeway"},
		{"nothing to verify with", func(c *auth.Config) { c.AuthorizationServers = nil }, "nothing can verify a token"},
		{"introspection without URL", func(c *auth.Config) { c.Introspection = &auth.Introspection{} }, "introspection url is empty"},
		{"introspection secret without id", func(c *auth.Config) {
			c.Introspection = &auth.Introspection{URL: "https://as.example.com/introspect", ClientSecret: "x"}
		}, "no client id"},
		{"static without name", func(c *auth.Config) { c.Static = []auth.StaticToken{{Token: "0123456789abcdef0"}} }, "has no name"},
		{"static too short", func(c *auth.Config) { c.Static = []auth.StaticToken{{Name: "ci", Token: "short"}} }, "shorter than 16"},
		{"static duplicate name", func(c *auth.Config) {
			c.Static = []auth.StaticToken{{Name: "ci", Token: "0123456789abcdef0"}, {Name: "ci", Token: "0123456789abcdef1"}}
		}, "two static tokens are named"},
		{"static duplicate value", func(c *auth.Config) {
			c.Static = []auth.StaticToken{{Name: "a", Token: "0123456789abcdef0"}, {Name: "b", Token: "0123456789abcdef0"}}
		}, `"a" and "b" have the same value`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := ok()
			c.edit(cfg)
			_, err := auth.New(cfg)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("New error = %v, want it to contain %q", err, c.want)
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
