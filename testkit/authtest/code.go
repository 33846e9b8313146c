package authtest

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// AuthorizationCode gets an access token the way an MCP client does for a
// user: it registers a public client (RFC 7591), authorizes with PKCE
// (S256) and the resource indicators of req (the server approves at once,
// for the user "johndoe"), and exchanges the code. req.Scope is asked for
// at the authorization endpoint; req.Claims are not used (see SetClaims).
func (as *AS) AuthorizationCode(t testing.TB, req TokenRequest) string {
	t.Helper()
	const redirect = "http://127.0.0.1:1/callback"
	var reg struct {
		ClientID string `json:"client_id"`
	}
	as.postJSON(t, "/register", map[string]any{"client_name": "authtest", "redirect_uris": []string{redirect}}, &reg, http.StatusCreated)

	verifier := randomVerifier(t)
	sum := sha256.Sum256([]byte(verifier))
	q := url.Values{
		"response_type":         {"code"},
		"client_id":             {reg.ClientID},
		"redirect_uri":          {redirect},
		"state":                 {"authtest"},
		"code_challenge":        {base64.RawURLEncoding.EncodeToString(sum[:])},
		"code_challenge_method": {"S256"},
	}
	if req.Scope != "" {
		q.Set("scope", req.Scope)
	}
	for _, r := range req.Resource {
		q.Add("resource", r)
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.Get(as.Issuer + "/authorize?" + q.Encode())
	if err != nil {
		t.Fatalf("authtest: authorize: %v", err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil || loc.Query().Get("code") == "" {
		t.Fatalf("authtest: authorize answered %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}

	form := url.Values{
		"grant_type":    {"authorization_code"},
		"code":          {loc.Query().Get("code")},
		"client_id":     {reg.ClientID},
		"redirect_uri":  {redirect},
		"code_verifier": {verifier},
	}
	for _, r := range req.Resource {
		form.Add("resource", r)
	}
	var out struct {
		AccessToken string `json:"access_token"`
	}
	as.call(t, http.MethodPost, "/token", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()), "", &out, http.StatusOK)
	return out.AccessToken
}

func randomVerifier(t testing.TB) string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}
