// temporary: a stand-in for the auth package so that the rest of the
// tree compiles and its tests run. It accepts static tokens only (no JWT,
// no JWKS, no introspection) and is replaced by the real package.
package auth

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Config configures a Verifier.
type Config struct {
	Resource                            string
	AuthorizationServers                []string
	Issuers                             []string
	JWKSURL                             string
	Algorithms                          []string
	Leeway                              time.Duration
	ScopesSupported                     []string
	Introspection                       *Introspection
	Static                              []StaticToken
	ResourceName, ResourceDocumentation string
	HTTPClient                          *http.Client
	Logger                              *slog.Logger
}

// Introspection configures RFC 7662 token introspection.
type Introspection struct {
	URL, ClientID, ClientSecret string
	CacheTTL                    time.Duration
}

// StaticToken is a fixed bearer token.
type StaticToken struct {
	Name, Token string
	Scopes      []string
	Claims      map[string]any
}

// Identity is who a verified token speaks for.
type Identity struct {
	Subject string
	Scopes  []string
	Claims  map[string]any
}

// Missing lists the scopes of need the identity lacks.
func (id *Identity) Missing(need []string) []string {
	var out []string
	for _, s := range need {
		if id == nil || !slices.Contains(id.Scopes, s) {
			out = append(out, s)
		}
	}
	return out
}

// Error is an OAuth error.
type Error struct{ Code, Description string }

func (e *Error) Error() string { return e.Code + ": " + e.Description }

// Verifier checks bearer tokens.
type Verifier struct{ cfg *Config }

// New returns a Verifier.
func New(cfg *Config) (*Verifier, error) {
	if cfg == nil || cfg.Resource == "" {
		return nil, errors.New("auth: a resource is required")
	}
	return &Verifier{cfg: cfg}, nil
}

// Verify checks a token (static tokens only in this stand-in).
func (v *Verifier) Verify(ctx context.Context, token string) (*Identity, error) {
	for _, s := range v.cfg.Static {
		if subtle.ConstantTimeCompare([]byte(s.Token), []byte(token)) == 1 {
			sub, _ := s.Claims["sub"].(string)
			if sub == "" {
				sub = s.Name
			}
			return &Identity{Subject: sub, Scopes: s.Scopes, Claims: s.Claims}, nil
		}
	}
	return nil, &Error{Code: "invalid_token", Description: "the token is not valid"}
}

// Metadata is the protected-resource metadata document.
func (v *Verifier) Metadata() []byte {
	b, _ := json.Marshal(map[string]any{"resource": v.cfg.Resource, "authorization_servers": v.cfg.AuthorizationServers,
		"scopes_supported": v.cfg.ScopesSupported, "bearer_methods_supported": []string{"header"}})
	return b
}

// MetadataPaths are the well-known paths of the metadata document.
func MetadataPaths(endpointPath string) []string {
	const wk = "/.well-known/oauth-protected-resource"
	if endpointPath == "" || endpointPath == "/" {
		return []string{wk}
	}
	return []string{wk + endpointPath, wk}
}

// MetadataURL is the metadata document's URL.
func (v *Verifier) MetadataURL(r *http.Request) string {
	i := strings.Index(v.cfg.Resource, "://")
	origin, path := v.cfg.Resource, ""
	if j := strings.IndexByte(v.cfg.Resource[i+3:], '/'); i >= 0 && j >= 0 {
		origin, path = v.cfg.Resource[:i+3+j], v.cfg.Resource[i+3+j:]
	}
	return origin + MetadataPaths(path)[0]
}

// Challenge answers with WWW-Authenticate and status.
func (v *Verifier) Challenge(w http.ResponseWriter, r *http.Request, status int, err *Error, scopes []string) {
	parts := []string{}
	if err != nil {
		parts = append(parts, fmt.Sprintf("error=%q", err.Code))
	}
	if len(scopes) > 0 {
		parts = append(parts, fmt.Sprintf("scope=%q", strings.Join(scopes, " ")))
	}
	parts = append(parts, fmt.Sprintf("resource_metadata=%q", v.MetadataURL(r)))
	w.Header().Set("WWW-Authenticate", "Bearer "+strings.Join(parts, ", "))
	w.WriteHeader(status)
}

// Middleware refuses requests without a valid token.
func (v *Verifier) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := r.Header.Get("Authorization")
		token, ok := strings.CutPrefix(h, "Bearer ")
		if !ok || token == "" {
			v.Challenge(w, r, http.StatusUnauthorized, nil, nil)
			return
		}
		id, err := v.Verify(r.Context(), token)
		if err != nil {
			v.Challenge(w, r, http.StatusUnauthorized, &Error{Code: "invalid_token", Description: "the token is not valid"}, nil)
			return
		}
		next.ServeHTTP(w, r.WithContext(WithIdentity(r.Context(), id)))
	})
}

type ctxKey struct{}

// WithIdentity returns ctx carrying id.
func WithIdentity(ctx context.Context, id *Identity) context.Context {
	return context.WithValue(ctx, ctxKey{}, id)
}

// FromContext returns the identity of ctx, or nil.
func FromContext(ctx context.Context) *Identity {
	id, _ := ctx.Value(ctxKey{}).(*Identity)
	return id
}

// Close releases the Verifier's resources.
func (v *Verifier) Close() {}
