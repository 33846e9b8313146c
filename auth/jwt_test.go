package auth_test

import (
	"crypto/x509"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/testkit/authtest"
)

func TestVerifyAcceptsValidTokens(t *testing.T) {
	is := authtest.NewIssuer(t)
	v := newVerifier(t, is.URL)
	for _, kid := range []string{"rsa-1", "ec-1"} {
		t.Run(kid, func(t *testing.T) {
			claims := is.Claims(resource, "tools:read", "tools:call")
			claims["role"] = "admin"
			id := mustVerify(t, v, is.Sign(t, is.Key(kid), claims))
			if id.Subject != "alice" || strings.Join(id.Scopes, " ") != "tools:read tools:call" || id.Claims["role"] != "admin" {
				t.Fatalf("identity = %+v", id)
			}
			if m := id.Missing([]string{"tools:read", "admin"}); len(m) != 1 || m[0] != "admin" {
				t.Fatalf("Missing = %v, want [admin]", m)
			}
			if m := id.Missing([]string{"tools:call"}); m != nil {
				t.Fatalf("Missing = %v, want nil", m)
			}
		})
	}
}

func TestVerifyAudienceForms(t *testing.T) {
	is := authtest.NewIssuer(t)
	v := newVerifier(t, is.URL)
	key := is.Key("rsa-1")
	accept := []any{
		resource,
		"HTTPS://MCP.Example.COM:443/mcp/",
		[]any{"https://other.example.com", resource},
	}
	for _, aud := range accept {
		c := is.Claims(resource)
		c["aud"] = aud
		mustVerify(t, v, is.Sign(t, key, c))
	}
	refuse := []any{
		"https://other.example.com/mcp",
		"https://mcp.example.com/mcp/other",
		"https://mcp.example.com:8443/mcp",
		"http://mcp.example.com/mcp",
		[]any{"https://other.example.com"},
		[]any{},
		nil,
	}
	for _, aud := range refuse {
		c := is.Claims(resource)
		if aud == nil {
			delete(c, "aud")
		} else {
			c["aud"] = aud
		}
		mustRefuse(t, v, is.Sign(t, key, c), auth.CodeInvalidToken, "not meant for this resource")
	}
}

func TestVerifyScopeForms(t *testing.T) {
	is := authtest.NewIssuer(t)
	v := newVerifier(t, is.URL)
	c := is.Claims(resource)
	c["scp"] = []any{"a", "b"}
	if id := mustVerify(t, v, is.Sign(t, is.Key("ec-1"), c)); strings.Join(id.Scopes, ",") != "a,b" {
		t.Fatalf("scp array → %v", id.Scopes)
	}
	c = is.Claims(resource)
	c["scope"] = []any{"x", "y"}
	c["scp"] = "ignored"
	if id := mustVerify(t, v, is.Sign(t, is.Key("ec-1"), c)); strings.Join(id.Scopes, ",") != "x,y" {
		t.Fatalf("scope array → %v", id.Scopes)
	}
	c = is.Claims(resource)
	delete(c, "sub")
	c["client_id"] = "robot"
	if id := mustVerify(t, v, is.Sign(t, is.Key("ec-1"), c)); id.Subject != "robot" || id.Scopes != nil {
		t.Fatalf("client_id subject → %+v", id)
	}
}

func TestVerifyRefusesBadTokens(t *testing.T) {
	is := authtest.NewIssuer(t)
	v := newVerifier(t, is.URL, func(c *auth.Config) { c.Leeway = 30 * time.Second })
	rsa1, ec1 := is.Key("rsa-1"), is.Key("ec-1")
	now := time.Now()
	with := func(edit func(jwt.MapClaims)) jwt.MapClaims {
		c := is.Claims(resource)
		edit(c)
		return c
	}
	rsaPub, err := x509.MarshalPKIXPublicKey(rsa1.Private.Public())
	if err != nil {
		t.Fatal(err)
	}
	impostor := authtest.NewKey(t, "RS256", "rsa-1") // same kid, other key
	cases := []struct {
		name, token, want string
	}{
		{"expired", is.Sign(t, rsa1, with(func(c jwt.MapClaims) { c["exp"] = now.Add(-time.Minute).Unix() })), "expired"},
		{"expired beyond leeway only", is.Sign(t, ec1, with(func(c jwt.MapClaims) { c["exp"] = now.Add(-31 * time.Second).Unix() })), "expired"},
		{"no exp", is.Sign(t, rsa1, with(func(c jwt.MapClaims) { delete(c, "exp") })), "no expiry"},
		{"nbf in the future", is.Sign(t, rsa1, with(func(c jwt.MapClaims) { c["nbf"] = now.Add(time.Hour).Unix() })), "not valid yet"},
		{"iat in the future", is.Sign(t, rsa1, with(func(c jwt.MapClaims) { c["iat"] = now.Add(time.Hour).Unix() })), "issued in the future"},
		{"wrong issuer", is.Sign(t, rsa1, with(func(c jwt.MapClaims) { c["iss"] = "https://evil.example.com" })), "issuer is not accepted"},
		{"no issuer", is.Sign(t, rsa1, with(func(c jwt.MapClaims) { delete(c, "iss") })), "issuer is not accepted"},
		{"wrong audience", is.Sign(t, rsa1, with(func(c jwt.MapClaims) { c["aud"] = "https://other.example.com/mcp" })), "not meant for this resource"},
		{"alg none", authtest.SignWith(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, "rsa-1", is.Claims(resource)), "algorithm is not accepted"},
		{"HS256 keyed with the RSA public key", authtest.SignWith(t, jwt.SigningMethodHS256, rsaPub, "rsa-1", is.Claims(resource)), "algorithm is not accepted"},
		{"PS256 not in the allowed list", authtest.SignWith(t, jwt.SigningMethodPS256, rsa1.Private, "rsa-1", is.Claims(resource)), "algorithm is not accepted"},
		{"ES256 header on the RSA key's kid", authtest.SignWith(t, jwt.SigningMethodES256, ec1.Private, "rsa-1", is.Claims(resource)), "does not match its key"},
		{"RS256 header on the EC key's kid", authtest.SignWith(t, jwt.SigningMethodRS256, rsa1.Private, "ec-1", is.Claims(resource)), "does not match its key"},
		{"signed by another key with a known kid", is.Sign(t, impostor, is.Claims(resource)), "signature is invalid"},
		{"critical header extension", withHeader(t, rsa1, "crit", []string{"exp"}, is.Claims(resource)), "critical header"},
		{"tampered payload", tamper(is.Sign(t, rsa1, is.Claims(resource))), "signature is invalid"},
		{"malformed", "eyJhbGciOiJSUzI1NiJ9.bm90IGpzb24.c2ln", "malformed"},
		{"not a JWT", "just-an-opaque-token", "not accepted by this server"},
		{"too long", strings.Repeat("a", 17<<10), "too long"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mustRefuse(t, v, c.token, auth.CodeInvalidToken, c.want)
		})
	}
	mustRefuse(t, v, "", auth.CodeInvalidRequest, "no bearer token")
}

// withHeader signs claims with k and one more header parameter.
func withHeader(t *testing.T, k *authtest.Key, name string, value any, claims jwt.MapClaims) string {
	tok := jwt.NewWithClaims(jwt.GetSigningMethod(k.Alg), claims)
	tok.Header["kid"] = k.Kid
	tok.Header[name] = value
	s, err := tok.SignedString(k.Private)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// tamper changes the payload of a JWT and keeps its signature.
func tamper(token string) string {
	parts := strings.Split(token, ".")
	c := jwt.MapClaims{}
	_, _, _ = jwt.NewParser().ParseUnverified(token, c)
	c["sub"] = "mallory"
	unsigned, _ := jwt.NewWithClaims(jwt.SigningMethodNone, c).SigningString()
	return parts[0] + "." + strings.Split(unsigned, ".")[1] + "." + parts[2]
}

func TestVerifyAcceptsConfiguredAlgorithms(t *testing.T) {
	is := authtest.NewIssuer(t)
	ps := authtest.NewKey(t, "PS256", "ps-1")
	ed := authtest.NewKey(t, "EdDSA", "ed-1")
	is.Publish(t, ps)
	is.Publish(t, ed)
	v := newVerifier(t, is.URL, func(c *auth.Config) { c.Algorithms = []string{"PS256", "EdDSA"} })
	mustVerify(t, v, is.Sign(t, ps, is.Claims(resource)))
	mustVerify(t, v, is.Sign(t, ed, is.Claims(resource)))
	mustRefuse(t, v, is.Sign(t, is.Key("rsa-1"), is.Claims(resource)), auth.CodeInvalidToken, "algorithm is not accepted")
}

func TestVerifyTokenWithoutKid(t *testing.T) {
	is := authtest.NewIssuer(t)
	v := newVerifier(t, is.URL)
	k := is.Key("ec-1")
	mustVerify(t, v, authtest.SignWith(t, jwt.SigningMethodES256, k.Private, "", is.Claims(resource)))
}

func TestVerifyIssuersSeparateFromAuthorizationServers(t *testing.T) {
	is := authtest.NewIssuer(t)
	v := newVerifier(t, "https://login.example.com", func(c *auth.Config) {
		c.Issuers = []string{is.URL + "/"} // trailing slash: compared canonically
	})
	mustVerify(t, v, is.Sign(t, is.Key("rsa-1"), is.Claims(resource)))
	c := is.Claims(resource)
	c["iss"] = "https://login.example.com"
	mustRefuse(t, v, is.Sign(t, is.Key("rsa-1"), c), auth.CodeInvalidToken, "issuer is not accepted")
}
