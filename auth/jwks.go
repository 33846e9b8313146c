package auth

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/MicahParks/jwkset"
)

// maxKeys bounds how many keys of one key set are kept.
const maxKeys = 64

// retryUnloaded is the least time between two attempts to fetch a key set
// that has never been fetched (when KeyRefreshInterval is longer).
const retryUnloaded = 5 * time.Second

// publicKey is one verification key of a key set.
type publicKey struct {
	kid string
	alg string // the JWK's "alg", "" when it names none
	key any    // *rsa.PublicKey, *ecdsa.PublicKey or ed25519.PublicKey
}

// keySet is the cached JSON Web Key Set of one issuer (or of the
// configured JWKS URL). It is fetched on first use, at most once at a time
// however many requests wait for it, again when it is older than the
// cache TTL (in the background, the old keys serving meanwhile), and when a
// token names an unknown key id — but then at most once per refresh
// interval, so forged key ids cannot make it hammer the authorization
// server.
type keySet struct {
	v      *Verifier
	issuer string // discovery starts here when jwksURL is not configured

	mu        sync.Mutex
	jwksURL   string // configured, or discovered
	keys      []publicKey
	fetchedAt time.Time // last successful fetch
	triedAt   time.Time // last fetch started
	inflight  *fetchCall
}

// fetchCall is a running fetch; done closes when it ends (its outcome is
// read from the keySet).
type fetchCall struct{ done chan struct{} }

// lookup returns the keys a token with this kid may be verified with.
func (ks *keySet) lookup(ctx context.Context, kid string) ([]publicKey, *Error) {
	now := time.Now()
	ks.mu.Lock()
	found := matchKeys(ks.keys, kid)
	stale := now.Sub(ks.fetchedAt) >= ks.v.keyTTL
	interval := ks.v.keyRefresh
	if ks.fetchedAt.IsZero() && interval > retryUnloaded {
		// No key yet, so nothing works: try again sooner (as the 503's
		// Retry-After says) — an authorization server that is down gets
		// one request per this interval, not one per token.
		interval = retryUnloaded
	}
	mayFetch := ks.inflight != nil || now.Sub(ks.triedAt) >= interval
	if len(found) > 0 {
		if stale && mayFetch {
			ks.startFetchLocked()
		}
		ks.mu.Unlock()
		return found, nil
	}
	if !mayFetch {
		loaded := !ks.fetchedAt.IsZero()
		ks.mu.Unlock()
		if !loaded {
			return nil, unavailable("the authorization server's keys cannot be fetched; try again later")
		}
		ks.v.debug("unknown key id; refresh rate-limited")
		return nil, invalidToken("the token is signed with an unknown key")
	}
	call := ks.startFetchLocked()
	ks.mu.Unlock()

	select {
	case <-call.done:
	case <-ctx.Done():
		return nil, unavailable("the request ended while the authorization server's keys were fetched")
	}
	ks.mu.Lock()
	found = matchKeys(ks.keys, kid)
	loaded := !ks.fetchedAt.IsZero()
	ks.mu.Unlock()
	switch {
	case len(found) > 0:
		return found, nil
	case !loaded:
		return nil, unavailable("the authorization server's keys cannot be fetched; try again later")
	}
	ks.v.debug("unknown key id after refreshing the key set")
	return nil, invalidToken("the token is signed with an unknown key")
}

// startFetchLocked starts a fetch unless one is running, and returns it.
// The fetch runs on the verifier's own context, not the request's: a
// client that goes away must not fail the others waiting for the keys.
func (ks *keySet) startFetchLocked() *fetchCall {
	if ks.inflight != nil {
		return ks.inflight
	}
	call := &fetchCall{done: make(chan struct{})}
	ks.inflight = call
	ks.triedAt = time.Now()
	go func() {
		keys, jwksURL, err := ks.fetch(ks.v.ctx)
		ks.mu.Lock()
		if err == nil {
			ks.keys, ks.jwksURL, ks.fetchedAt = keys, jwksURL, time.Now()
		} else {
			ks.v.warn("cannot fetch the authorization server's keys", "issuer", ks.issuer, "error", err.Error())
			if ks.issuer != "" {
				ks.jwksURL = "" // discovered, so discover again: the key set may have moved
			}
		}
		ks.inflight = nil
		ks.mu.Unlock()
		close(call.done)
	}()
	return call
}

// fetch discovers the key set URL when needed and reads the key set.
func (ks *keySet) fetch(ctx context.Context) ([]publicKey, string, error) {
	ks.mu.Lock()
	jwksURL := ks.jwksURL
	ks.mu.Unlock()
	if jwksURL == "" {
		var err error
		if jwksURL, err = ks.v.discoverJWKS(ctx, ks.issuer); err != nil {
			return nil, "", err
		}
	}
	var doc struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := ks.v.getJSON(ctx, jwksURL, &doc); err != nil {
		return nil, jwksURL, err
	}
	keys := ks.v.parseKeys(doc.Keys)
	if len(keys) == 0 {
		return nil, jwksURL, fmt.Errorf("the key set at %s holds no usable signature key", jwksURL)
	}
	return keys, jwksURL, nil
}

// parseKeys keeps the public signature keys of a key set, skipping (with a
// debug line) any it cannot use, so that one odd key does not hide the
// others.
func (v *Verifier) parseKeys(raw []json.RawMessage) []publicKey {
	var keys []publicKey
	for _, r := range raw {
		var m jwkset.JWKMarshal
		if err := json.Unmarshal(r, &m); err != nil {
			v.debug("skipping a malformed key of the key set")
			continue
		}
		if (m.USE != "" && m.USE != jwkset.UseSig) || m.KTY == jwkset.KtyOct {
			continue
		}
		jwk, err := jwkset.NewJWKFromMarshal(m, jwkset.JWKMarshalOptions{}, jwkset.JWKValidateOptions{})
		if err != nil {
			v.debug("skipping a key of the key set that does not parse", "kid", m.KID)
			continue
		}
		switch jwk.Key().(type) {
		case *rsa.PublicKey, *ecdsa.PublicKey, ed25519.PublicKey:
			keys = append(keys, publicKey{kid: m.KID, alg: string(m.ALG), key: jwk.Key()})
		}
		if len(keys) == maxKeys {
			break
		}
	}
	return keys
}

// matchKeys returns the keys with this kid; a token without a kid may be
// verified with any key (the algorithm check narrows them down).
func matchKeys(keys []publicKey, kid string) []publicKey {
	if kid == "" {
		return keys
	}
	for _, k := range keys {
		if k.kid == kid {
			return []publicKey{k}
		}
	}
	return nil
}

// fits tells whether a key may verify a token signed with alg: the JWK's
// own "alg", when it has one, must be that algorithm, and the key type
// (and curve) must be the one the algorithm is defined for — so an RSA key
// can never be used as an HMAC secret or for another family's signature.
func (k publicKey) fits(alg string) bool {
	if k.alg != "" && k.alg != alg {
		return false
	}
	switch key := k.key.(type) {
	case *rsa.PublicKey:
		switch alg {
		case "RS256", "RS384", "RS512", "PS256", "PS384", "PS512":
			return true
		}
	case *ecdsa.PublicKey:
		switch alg {
		case "ES256":
			return key.Curve == elliptic.P256()
		case "ES384":
			return key.Curve == elliptic.P384()
		case "ES512":
			return key.Curve == elliptic.P521()
		}
	case ed25519.PublicKey:
		return alg == "EdDSA"
	}
	return false
}
