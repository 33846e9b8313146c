package auth

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// verifyJWT checks a JWT access token: its algorithm is one of the
// accepted ones, it is signed by a key of its issuer's key set that fits
// that algorithm, `iss` is accepted, `aud` names this resource, `exp` is
// present and not past, and `nbf`/`iat` are not in the future (all times
// with the configured leeway). golang-jwt does the JOSE work and the time
// checks; issuer and audience are compared here, in canonical form.
func (v *Verifier) verifyJWT(ctx context.Context, token string) (*Identity, time.Time, *Error) {
	claims := jwt.MapClaims{}
	var keyErr *Error
	parsed, err := v.parser.ParseWithClaims(token, claims, func(t *jwt.Token) (any, error) {
		// The claims are decoded but not yet trusted: the issuer is
		// checked before any key set is fetched, so a forged `iss` can
		// never make the server fetch from a URL nobody configured.
		iss, _ := claims["iss"].(string)
		if !v.issuers[canonicalURI(iss)] {
			keyErr = invalidToken("the token's issuer is not accepted")
			v.debug("token refused", "reason", "issuer not accepted")
			return nil, keyErr
		}
		if _, ok := t.Header["crit"]; ok {
			// RFC 7515 §4.1.11: extensions the verifier does not
			// understand make the token invalid; this one understands none.
			keyErr = invalidToken("the token uses critical header extensions this server does not support")
			v.debug("token refused", "reason", "crit header")
			return nil, keyErr
		}
		alg := t.Method.Alg()
		kid, _ := t.Header["kid"].(string)
		ks := v.fixedKeys
		if ks == nil {
			ks = v.keySets[canonicalURI(iss)]
		}
		keys, lerr := ks.lookup(ctx, kid)
		if lerr != nil {
			keyErr = lerr
			return nil, lerr
		}
		var set jwt.VerificationKeySet
		for _, k := range keys {
			if k.fits(alg) {
				set.Keys = append(set.Keys, k.key)
			}
		}
		if len(set.Keys) == 0 {
			keyErr = invalidToken("the token's algorithm does not match its key")
			v.debug("token refused", "reason", "algorithm does not fit the key", "alg", alg)
			return nil, keyErr
		}
		if len(set.Keys) == 1 {
			return set.Keys[0], nil
		}
		return set, nil
	})
	if err != nil {
		if keyErr != nil {
			return nil, time.Time{}, keyErr
		}
		return nil, time.Time{}, v.jwtError(parsed, err)
	}
	if !audienceHas(claims["aud"], v.resource) {
		v.debug("token refused", "reason", "audience is not this resource")
		return nil, time.Time{}, invalidToken("the token is not meant for this resource (audience)")
	}
	exp, _ := claims.GetExpirationTime() // required and checked by the parser
	return &Identity{Subject: subjectOf(claims), Scopes: scopesOf(claims), Claims: claims}, exp.Time, nil
}

// jwtError turns golang-jwt's error into a description for the client. It
// never passes the library's text on: that may quote parts of the token.
func (v *Verifier) jwtError(parsed *jwt.Token, err error) *Error {
	reason, desc := "invalid", "the token is invalid"
	switch {
	case errors.Is(err, jwt.ErrTokenMalformed):
		reason, desc = "malformed", "the token is malformed"
	case parsed != nil && parsed.Method != nil && !slices.Contains(v.algorithms, parsed.Method.Alg()):
		reason, desc = "algorithm not accepted", "the token's signing algorithm is not accepted"
	case parsed != nil && parsed.Method == nil:
		reason, desc = "algorithm not accepted", "the token's signing algorithm is not accepted"
	case errors.Is(err, jwt.ErrTokenSignatureInvalid):
		reason, desc = "bad signature", "the token's signature is invalid"
	case errors.Is(err, jwt.ErrTokenRequiredClaimMissing):
		reason, desc = "no exp", "the token has no expiry (exp)"
	case errors.Is(err, jwt.ErrTokenExpired):
		reason, desc = "expired", "the token has expired"
	case errors.Is(err, jwt.ErrTokenNotValidYet):
		reason, desc = "nbf in the future", "the token is not valid yet (nbf)"
	case errors.Is(err, jwt.ErrTokenUsedBeforeIssued):
		reason, desc = "iat in the future", "the token is issued in the future (iat)"
	case errors.Is(err, jwt.ErrTokenInvalidClaims):
		reason, desc = "bad claims", "the token's claims are invalid"
	}
	v.debug("token refused", "reason", reason)
	return invalidToken(desc)
}

// audienceHas tells whether aud (a string or an array of strings) names
// the resource, compared in canonical form (RFC 8707).
func audienceHas(aud any, resource string) bool {
	switch a := aud.(type) {
	case string:
		return canonicalURI(a) == resource
	case []any:
		for _, x := range a {
			if s, ok := x.(string); ok && canonicalURI(s) == resource {
				return true
			}
		}
	}
	return false
}
