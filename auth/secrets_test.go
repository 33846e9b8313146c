package auth_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/testkit/authtest"
)

// TestNoTokenInErrorsLogsOrIdentity runs every kind of refusal with debug
// logging on and checks that no token, no part of one, no static token
// value and no client secret shows up in an error, a log line, a response
// or an identity.
func TestNoTokenInErrorsLogsOrIdentity(t *testing.T) {
	is := authtest.NewIssuer(t)
	logs := &logBuffer{}
	const staticValue = "static-secret-value-0123456789"
	const clientSecret = "introspection-client-secret-42"
	intro := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down for maintenance: "+r.FormValue("token"), http.StatusBadGateway)
	}))
	t.Cleanup(intro.Close)
	v := newVerifier(t, is.URL, func(c *auth.Config) {
		c.Logger = logs.logger()
		c.Static = []auth.StaticToken{{Name: "ci", Token: staticValue}}
		c.Introspection = &auth.Introspection{URL: intro.URL + "/introspect?secret=" + clientSecret, ClientID: "rs", ClientSecret: clientSecret}
	})
	k := is.Key("rsa-1")
	forged := authtest.NewKey(t, "RS256", "forged-kid")
	now := time.Now()
	claims := func(edit func(jwt.MapClaims)) jwt.MapClaims {
		c := is.Claims(resource)
		edit(c)
		return c
	}
	tokens := []string{
		is.Sign(t, k, claims(func(c jwt.MapClaims) { c["exp"] = now.Add(-time.Hour).Unix() })),
		is.Sign(t, k, claims(func(c jwt.MapClaims) { c["aud"] = "https://other.example.com" })),
		is.Sign(t, k, claims(func(c jwt.MapClaims) { c["iss"] = "https://evil.example.com" })),
		is.Sign(t, forged, is.Claims(resource)),
		authtest.SignWith(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, "", is.Claims(resource)),
		tamper(is.Sign(t, k, is.Claims(resource))),
		"opaque-token-that-the-introspection-endpoint-fails-on",
		"eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLWJ5dGVz",
		staticValue + "x",
	}
	var seen strings.Builder
	mw := v.Middleware(echoIdentity)
	for _, tok := range tokens {
		_, err := v.Verify(context.Background(), tok)
		if err == nil {
			t.Fatalf("token accepted: it was meant to be refused")
		}
		fmt.Fprintln(&seen, err.Error())
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		mw.ServeHTTP(rec, req)
		fmt.Fprintln(&seen, rec.Header(), rec.Body.String())
	}
	id := mustVerify(t, v, staticValue)
	fmt.Fprintf(&seen, "%+v\n", *id)
	id = mustVerify(t, v, is.Sign(t, k, is.Claims(resource)))
	fmt.Fprintf(&seen, "%+v\n", *id)

	all := seen.String() + logs.String()
	if !strings.Contains(logs.String(), "reason=") {
		t.Fatalf("no debug reasons were logged; the check below would prove nothing:\n%s", logs)
	}
	secrets := []string{staticValue, clientSecret}
	for _, tok := range tokens {
		secrets = append(secrets, tok)
		for _, part := range strings.Split(tok, ".") {
			if len(part) >= 12 {
				secrets = append(secrets, part)
			}
		}
	}
	for _, s := range secrets {
		if strings.Contains(all, s) {
			t.Errorf("%q appears in an error, log line, response or identity", s)
		}
	}
	if t.Failed() {
		t.Logf("everything seen:\n%s", all)
	}
}
