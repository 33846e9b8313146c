package auth

import (
	"context"
	"net/url"
	"time"
)

// introspect asks the RFC 7662 endpoint about an opaque token (the client
// authenticates with HTTP basic) and accepts it only if the answer says
// `active`, names this resource in `aud`, names an accepted issuer in
// `iss` (when the answer has one and issuers are configured), and its
// `exp`/`nbf` allow it now. The answer is cached for CacheTTL, never past
// exp.
func (v *Verifier) introspect(ctx context.Context, token string) (*Identity, time.Time, *Error) {
	in := v.cfg.Introspection
	form := url.Values{"token": {token}, "token_type_hint": {"access_token"}}
	var ans map[string]any
	if err := v.postForm(ctx, in.URL, form, in.ClientID, in.ClientSecret, &ans); err != nil {
		v.warn("introspection failed", "error", err.Error())
		return nil, time.Time{}, unavailable("the token cannot be checked now; try again later")
	}
	now := time.Now()
	if active, _ := ans["active"].(bool); !active {
		v.debug("token refused", "reason", "introspection says inactive")
		return nil, time.Time{}, invalidToken("the token is not active")
	}
	exp, hasExp := unixTime(ans["exp"])
	if hasExp && now.After(exp.Add(v.cfg.Leeway)) {
		v.debug("token refused", "reason", "expired (introspection)")
		return nil, time.Time{}, invalidToken("the token has expired")
	}
	if nbf, ok := unixTime(ans["nbf"]); ok && nbf.After(now.Add(v.cfg.Leeway)) {
		v.debug("token refused", "reason", "nbf in the future (introspection)")
		return nil, time.Time{}, invalidToken("the token is not valid yet (nbf)")
	}
	if iss, ok := ans["iss"].(string); ok && len(v.issuers) > 0 && !v.issuers[canonicalURI(iss)] {
		v.debug("token refused", "reason", "issuer not accepted (introspection)")
		return nil, time.Time{}, invalidToken("the token's issuer is not accepted")
	}
	if !audienceHas(ans["aud"], v.resource) {
		v.debug("token refused", "reason", "audience is not this resource (introspection)")
		return nil, time.Time{}, invalidToken("the token is not meant for this resource (audience)")
	}
	until := now.Add(orDefault(in.CacheTTL, defaultIntrospectTT))
	if hasExp && exp.Before(until) {
		until = exp
	}
	delete(ans, "active")
	return &Identity{Subject: subjectOf(ans), Scopes: scopesOf(ans), Claims: ans}, until, nil
}

// unixTime reads a NumericDate (seconds since the epoch).
func unixTime(v any) (time.Time, bool) {
	f, ok := v.(float64)
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(int64(f), 0), true
}
