package auth

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Verifier checks bearer tokens against a Config. It is safe for
// concurrent use; Close stops the fetches it may have running.
type Verifier struct {
	cfg        Config
	resource   string          // canonical Config.Resource
	issuers    map[string]bool // canonical accepted issuers
	algorithms []string
	keyRefresh time.Duration
	keyTTL     time.Duration
	client     *http.Client
	log        *slog.Logger
	parser     *jwt.Parser
	static     []staticToken
	cache      *tokenCache
	metadata   []byte

	ctx    context.Context // fetches run on it; Close cancels it
	cancel context.CancelFunc

	fixedKeys *keySet            // Config.JWKSURL, when set
	keySets   map[string]*keySet // by canonical issuer, when discovered
}

// New checks cfg and returns a Verifier. It does no network I/O: keys and
// metadata are fetched when the first token needs them.
func New(cfg *Config) (*Verifier, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	v := &Verifier{
		cfg:        *cfg,
		resource:   canonicalURI(cfg.Resource),
		issuers:    map[string]bool{},
		algorithms: cfg.Algorithms,
		keyRefresh: orDefault(cfg.KeyRefreshInterval, defaultKeyRefresh),
		keyTTL:     orDefault(cfg.KeyCacheTTL, defaultKeyTTL),
		client:     cfg.HTTPClient,
		log:        cfg.Logger,
		keySets:    map[string]*keySet{},
	}
	if len(v.algorithms) == 0 {
		v.algorithms = defaultAlgorithms
	}
	if v.client == nil {
		v.client = defaultHTTPClient()
	}
	if v.log == nil {
		v.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	v.warnCleartext(cfg)
	issuers := cfg.Issuers
	if len(issuers) == 0 {
		issuers = cfg.AuthorizationServers
	}
	for _, iss := range issuers {
		c := canonicalURI(iss)
		v.issuers[c] = true
		if cfg.JWKSURL == "" {
			v.keySets[c] = &keySet{v: v, issuer: iss}
		}
	}
	if cfg.JWKSURL != "" {
		v.fixedKeys = &keySet{v: v, jwksURL: cfg.JWKSURL}
	}
	v.parser = jwt.NewParser(
		jwt.WithValidMethods(v.algorithms),
		jwt.WithLeeway(cfg.Leeway),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
	)
	v.static = newStaticTokens(cfg.Static)
	size := cfg.TokenCacheSize
	if size == 0 {
		size = defaultCacheSize
	}
	if size > 0 {
		v.cache = newTokenCache(size)
	}
	v.metadata = buildMetadata(cfg, v.resource)
	v.ctx, v.cancel = context.WithCancel(context.Background())
	return v, nil
}

// warnCleartext warns of plain-http URLs to hosts other than the
// loopback: allowed (a test network, a proxy in front), but OAuth 2.1
// requires TLS there.
func (v *Verifier) warnCleartext(cfg *Config) {
	urls := append([]string{cfg.Resource, cfg.JWKSURL}, cfg.AuthorizationServers...)
	urls = append(urls, cfg.Issuers...)
	if cfg.Introspection != nil {
		urls = append(urls, cfg.Introspection.URL)
	}
	for _, u := range urls {
		if cleartext(u) {
			v.warn("plain http to a host other than the loopback; OAuth 2.1 requires https there", "url", u)
		}
	}
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// Close stops running fetches; the Verifier must not be used afterwards.
func (v *Verifier) Close() { v.cancel() }

// Verify checks a bearer token and returns whom it speaks for. The error
// is always an *Error whose Description may be sent to the client.
//
// Static tokens are compared first (all of them, in constant time), then a
// token that is a JWT is verified locally (unless introspection is set to
// Always), and any other token is introspected when an endpoint is
// configured. Verified JWTs and active introspection answers are cached by
// a hash of the token until they expire (at most a few minutes).
func (v *Verifier) Verify(ctx context.Context, token string) (*Identity, error) {
	id, err := v.verify(ctx, token)
	if err != nil {
		return nil, err
	}
	return id, nil
}

func (v *Verifier) verify(ctx context.Context, token string) (*Identity, *Error) {
	if token == "" {
		return nil, invalidRequest("no bearer token")
	}
	if len(token) > maxTokenBytes {
		v.debug("token refused", "reason", "longer than the limit")
		return nil, invalidToken("the token is too long")
	}
	key := hashToken(token)
	if id := v.matchStatic(key); id != nil {
		return id, nil
	}
	if v.cache != nil {
		if id := v.cache.get(key, time.Now()); id != nil {
			return id, nil
		}
	}
	var (
		id    *Identity
		until time.Time
		err   *Error
	)
	in := v.cfg.Introspection
	switch {
	case looksLikeJWT(token) && v.cfg.jwtEnabled() && (in == nil || !in.Always):
		id, until, err = v.verifyJWT(ctx, token)
	case in != nil:
		id, until, err = v.introspect(ctx, token)
	default:
		v.debug("token refused", "reason", "not a JWT and no introspection endpoint")
		return nil, invalidToken("the token is not accepted by this server")
	}
	if err != nil {
		return nil, err
	}
	if v.cache != nil {
		v.cache.put(key, id, until, time.Now())
	}
	return id, nil
}

// maxTokenBytes bounds the tokens looked at; real access tokens are a few
// kilobytes at most.
const maxTokenBytes = 16 << 10

// looksLikeJWT tells a JWS compact serialization (three base64url parts)
// from an opaque token.
func looksLikeJWT(token string) bool {
	if strings.Count(token, ".") != 2 {
		return false
	}
	for i := 0; i < len(token); i++ {
		c := token[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

func (v *Verifier) debug(msg string, args ...any) {
	if !v.log.Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	v.log.LogAttrs(context.Background(), slog.LevelDebug, "auth: "+msg, attrs(args)...)
}

func (v *Verifier) warn(msg string, args ...any) {
	v.log.LogAttrs(context.Background(), slog.LevelWarn, "auth: "+msg, attrs(args)...)
}

func attrs(args []any) []slog.Attr {
	out := make([]slog.Attr, 0, len(args)/2)
	for i := 0; i+1 < len(args); i += 2 {
		k, _ := args[i].(string)
		out = append(out, slog.Any(k, args[i+1]))
	}
	return out
}
