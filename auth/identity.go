package auth

import (
	"context"
	"slices"
	"strings"
)

// Identity is who a verified token speaks for. It never holds the token.
// An Identity may be shared between requests (verified tokens are cached):
// treat it as read-only.
type Identity struct {
	// Subject is the token's `sub` (for a JWT or an introspected token,
	// falling back to `client_id` when there is no `sub`), or the Name of
	// a static token.
	Subject string
	// Scopes are the granted scopes: the `scope` claim, else `scp`, each
	// a space-separated string or an array of strings.
	Scopes []string
	// Claims are the verified claims with JSON types: string, float64, bool,
	// []any, map[string]any.
	Claims map[string]any
}

// Missing returns the scopes of need that the identity was not granted,
// in the order of need, or nil when it has them all.
func (id *Identity) Missing(need []string) []string {
	var missing []string
	for _, s := range need {
		if id == nil || !slices.Contains(id.Scopes, s) {
			missing = append(missing, s)
		}
	}
	return missing
}

type identityKey struct{}

// WithIdentity returns ctx carrying id.
func WithIdentity(ctx context.Context, id *Identity) context.Context {
	return context.WithValue(ctx, identityKey{}, id)
}

// FromContext returns the identity that WithIdentity put in ctx, or nil
// when the request was not authenticated.
func FromContext(ctx context.Context) *Identity {
	id, _ := ctx.Value(identityKey{}).(*Identity)
	return id
}

type tokenKey struct{}

// WithToken returns ctx carrying the verified access token the request's
// Identity was read from. Middleware sets it when Config.KeepToken is set.
func WithToken(ctx context.Context, token string) context.Context {
	return context.WithValue(ctx, tokenKey{}, token)
}

// TokenFromContext returns the verified access token WithToken put in
// ctx, or "" when there is none. It is the caller's credential: pass it
// only to an authorization server, to exchange it (RFC 8693).
func TokenFromContext(ctx context.Context) string {
	t, _ := ctx.Value(tokenKey{}).(string)
	return t
}

// scopesOf reads the granted scopes from claims: `scope`, a
// space-separated string (RFC 9068, RFC 7662), else `scp`; either may also
// be an array of strings, as some servers send them.
func scopesOf(claims map[string]any) []string {
	if s, ok := scopeList(claims["scope"]); ok {
		return s
	}
	s, _ := scopeList(claims["scp"])
	return s
}

func scopeList(v any) ([]string, bool) {
	switch v := v.(type) {
	case string:
		return strings.Fields(v), true
	case []any:
		out := make([]string, 0, len(v))
		for _, x := range v {
			if s, ok := x.(string); ok && s != "" {
				out = append(out, s)
			}
		}
		return out, true
	}
	return nil, false
}

// subjectOf is `sub`, or `client_id` for a token a client got for itself
// (client credentials grants often carry no `sub`).
func subjectOf(claims map[string]any) string {
	if s, ok := claims["sub"].(string); ok && s != "" {
		return s
	}
	s, _ := claims["client_id"].(string)
	return s
}
