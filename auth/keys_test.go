package auth_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/testkit/authtest"
)

func TestLeewayAcceptsSlightlyExpired(t *testing.T) {
	is := authtest.NewIssuer(t)
	v := newVerifier(t, is.URL, func(c *auth.Config) { c.Leeway = 30 * time.Second })
	c := is.Claims(resource)
	c["exp"] = time.Now().Add(-10 * time.Second).Unix()
	c["nbf"] = time.Now().Add(10 * time.Second).Unix()
	mustVerify(t, v, is.Sign(t, is.Key("rsa-1"), c))
}

func TestDefaultLeewayToleratesClockDrift(t *testing.T) {
	is := authtest.NewIssuer(t)
	v := newVerifier(t, is.URL)
	c := is.Claims(resource)
	c["iat"] = time.Now().Add(10 * time.Second).Unix() // the issuer's clock runs ahead
	c["nbf"] = c["iat"]
	mustVerify(t, v, is.Sign(t, is.Key("rsa-1"), c))
	c["iat"] = time.Now().Add(2 * time.Minute).Unix()
	mustRefuse(t, v, is.Sign(t, is.Key("rsa-1"), c), auth.CodeInvalidToken, "issued in the future")
}

func TestKeysAreFetchedOnceAndCached(t *testing.T) {
	is := authtest.NewIssuer(t)
	v := newVerifier(t, is.URL)
	if is.MetadataFetches() != 0 || is.JWKSFetches() != 0 {
		t.Fatal("New fetched something")
	}
	for i := 0; i < 5; i++ {
		mustVerify(t, v, is.Sign(t, is.Key("rsa-1"), is.Claims(resource)))
	}
	if m, j := is.MetadataFetches(), is.JWKSFetches(); m != 1 || j != 1 {
		t.Fatalf("metadata fetched %d times, key set %d times; want 1 and 1", m, j)
	}
}

func TestConcurrentFirstRequestsShareOneFetch(t *testing.T) {
	is := authtest.NewIssuer(t)
	is.SlowJWKS(100 * time.Millisecond)
	v := newVerifier(t, is.URL, func(c *auth.Config) { c.TokenCacheSize = -1 })
	token := is.Sign(t, is.Key("ec-1"), is.Claims(resource))
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := v.Verify(context.Background(), token); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if m, j := is.MetadataFetches(), is.JWKSFetches(); m != 1 || j != 1 {
		t.Fatalf("20 concurrent first requests fetched the metadata %d times and the key set %d times; want 1 and 1", m, j)
	}
}

func TestUnknownKidRefreshesAndRotationWorks(t *testing.T) {
	is := authtest.NewIssuer(t)
	v := newVerifier(t, is.URL, func(c *auth.Config) {
		c.KeyRefreshInterval = time.Nanosecond // no rate limit in this test
		c.TokenCacheSize = -1
	})
	old := is.Key("rsa-1")
	oldToken := is.Sign(t, old, is.Claims(resource))
	mustVerify(t, v, oldToken)

	rotated := authtest.NewKey(t, "RS256", "rsa-2")
	is.Publish(t, rotated)
	is.Unpublish("rsa-1")
	mustVerify(t, v, is.Sign(t, rotated, is.Claims(resource)))
	if j := is.JWKSFetches(); j != 2 {
		t.Fatalf("key set fetched %d times; want 2 (first use, then the new kid)", j)
	}
	// The retired key left the refreshed set: its tokens are refused.
	mustRefuse(t, v, oldToken, auth.CodeInvalidToken, "unknown key")
}

func TestForgedKidFloodIsRateLimited(t *testing.T) {
	is := authtest.NewIssuer(t)
	logs := &logBuffer{}
	v := newVerifier(t, is.URL, func(c *auth.Config) {
		c.KeyRefreshInterval = time.Hour
		c.Logger = logs.logger()
	})
	mustVerify(t, v, is.Sign(t, is.Key("rsa-1"), is.Claims(resource)))
	forger := authtest.NewKey(t, "RS256", "")
	for i := 0; i < 200; i++ {
		forger.Kid = fmt.Sprintf("forged-%d", i)
		mustRefuse(t, v, is.Sign(t, forger, is.Claims(resource)), auth.CodeInvalidToken, "unknown key")
	}
	if j := is.JWKSFetches(); j != 1 {
		t.Fatalf("200 forged kids caused %d key set fetches; want 1 (the first use only)", j)
	}
	// A real new key within the interval waits for the next allowed refresh.
	rotated := authtest.NewKey(t, "RS256", "rsa-2")
	is.Publish(t, rotated)
	mustRefuse(t, v, is.Sign(t, rotated, is.Claims(resource)), auth.CodeInvalidToken, "unknown key")
	if j := is.JWKSFetches(); j != 1 {
		t.Fatalf("key set fetched %d times within the refresh interval; want 1", j)
	}
}

func TestForgedKidBeforeFirstFetchRefreshesOnce(t *testing.T) {
	is := authtest.NewIssuer(t)
	v := newVerifier(t, is.URL)
	forger := authtest.NewKey(t, "ES256", "forged")
	for i := 0; i < 50; i++ {
		mustRefuse(t, v, is.Sign(t, forger, is.Claims(resource)), auth.CodeInvalidToken, "unknown key")
	}
	if j := is.JWKSFetches(); j != 1 {
		t.Fatalf("key set fetched %d times; want 1", j)
	}
	mustVerify(t, v, is.Sign(t, is.Key("ec-1"), is.Claims(resource)))
}

func TestConfiguredJWKSURLSkipsDiscovery(t *testing.T) {
	is := authtest.NewIssuer(t)
	v := newVerifier(t, is.URL, func(c *auth.Config) { c.JWKSURL = is.JWKSURL })
	mustVerify(t, v, is.Sign(t, is.Key("rsa-1"), is.Claims(resource)))
	if m := is.MetadataFetches(); m != 0 {
		t.Fatalf("metadata fetched %d times with a configured JWKS URL", m)
	}
}

func TestUnreachableKeysAreUnavailableNotInvalid(t *testing.T) {
	is := authtest.NewIssuer(t)
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close() // nothing listens there now
	v := newVerifier(t, is.URL, func(c *auth.Config) { c.JWKSURL = down.URL + "/jwks" })
	token := is.Sign(t, is.Key("rsa-1"), is.Claims(resource))
	mustRefuse(t, v, token, auth.CodeUnavailable, "cannot be fetched")
	// Within the refresh interval the failure is not retried.
	mustRefuse(t, v, token, auth.CodeUnavailable, "cannot be fetched")
}

func TestBrokenMetadataIsRefused(t *testing.T) {
	cases := map[string]string{
		"other issuer":     `{"issuer":"https://evil.example.com","jwks_uri":"%s/jwks"}`,
		"no jwks_uri":      `{"issuer":"%s"}`,
		"not JSON":         `<html>`,
		"jwks not a URL":   `{"issuer":"%[1]s","jwks_uri":"file:///etc/passwd"}`,
		"empty key set":    `{"issuer":"%[1]s","jwks_uri":"%[1]s/empty"}`,
		"oversized answer": "",
	}
	for name, doc := range cases {
		t.Run(name, func(t *testing.T) {
			var url string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/.well-known/oauth-authorization-server":
					if doc == "" {
						big := make([]byte, 2<<20)
						_, _ = w.Write(big)
						return
					}
					_, _ = fmt.Fprintf(w, doc, url)
				case "/empty":
					_, _ = w.Write([]byte(`{"keys":[{"kty":"oct","k":"c2VjcmV0"}]}`))
				default:
					http.NotFound(w, r)
				}
			}))
			t.Cleanup(srv.Close)
			url = srv.URL
			logs := &logBuffer{}
			v := newVerifier(t, url, func(c *auth.Config) { c.Logger = logs.logger() })
			c := jwt.MapClaims{"iss": url, "aud": resource, "exp": time.Now().Add(time.Hour).Unix()}
			token := authtest.SignWith(t, jwt.SigningMethodRS256, authtest.NewKey(t, "RS256", "k").Private, "k", c)
			mustRefuse(t, v, token, auth.CodeUnavailable, "cannot be fetched")
			if !strings.Contains(logs.String(), "cannot fetch the authorization server's keys") {
				t.Fatalf("no warning logged:\n%s", logs)
			}
		})
	}
}

func TestStaleKeysServeWhileRefreshing(t *testing.T) {
	is := authtest.NewIssuer(t)
	v := newVerifier(t, is.URL, func(c *auth.Config) {
		c.KeyCacheTTL = time.Nanosecond // always stale
		c.KeyRefreshInterval = time.Nanosecond
		c.TokenCacheSize = -1
	})
	token := is.Sign(t, is.Key("rsa-1"), is.Claims(resource))
	mustVerify(t, v, token)
	is.SlowJWKS(time.Hour) // the refresh hangs: answers must not wait for it
	for i := 0; i < 10; i++ {
		mustVerify(t, v, token)
	}
	// The refresh runs in the background: wait for it to reach the server.
	for i := 0; i < 500 && is.JWKSFetches() < 2; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if j := is.JWKSFetches(); j != 2 {
		t.Fatalf("key set fetched %d times; want 2 (first use, one background refresh)", j)
	}
}

func TestRequestEndsWhileKeysAreFetched(t *testing.T) {
	is := authtest.NewIssuer(t)
	is.SlowJWKS(time.Hour)
	v := newVerifier(t, is.URL)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := v.Verify(ctx, is.Sign(t, is.Key("rsa-1"), is.Claims(resource)))
	if ae, ok := err.(*auth.Error); !ok || ae.Code != auth.CodeUnavailable {
		t.Fatalf("Verify error %v; want %s", err, auth.CodeUnavailable)
	}
}

func TestKeySetThatMovedIsDiscoveredAgain(t *testing.T) {
	var url string
	jwksPath := "/keys-1"
	var mu sync.Mutex
	is := authtest.NewIssuer(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		p := jwksPath
		mu.Unlock()
		switch r.URL.Path {
		case "/.well-known/oauth-authorization-server":
			_, _ = fmt.Fprintf(w, `{"issuer":%q,"jwks_uri":%q}`, url, url+p)
		case p:
			resp, err := http.Get(is.JWKSURL)
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			_, _ = io.Copy(w, resp.Body)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	url = srv.URL
	v := newVerifier(t, url, func(c *auth.Config) {
		c.KeyRefreshInterval = time.Nanosecond
		c.TokenCacheSize = -1
	})
	claims := is.Claims(resource)
	claims["iss"] = url
	mustVerify(t, v, is.Sign(t, is.Key("rsa-1"), claims))

	mu.Lock()
	jwksPath = "/keys-2"
	mu.Unlock()
	is.Publish(t, authtest.NewKey(t, "RS256", "rsa-2"))
	next := is.Sign(t, is.Key("rsa-2"), claims)
	mustRefuse(t, v, next, auth.CodeInvalidToken, "unknown key") // the old URL answers 404: keys kept
	mustVerify(t, v, next)                                       // discovered again
}

func TestClosedVerifierFetchesNothing(t *testing.T) {
	is := authtest.NewIssuer(t)
	v := newVerifier(t, is.URL)
	v.Close()
	mustRefuse(t, v, is.Sign(t, is.Key("rsa-1"), is.Claims(resource)), auth.CodeUnavailable, "cannot be fetched")
	if m, j := is.MetadataFetches(), is.JWKSFetches(); m+j != 0 {
		t.Fatalf("a closed verifier fetched (%d metadata, %d key set)", m, j)
	}
}
