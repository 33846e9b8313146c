package auth_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/testkit/authtest"
)

// FuzzVerify feeds arbitrary tokens and Authorization headers to a
// verifier that trusts a real (in-process) issuer: nothing may panic,
// nothing unsigned by the issuer may pass, every error is an *auth.Error
// with an RFC 6750 code, and no long input is ever echoed back.
func FuzzVerify(f *testing.F) {
	is := authtest.NewIssuer(f)
	good := is.Sign(f, is.Key("rsa-1"), is.Claims(resource))
	for _, seed := range []string{
		"", "x", good, good + "x", strings.Replace(good, ".", "..", 1),
		"eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.", "a.b.c", "...", "Bearer x",
		"eyJhbGciOiJSUzI1NiIsImtpZCI6InJzYS0xIn0.e30.AAAA",
		"0123456789abcdef0123456789abcdef",
	} {
		f.Add(seed)
	}
	v := newVerifier(f, is.URL, func(c *auth.Config) { c.TokenCacheSize = -1 })
	mw := v.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	codes := []string{auth.CodeInvalidRequest, auth.CodeInvalidToken, auth.CodeUnavailable}
	f.Fuzz(func(t *testing.T, token string) {
		id, err := v.Verify(context.Background(), token)
		if err == nil {
			if token != good {
				t.Fatalf("accepted a token the issuer never signed (subject %q)", id.Subject)
			}
			return
		}
		var ae *auth.Error
		if !errors.As(err, &ae) || !containsString(codes, ae.Code) {
			t.Fatalf("error %T %v", err, err)
		}
		if len(token) >= 24 && strings.Contains(ae.Description, token) {
			t.Fatalf("the description echoes the token: %q", ae.Description)
		}
		req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		req.Header["Authorization"] = []string{"Bearer " + token}
		rec := httptest.NewRecorder()
		mw.ServeHTTP(rec, req)
		if rec.Code == http.StatusOK {
			t.Fatalf("the middleware let an invalid token through")
		}
		if len(token) >= 24 && (strings.Contains(rec.Body.String(), token) || strings.Contains(rec.Header().Get("WWW-Authenticate"), token)) {
			t.Fatal("the response echoes the token")
		}
	})
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
