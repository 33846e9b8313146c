package auth_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/testkit/authtest"
)

// TestKeepToken: the verified token reaches the handler's context only
// when the configuration keeps it (for a token exchange), and never as a
// header.
func TestKeepToken(t *testing.T) {
	is := authtest.NewIssuer(t)
	token := is.Sign(t, is.Key("rsa-1"), is.Claims(resource))
	for _, keep := range []bool{false, true} {
		v := newVerifier(t, is.URL, func(c *auth.Config) { c.KeepToken = keep })
		srv := httptest.NewServer(v.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.WriteString(w, auth.TokenFromContext(r.Context())+"|"+r.Header.Get("Authorization"))
		})))
		req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		srv.Close()
		want := "|"
		if keep {
			want = token + "|"
		}
		if string(body) != want {
			t.Errorf("KeepToken %v: the handler saw %q, want %q", keep, body, want)
		}
	}
}
