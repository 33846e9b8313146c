package auth_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/testkit/authtest"
)

// Run with: go test -run='^$' -bench=. -benchmem ./auth
//
// The key set is fetched before the timer starts. "cached" is the steady
// state (the same token again, answered from the verified-token cache);
// "uncached" verifies the signature and claims every time.

func BenchmarkVerifyRS256(b *testing.B) { benchVerify(b, "rsa-1") }
func BenchmarkVerifyES256(b *testing.B) { benchVerify(b, "ec-1") }

func benchVerify(b *testing.B, kid string) {
	is := authtest.NewIssuer(b)
	for _, mode := range []struct {
		name string
		size int
	}{{"cached", 0}, {"uncached", -1}} {
		b.Run(mode.name, func(b *testing.B) {
			v := newVerifier(b, is.URL, func(c *auth.Config) { c.TokenCacheSize = mode.size })
			token := is.Sign(b, is.Key(kid), is.Claims(resource, "tools:read"))
			ctx := context.Background()
			mustVerify(b, v, token)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := v.Verify(ctx, token); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkMiddleware(b *testing.B) {
	is := authtest.NewIssuer(b)
	trivial := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	token := is.Sign(b, is.Key("rsa-1"), is.Claims(resource, "tools:read"))
	run := func(b *testing.B, h http.Handler) {
		req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusNoContent {
			b.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			h.ServeHTTP(httptest.NewRecorder(), req)
		}
	}
	b.Run("bare", func(b *testing.B) { run(b, trivial) })
	for _, mode := range []struct {
		name string
		size int
	}{{"auth-cached", 0}, {"auth-uncached", -1}} {
		b.Run(mode.name, func(b *testing.B) {
			v := newVerifier(b, is.URL, func(c *auth.Config) { c.TokenCacheSize = mode.size })
			run(b, v.Middleware(trivial))
		})
	}
}
