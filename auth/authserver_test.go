package auth_test

// Tests against a real authorization server (testkit/authtest.Start).

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/testkit/authtest"
)

func TestRealServerTokens(t *testing.T) {
	t.Parallel()
	as := authtest.Start(t)
	v := newVerifier(t, as.Issuer)
	token := as.Token(t, authtest.TokenRequest{
		ClientID: "reporting",
		Scope:    "tools:read tools:call",
		Resource: []string{resource},
		Claims:   map[string]any{"tenant": "acme", "groups": []string{"ops"}},
	})
	id := mustVerify(t, v, token)
	if id.Subject != "reporting" || strings.Join(id.Scopes, " ") != "tools:read tools:call" || id.Claims["tenant"] != "acme" {
		t.Fatalf("identity %+v", id)
	}
	if g, _ := id.Claims["groups"].([]any); len(g) != 1 || g[0] != "ops" {
		t.Fatalf("groups claim %#v", id.Claims["groups"])
	}
	// Discovery went through RFC 8414 metadata, then the key set; once.
	mustVerify(t, v, as.Token(t, authtest.TokenRequest{Resource: []string{resource}}))
	if s := as.Stats(t); s.Metadata != 1 || s.JWKS != 1 {
		t.Fatalf("stats %+v; want one metadata and one key set fetch", s)
	}

	t.Run("token for another resource", func(t *testing.T) {
		other := as.Token(t, authtest.TokenRequest{Resource: []string{"https://other.example.com/mcp"}})
		mustRefuse(t, v, other, auth.CodeInvalidToken, "not meant for this resource")
	})
	t.Run("token without a resource", func(t *testing.T) {
		mustRefuse(t, v, as.Token(t, authtest.TokenRequest{}), auth.CodeInvalidToken, "not meant for this resource")
	})
	t.Run("token for two resources", func(t *testing.T) {
		both := as.Token(t, authtest.TokenRequest{Resource: []string{"https://other.example.com", resource}})
		mustVerify(t, v, both)
	})
	t.Run("expired", func(t *testing.T) {
		mustRefuse(t, v, as.Token(t, authtest.TokenRequest{Resource: []string{resource}, ExpiresIn: -120}), auth.CodeInvalidToken, "expired")
	})
	t.Run("nbf in the future", func(t *testing.T) {
		nbf := time.Now().Add(time.Hour).Unix()
		tok := as.Token(t, authtest.TokenRequest{Resource: []string{resource}, Claims: map[string]any{"nbf": nbf}})
		mustRefuse(t, v, tok, auth.CodeInvalidToken, "not valid yet")
	})
	t.Run("wrong issuer", func(t *testing.T) {
		other := authtest.Start(t)
		mustRefuse(t, v, other.Token(t, authtest.TokenRequest{Resource: []string{resource}}), auth.CodeInvalidToken, "issuer is not accepted")
	})
	t.Run("issuer claim forged onto another server's token", func(t *testing.T) {
		other := authtest.Start(t)
		tok := other.Token(t, authtest.TokenRequest{Resource: []string{resource}, Claims: map[string]any{"iss": as.Issuer}})
		mustRefuse(t, v, tok, auth.CodeInvalidToken, "unknown key")
	})
}

func TestRealServerAuthorizationCode(t *testing.T) {
	t.Parallel()
	as := authtest.Start(t)
	as.SetClaims(t, map[string]any{"email": "john@example.com"})
	v := newVerifier(t, as.Issuer)
	id := mustVerify(t, v, as.AuthorizationCode(t, authtest.TokenRequest{Scope: "tools:read", Resource: []string{resource}}))
	if id.Subject != "johndoe" || strings.Join(id.Scopes, " ") != "tools:read" || id.Claims["email"] != "john@example.com" {
		t.Fatalf("identity %+v", id)
	}
	other := as.AuthorizationCode(t, authtest.TokenRequest{Resource: []string{"https://other.example.com/mcp"}})
	mustRefuse(t, v, other, auth.CodeInvalidToken, "not meant for this resource")
}

func TestRealServerOpenIDDiscoveryFallback(t *testing.T) {
	t.Parallel()
	as := authtest.StartWith(t, authtest.Options{NoRFC8414: true, Alg: "ES256"})
	v := newVerifier(t, as.Issuer)
	mustVerify(t, v, as.Token(t, authtest.TokenRequest{Resource: []string{resource}}))
	if s := as.Stats(t); s.Metadata != 1 || s.JWKS != 1 {
		t.Fatalf("stats %+v", s)
	}
}

func TestRealServerKeyRotation(t *testing.T) {
	t.Parallel()
	as := authtest.Start(t)
	v := newVerifier(t, as.Issuer, func(c *auth.Config) {
		c.KeyRefreshInterval = time.Nanosecond
		c.TokenCacheSize = -1
	})
	before := as.Token(t, authtest.TokenRequest{Resource: []string{resource}})
	mustVerify(t, v, before)

	kid := as.Rotate(t, true)
	if kid == as.FirstKid {
		t.Fatal("rotation kept the key")
	}
	mustVerify(t, v, as.Token(t, authtest.TokenRequest{Resource: []string{resource}}))
	if s := as.Stats(t); s.JWKS != 2 {
		t.Fatalf("key set fetched %d times; want 2", s.JWKS)
	}
	mustRefuse(t, v, before, auth.CodeInvalidToken, "unknown key")
}

func TestRealServerForgedKidFlood(t *testing.T) {
	t.Parallel()
	as := authtest.Start(t)
	v := newVerifier(t, as.Issuer, func(c *auth.Config) { c.KeyRefreshInterval = time.Hour })
	mustVerify(t, v, as.Token(t, authtest.TokenRequest{Resource: []string{resource}}))
	// Tokens of a key the server has not published yet look, to the
	// verifier, exactly like forged kids: a flood of them is answered from
	// the cache.
	as.Rotate(t, false)
	unknown := as.Token(t, authtest.TokenRequest{Resource: []string{resource}})
	var wg sync.WaitGroup
	for i := 0; i < 100; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = v.Verify(context.Background(), unknown)
		}()
	}
	wg.Wait()
	mustRefuse(t, v, unknown, auth.CodeInvalidToken, "unknown key")
	if s := as.Stats(t); s.JWKS != 1 {
		t.Fatalf("key set fetched %d times; want 1", s.JWKS)
	}
}

func TestRealServerIntrospection(t *testing.T) {
	t.Parallel()
	as := authtest.Start(t)
	cfg := func(c *auth.Config) {
		c.Introspection = &auth.Introspection{URL: as.Issuer + "/introspect", ClientID: as.ClientID, ClientSecret: as.ClientSecret}
	}
	v := newVerifier(t, as.Issuer, cfg)

	active := as.Opaque(t, authtest.TokenRequest{Subject: "bob", Scope: "tools:read", Resource: []string{resource}, Claims: map[string]any{"dept": "sales"}})
	id := mustVerify(t, v, active)
	if id.Subject != "bob" || strings.Join(id.Scopes, " ") != "tools:read" || id.Claims["dept"] != "sales" {
		t.Fatalf("identity %+v", id)
	}
	if _, ok := id.Claims["active"]; ok {
		t.Fatal("the introspection's `active` leaked into the claims")
	}
	n := as.Stats(t).Introspect
	mustVerify(t, v, active)
	if s := as.Stats(t); s.Introspect != n {
		t.Fatalf("a cached active token was introspected again (%d → %d)", n, s.Introspect)
	}

	t.Run("inactive", func(t *testing.T) {
		tok := as.Opaque(t, authtest.TokenRequest{Resource: []string{resource}})
		as.Revoke(t, tok)
		mustRefuse(t, v, tok, auth.CodeInvalidToken, "not active")
		mustRefuse(t, v, "never-issued-token", auth.CodeInvalidToken, "not active")
	})
	t.Run("expired", func(t *testing.T) {
		tok := as.Opaque(t, authtest.TokenRequest{Resource: []string{resource}, ExpiresIn: -60})
		mustRefuse(t, v, tok, auth.CodeInvalidToken, "not active")
	})
	t.Run("another resource", func(t *testing.T) {
		tok := as.Opaque(t, authtest.TokenRequest{Resource: []string{"https://other.example.com"}})
		mustRefuse(t, v, tok, auth.CodeInvalidToken, "not meant for this resource")
	})
	t.Run("wrong issuer", func(t *testing.T) {
		tok := as.Opaque(t, authtest.TokenRequest{Resource: []string{resource}, Claims: map[string]any{"iss": "https://evil.example.com"}})
		mustRefuse(t, v, tok, auth.CodeInvalidToken, "issuer is not accepted")
	})
	t.Run("bad client secret", func(t *testing.T) {
		bad := newVerifier(t, as.Issuer, func(c *auth.Config) {
			c.Introspection = &auth.Introspection{URL: as.Issuer + "/introspect", ClientID: as.ClientID, ClientSecret: "wrong"}
		})
		mustRefuse(t, bad, as.Opaque(t, authtest.TokenRequest{Resource: []string{resource}}), auth.CodeUnavailable, "cannot be checked")
	})
	t.Run("JWTs too when always", func(t *testing.T) {
		always := newVerifier(t, as.Issuer, func(c *auth.Config) {
			cfg(c)
			c.Introspection.Always = true
		})
		before := as.Stats(t)
		mustVerify(t, always, as.Token(t, authtest.TokenRequest{Resource: []string{resource}}))
		after := as.Stats(t)
		if after.Introspect != before.Introspect+1 || after.JWKS != before.JWKS {
			t.Fatalf("stats %+v → %+v; want one introspection and no key set fetch", before, after)
		}
	})
}

func TestRealServerMiddleware(t *testing.T) {
	t.Parallel()
	as := authtest.Start(t)
	v := newVerifier(t, as.Issuer)
	h := v.Middleware(echoIdentity)
	token := as.Token(t, authtest.TokenRequest{ClientID: "cli", Resource: []string{resource}})
	for _, c := range []struct {
		auth   string
		status int
	}{
		{"Bearer " + token, 200},
		{"Bearer " + as.Token(t, authtest.TokenRequest{Resource: []string{"https://other.example.com"}}), 401},
		{"", 401},
	} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		h.ServeHTTP(rec, req)
		if rec.Code != c.status {
			t.Fatalf("status %d, want %d: %s", rec.Code, c.status, rec.Body)
		}
		if c.status == 200 && rec.Body.String() != "cli header=" {
			t.Fatalf("body %q", rec.Body)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/mcp?access_token="+token, nil))
	if rec.Code != http.StatusBadRequest {
		t.Fatalf("token in the query: status %d", rec.Code)
	}
}
