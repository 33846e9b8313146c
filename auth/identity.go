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
	// Scopes are the granted scopes: `scope` (space-separated) or `scp`
	// (an array or a space-separated string).
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

// scopesOf reads the granted scopes from claims: `scope` as a
// space-separated string (RFC 8693 §4.2, RFC 9068), else `scp` as an array
// or a string (a common variant).
func scopesOf(claims map[string]any) []string {
	if s, ok := claims["scope"].(string); ok {
		return strings.Fields(s)
	}
	switch scp := claims["scp"].(type) {
	case string:
		return strings.Fields(scp)
	case []any:
		out := make([]string, 0, len(scp))
		for _, v := range scp {
			if s, ok := v.(string); ok && s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
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
