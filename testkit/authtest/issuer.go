package authtest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/MicahParks/jwkset"
	"github.com/golang-jwt/jwt/v5"
)

// Issuer is an in-process issuer for unit tests: it serves RFC 8414
// metadata and a JWKS on 127.0.0.1 and signs whatever it is asked to,
// including tokens no real authorization server would mint.
type Issuer struct {
	// URL is the issuer URL (http://127.0.0.1:PORT).
	URL string
	// JWKSURL is where its key set is served.
	JWKSURL string

	mu        sync.Mutex
	published []*Key
	jwks      atomic.Int64
	metadata  atomic.Int64
	delay     atomic.Int64 // nanoseconds each JWKS answer waits
}

// Key is a signing key.
type Key struct {
	Kid     string
	Alg     string
	Private crypto.Signer
}

// NewIssuer starts an issuer that publishes one RS256 key ("rsa-1") and
// one ES256 key ("ec-1"); it stops when the test ends.
func NewIssuer(t testing.TB) *Issuer {
	t.Helper()
	is := &Issuer{}
	srv := httptest.NewServer(http.HandlerFunc(is.serve))
	t.Cleanup(srv.Close)
	is.URL = srv.URL
	is.JWKSURL = srv.URL + "/jwks"
	is.Publish(t, NewKey(t, "RS256", "rsa-1"))
	is.Publish(t, NewKey(t, "ES256", "ec-1"))
	return is
}

// NewKey generates a key for alg (RS*/PS* → RSA 2048, ES256/384/512 → the
// matching curve, EdDSA → Ed25519).
func NewKey(t testing.TB, alg, kid string) *Key {
	t.Helper()
	var (
		priv crypto.Signer
		err  error
	)
	switch alg {
	case "RS256", "RS384", "RS512", "PS256", "PS384", "PS512":
		priv, err = rsa.GenerateKey(rand.Reader, 2048)
	case "ES256":
		priv, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	case "ES384":
		priv, err = ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	case "ES512":
		priv, err = ecdsa.GenerateKey(elliptic.P521(), rand.Reader)
	case "EdDSA":
		_, priv, err = ed25519.GenerateKey(rand.Reader)
	default:
		t.Fatalf("authtest: no key type for %q", alg)
	}
	if err != nil {
		t.Fatal(err)
	}
	return &Key{Kid: kid, Alg: alg, Private: priv}
}

// Publish adds k to the key set.
func (is *Issuer) Publish(t testing.TB, k *Key) {
	t.Helper()
	is.mu.Lock()
	defer is.mu.Unlock()
	is.published = append(is.published, k)
}

// Unpublish removes the key with this kid from the key set.
func (is *Issuer) Unpublish(kid string) {
	is.mu.Lock()
	defer is.mu.Unlock()
	keep := is.published[:0]
	for _, k := range is.published {
		if k.Kid != kid {
			keep = append(keep, k)
		}
	}
	is.published = keep
}

// Key returns the published key with this kid, or nil.
func (is *Issuer) Key(kid string) *Key {
	is.mu.Lock()
	defer is.mu.Unlock()
	for _, k := range is.published {
		if k.Kid == kid {
			return k
		}
	}
	return nil
}

// SlowJWKS makes every JWKS answer wait d, or until its client gives up
// (to hold concurrent fetches open, or hang one).
func (is *Issuer) SlowJWKS(d time.Duration) { is.delay.Store(int64(d)) }

// JWKSFetches and MetadataFetches count the requests served.
func (is *Issuer) JWKSFetches() int     { return int(is.jwks.Load()) }
func (is *Issuer) MetadataFetches() int { return int(is.metadata.Load()) }

// Claims returns valid claims for resource: iss, sub "alice", aud, iat,
// nbf and exp (in an hour), and scope when scopes are given.
func (is *Issuer) Claims(resource string, scopes ...string) jwt.MapClaims {
	now := time.Now()
	c := jwt.MapClaims{
		"iss": is.URL,
		"sub": "alice",
		"aud": resource,
		"iat": now.Unix(),
		"nbf": now.Unix(),
		"exp": now.Add(time.Hour).Unix(),
	}
	if len(scopes) > 0 {
		s := scopes[0]
		for _, x := range scopes[1:] {
			s += " " + x
		}
		c["scope"] = s
	}
	return c
}

// Sign signs claims with k (its Alg, its Kid in the header).
func (is *Issuer) Sign(t testing.TB, k *Key, claims jwt.MapClaims) string {
	t.Helper()
	return SignWith(t, jwt.GetSigningMethod(k.Alg), k.Private, k.Kid, claims)
}

// SignWith signs claims with any method and key — jwt.SigningMethodNone
// with jwt.UnsafeAllowNoneSignatureType, or HS256 with some bytes — for
// tokens a verifier must refuse. An empty kid leaves it out.
func SignWith(t testing.TB, method jwt.SigningMethod, key any, kid string, claims jwt.MapClaims) string {
	t.Helper()
	tok := jwt.NewWithClaims(method, claims)
	if kid != "" {
		tok.Header["kid"] = kid
	}
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatalf("authtest: signing: %v", err)
	}
	return s
}

func (is *Issuer) serve(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/.well-known/oauth-authorization-server":
		is.metadata.Add(1)
		writeJSON(w, map[string]any{
			"issuer":                   is.URL,
			"jwks_uri":                 is.JWKSURL,
			"token_endpoint":           is.URL + "/token",
			"response_types_supported": []string{"code"},
		})
	case "/jwks":
		is.jwks.Add(1)
		if d := time.Duration(is.delay.Load()); d > 0 {
			select {
			case <-time.After(d):
			case <-r.Context().Done(): // the client gave up (or the test ended)
				return
			}
		}
		writeJSON(w, is.keySet())
	default:
		http.NotFound(w, r)
	}
}

func (is *Issuer) keySet() jwkset.JWKSMarshal {
	is.mu.Lock()
	defer is.mu.Unlock()
	var set jwkset.JWKSMarshal
	for _, k := range is.published {
		jwk, err := jwkset.NewJWKFromKey(k.Private.Public(), jwkset.JWKOptions{
			Metadata: jwkset.JWKMetadataOptions{KID: k.Kid, ALG: jwkset.ALG(k.Alg), USE: jwkset.UseSig},
		})
		if err != nil {
			panic(err) // keys made by NewKey always marshal
		}
		set.Keys = append(set.Keys, jwk.Marshal())
	}
	return set
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
