package auth

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Config describes the resource server: which tokens it accepts and what
// it publishes about itself. New checks it; nothing in it is fetched
// before the first token arrives.
type Config struct {
	// Resource is this server's canonical URI, the audience every token
	// must carry (RFC 8707), e.g. "https://mcp.example.com/mcp".
	Resource string
	// AuthorizationServers are the issuer URLs listed in the protected
	// resource metadata; they are also the accepted `iss` values unless
	// Issuers is set.
	AuthorizationServers []string
	// Issuers are the accepted `iss` values (default AuthorizationServers).
	Issuers []string
	// JWKSURL is the JSON Web Key Set of the issuers. Empty: discovered
	// from each issuer's RFC 8414 (or OpenID Connect) metadata `jwks_uri`.
	JWKSURL string
	// Algorithms are the accepted JWS algorithms (default RS256 and
	// ES256). "none" and the shared-secret HS* algorithms are refused.
	Algorithms []string
	// Leeway is the clock skew allowed for exp, nbf and iat (at most 5m).
	Leeway time.Duration
	// ScopesSupported are listed in the protected resource metadata.
	ScopesSupported []string
	// Introspection checks opaque tokens with RFC 7662.
	Introspection *Introspection
	// Static tokens: API keys or fixed bearer tokens.
	Static []StaticToken
	// ResourceName and ResourceDocumentation are optional metadata fields.
	ResourceName, ResourceDocumentation string
	// HTTPClient fetches metadata, key sets and introspection answers
	// (default: a client with a 10s timeout).
	HTTPClient *http.Client
	// Logger gets debug lines naming why a token was refused, and warnings
	// when an authorization server misbehaves (default: discard).
	Logger *slog.Logger

	// KeyRefreshInterval is the least time between two fetches of a key
	// set caused by a token whose `kid` is not in it (default 30s), so a
	// flood of forged key ids cannot hammer the authorization server.
	KeyRefreshInterval time.Duration
	// KeyCacheTTL is how long a fetched key set is used before it is
	// fetched again on the next token (default 1h). A failed fetch keeps
	// the keys already known.
	KeyCacheTTL time.Duration
	// TokenCacheSize bounds the cache of verified tokens, keyed by a hash
	// of the token (default 4096; negative disables the cache).
	TokenCacheSize int
}

// Introspection is an RFC 7662 endpoint for tokens that are not JWTs.
type Introspection struct {
	URL                    string
	ClientID, ClientSecret string // sent with HTTP basic authentication
	// CacheTTL is how long an active answer is reused (default 1m, never
	// beyond the token's exp).
	CacheTTL time.Duration
	// Always sends JWTs to the endpoint too, instead of verifying them
	// locally.
	Always bool
}

// StaticToken is a fixed bearer token, such as an API key. Name identifies
// it in logs and becomes the Subject; the token itself is never shown.
type StaticToken struct {
	Name   string
	Token  string
	Scopes []string
	Claims map[string]any
}

// Defaults and bounds.
const (
	defaultKeyRefresh   = 30 * time.Second
	defaultKeyTTL       = time.Hour
	defaultCacheSize    = 4096
	defaultIntrospectTT = time.Minute
	maxLeeway           = 5 * time.Minute
	minStaticTokenLen   = 16
)

var defaultAlgorithms = []string{"RS256", "ES256"}

// asymmetricAlgorithms are the JWS algorithms verifiable with a public key
// from a key set.
var asymmetricAlgorithms = []string{
	"RS256", "RS384", "RS512", "PS256", "PS384", "PS512",
	"ES256", "ES384", "ES512", "EdDSA",
}

// check validates cfg and returns every problem found, joined.
func (cfg *Config) check() error {
	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	add(checkURL("auth: resource", cfg.Resource))
	for _, s := range cfg.AuthorizationServers {
		add(checkURL("auth: authorization server", s))
	}
	for _, s := range cfg.Issuers {
		add(checkURL("auth: issuer", s))
	}
	if cfg.JWKSURL != "" {
		add(checkURL("auth: jwks_url", cfg.JWKSURL))
	}
	for _, a := range cfg.Algorithms {
		add(checkAlgorithm(a))
	}
	if cfg.Leeway < 0 || cfg.Leeway > maxLeeway {
		add(fmt.Errorf("auth: leeway %v is out of range; use 0 to %v", cfg.Leeway, maxLeeway))
	}
	if in := cfg.Introspection; in != nil {
		add(checkURL("auth: introspection url", in.URL))
		if in.ClientSecret != "" && in.ClientID == "" {
			add(errors.New("auth: introspection has a client secret but no client id"))
		}
	}
	add(checkStatic(cfg.Static))
	if !cfg.jwtEnabled() && cfg.Introspection == nil && len(cfg.Static) == 0 {
		add(errors.New("auth: nothing can verify a token; give authorization servers (JWTs), an introspection endpoint or static tokens"))
	}
	return errors.Join(errs...)
}

func (cfg *Config) jwtEnabled() bool {
	return len(cfg.AuthorizationServers) > 0 || len(cfg.Issuers) > 0 || cfg.JWKSURL != ""
}

func checkAlgorithm(a string) error {
	switch {
	case slices.Contains(asymmetricAlgorithms, a):
		return nil
	case strings.EqualFold(a, "none"):
		return errors.New(`auth: algorithm "none" accepts unsigned tokens and is never allowed`)
	case strings.HasPrefix(strings.ToUpper(a), "HS"):
		return fmt.Errorf("auth: algorithm %q uses a shared secret, which a public key set cannot verify; use one of %s", a, strings.Join(asymmetricAlgorithms, ", "))
	}
	return fmt.Errorf("auth: unknown algorithm %q; use one of %s", a, strings.Join(asymmetricAlgorithms, ", "))
}

func checkStatic(tokens []StaticToken) error {
	var errs []error
	names := map[string]bool{}
	values := map[string]string{}
	for i, st := range tokens {
		switch {
		case st.Name == "":
			errs = append(errs, fmt.Errorf("auth: static token #%d has no name", i+1))
		case names[st.Name]:
			errs = append(errs, fmt.Errorf("auth: two static tokens are named %q", st.Name))
		}
		names[st.Name] = true
		if len(st.Token) < minStaticTokenLen {
			errs = append(errs, fmt.Errorf("auth: static token %q is shorter than %d characters; use a long random value", st.Name, minStaticTokenLen))
		}
		if strings.ContainsAny(st.Token, " \t\r\n") {
			errs = append(errs, fmt.Errorf("auth: static token %q holds white space, which an Authorization header cannot carry", st.Name))
		}
		if other, dup := values[st.Token]; dup && st.Token != "" {
			errs = append(errs, fmt.Errorf("auth: static tokens %q and %q have the same value", other, st.Name))
		}
		values[st.Token] = st.Name
	}
	return errors.Join(errs...)
}
