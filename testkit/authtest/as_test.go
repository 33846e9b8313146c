package authtest_test

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/golang-jwt/jwt/v5"
	"github.com/mcpdecl/mcpdecl/testkit/authtest"
)

// TestAuthorizationCodeWithPKCE walks the flow an MCP client takes with
// the server: discovery, dynamic client registration, authorization with
// PKCE and a resource indicator, and the code exchange; the token's
// audience is the resource and its scope the one asked for.
func TestAuthorizationCodeWithPKCE(t *testing.T) {
	as := authtest.StartWith(t, authtest.Options{Claims: map[string]any{"email": "alice@example.com"}})
	const resource = "http://127.0.0.1:9999/mcp"

	doc := getJSON(t, as.Issuer+"/.well-known/oauth-authorization-server")
	meta := struct{ Issuer, AuthorizationEndpoint, TokenEndpoint, RegistrationEndpoint string }{
		str(doc["issuer"]), str(doc["authorization_endpoint"]), str(doc["token_endpoint"]), str(doc["registration_endpoint"]),
	}
	if meta.Issuer != as.Issuer || meta.RegistrationEndpoint == "" || meta.TokenEndpoint == "" || !strings.Contains(fmt.Sprint(doc["code_challenge_methods_supported"]), "S256") ||
		doc["authorization_response_iss_parameter_supported"] != true {
		t.Fatalf("metadata %v", doc)
	}

	reg := postJSON(t, meta.RegistrationEndpoint, map[string]any{
		"client_name":   "test client",
		"redirect_uris": []string{"http://127.0.0.1:1/callback"},
	}, http.StatusCreated)
	clientID, _ := reg["client_id"].(string)
	if clientID == "" || reg["token_endpoint_auth_method"] != "none" {
		t.Fatalf("registration %v", reg)
	}

	verifier := randomString(t)
	sum := sha256.Sum256([]byte(verifier))
	q := url.Values{
		"response_type":         {"code"},
		"client_id":             {clientID},
		"redirect_uri":          {"http://127.0.0.1:1/callback"},
		"scope":                 {"tools:read tools:call"},
		"state":                 {"xyz"},
		"resource":              {resource},
		"code_challenge":        {base64.RawURLEncoding.EncodeToString(sum[:])},
		"code_challenge_method": {"S256"},
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.Get(meta.AuthorizationEndpoint + "?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil || loc.Query().Get("state") != "xyz" || loc.Query().Get("iss") != as.Issuer {
		t.Fatalf("authorize: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	code := loc.Query().Get("code")

	exchange := func(verifier string) (*http.Response, map[string]any) {
		form := url.Values{
			"grant_type": {"authorization_code"}, "code": {code}, "client_id": {clientID},
			"redirect_uri": {"http://127.0.0.1:1/callback"}, "code_verifier": {verifier}, "resource": {resource},
		}
		resp, err := http.PostForm(meta.TokenEndpoint, form)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		return resp, out
	}
	if resp, _ := exchange(randomString(t)); resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("a wrong code_verifier got status %d", resp.StatusCode)
	}
	// The failed exchange used the code up, as a real server does: get another.
	resp, err = noRedirect.Get(meta.AuthorizationEndpoint + "?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, _ = url.Parse(resp.Header.Get("Location"))
	code = loc.Query().Get("code")
	resp, tok := exchange(verifier)
	if resp.StatusCode != http.StatusOK || tok["scope"] != "tools:read tools:call" {
		t.Fatalf("token: %d %v", resp.StatusCode, tok)
	}
	claims := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(tok["access_token"].(string), claims); err != nil {
		t.Fatal(err)
	}
	if claims["aud"] != resource || claims["scope"] != "tools:read tools:call" || claims["client_id"] != clientID ||
		claims["iss"] != as.Issuer || claims["email"] != "alice@example.com" || claims["sub"] == nil {
		t.Fatalf("access token claims %v", claims)
	}
	if s := as.Stats(t); s.Register != 1 || s.Token != 2 {
		t.Fatalf("stats %+v", s)
	}
}

func getJSON(t *testing.T, u string) map[string]any {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var doc map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func postJSON(t *testing.T, u string, body any, status int) map[string]any {
	t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(u, "application/json", strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status {
		t.Fatalf("POST %s: %d %s", u, resp.StatusCode, data)
	}
	var out map[string]any
	_ = json.Unmarshal(data, &out)
	return out
}

func randomString(t *testing.T) string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// TestTokenExchange: the RFC 8693 grant exchanges an access token the
// server issued for one with the requested audience, the same subject
// and claims, and the exchanging client as the actor; a token it did not
// sign, a wrong client and an audience it does not serve are refused with
// the RFC's error codes.
func TestTokenExchange(t *testing.T) {
	as := authtest.StartWith(t, authtest.Options{ExchangeAudiences: []string{"orders-api"}})
	subject := as.Token(t, authtest.TokenRequest{Subject: "alice", Scope: "orders:read", Resource: []string{"http://127.0.0.1:9999/mcp"}, Claims: map[string]any{"tenant": "acme"}})
	exchanged := as.Exchange(t, subject, "orders-api")
	claims := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(exchanged, claims); err != nil {
		t.Fatal(err)
	}
	act, _ := claims["act"].(map[string]any)
	if claims["sub"] != "alice" || claims["aud"] != "orders-api" || claims["tenant"] != "acme" || claims["iss"] != as.Issuer ||
		act["sub"] != as.ExchangeClientID || claims["client_id"] != as.ExchangeClientID {
		t.Errorf("exchanged token claims %v", claims)
	}
	refusal := func(subjectToken, audience, client, secret string) (int, string) {
		form := url.Values{
			"grant_type":         {"urn:ietf:params:oauth:grant-type:token-exchange"},
			"subject_token":      {subjectToken},
			"subject_token_type": {"urn:ietf:params:oauth:token-type:access_token"},
			"audience":           {audience},
		}
		req, _ := http.NewRequest(http.MethodPost, as.Issuer+"/token", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.SetBasicAuth(client, secret)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body struct{ Error string }
		_ = json.NewDecoder(resp.Body).Decode(&body)
		return resp.StatusCode, body.Error
	}
	forged := strings.Join(strings.Split(subject, ".")[:2], ".") + ".AAAA"
	for _, c := range []struct {
		name, token, audience, client, secret string
		status                                int
		code                                  string
	}{
		{"forged subject", forged, "orders-api", as.ExchangeClientID, as.ExchangeClientSecret, 400, "invalid_grant"},
		{"wrong secret", subject, "orders-api", as.ExchangeClientID, "nope", 401, "invalid_client"},
		{"other audience", subject, "billing-api", as.ExchangeClientID, as.ExchangeClientSecret, 400, "invalid_target"},
	} {
		if status, code := refusal(c.token, c.audience, c.client, c.secret); status != c.status || code != c.code {
			t.Errorf("%s: %d %s, want %d %s", c.name, status, code, c.status, c.code)
		}
	}
	if n := as.Stats(t).Exchange; n != 4 {
		t.Errorf("%d exchanges counted, want 4", n)
	}
	// The other grants still reach the mock through the same endpoint.
	if tok := as.Token(t, authtest.TokenRequest{Subject: "bob"}); tok == "" {
		t.Error("client credentials grant broken")
	}
}
