package auth

import (
	"log/slog"
	"net/http"
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
	// Leeway is the clock skew allowed for exp, nbf and iat (default 30s,
	// at most 5m): without any, a token from an authorization server whose
	// clock runs a second ahead is "issued in the future" for a second.
	Leeway time.Duration
	// ScopesSupported are listed in the protected resource metadata.
	ScopesSupported []string
	// InitialScopes are the scope parameter of the 401 answering a request
	// without a token: what an MCP client asks for when it first signs in.
	// Empty: ScopesSupported (an MCP client asks for all of them anyway
	// when the parameter is missing).
	InitialScopes []string
	// Introspection checks opaque tokens with RFC 7662.
	Introspection *Introspection
	// Static tokens: API keys or fixed bearer tokens.
	Static []StaticToken
	// KeepToken puts a verified token itself in the request's context
	// too (TokenFromContext), for backends that exchange it for a token
	// of their own (RFC 8693); without it the token goes no further than
	// the check, and costs nothing more.
	KeepToken bool
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
	// While no key set was ever fetched, the interval is at most 5s.
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
	defaultLeeway       = DefaultLeeway
	maxLeeway           = 5 * time.Minute
	minStaticTokenLen   = 16
)

// DefaultLeeway is the clock skew allowed on exp, nbf and iat when
// Config.Leeway is 0.
const DefaultLeeway = 30 * time.Second

var defaultAlgorithms = []string{"RS256", "ES256"}

// asymmetricAlgorithms are the JWS algorithms verifiable with a public key
// from a key set.
var asymmetricAlgorithms = []string{
	"RS256", "RS384", "RS512", "PS256", "PS384", "PS512",
	"ES256", "ES384", "ES512", "EdDSA",
}
