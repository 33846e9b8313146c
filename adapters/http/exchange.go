package httpadapter

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/tokenclient"
	"github.com/mcpdecl/mcpdecl/internal/rule"
)

// Token exchange (RFC 8693): a backend with auth { token_exchange { ... } }
// is called with a token the authorization server issues for the caller
// of each call and for the backend's audience, got by exchanging the
// caller's verified access token (adapter.Request.CallerToken). The
// caller's own token is never sent to the backend.

const (
	grantTokenExchange   = "urn:ietf:params:oauth:grant-type:token-exchange"
	tokenTypeAccessToken = "urn:ietf:params:oauth:token-type:access_token"
	// maxExchanged bounds the exchanged tokens a backend keeps: one per
	// caller's token, so a flood of callers cannot grow it further. When
	// it is full the token closest to its end gives way.
	maxExchanged = 4096
	// maxDescription bounds the authorization server's error_description
	// repeated in a message.
	maxDescription = 300
)

// exchangeKey identifies a caller's token without keeping it: its
// SHA-256. Each backend has its own cache, so the key and the backend
// together are the caller's token and the backend's audience.
type exchangeKey [sha256.Size]byte

// exchanged is a token got for one caller, ready for the Authorization
// header, and when to stop using it.
type exchanged struct {
	header string
	expiry time.Time
}

// exchanger gets tokens for callers by token exchange, caches each until
// shortly before it expires, and lets the concurrent calls of one caller
// share one exchange.
type exchanger struct {
	auth    *Auth
	client  *http.Client
	timeout time.Duration
	host    string
	now     func() time.Time
	max     int

	mu       sync.Mutex
	cache    map[exchangeKey]exchanged
	inflight map[exchangeKey]*tokenCall
	// inForm is set once the endpoint refused client credentials in a
	// basic Authorization header and accepted them in the form.
	inForm bool
}

func newExchanger(a *Auth, tr http.RoundTripper, timeout time.Duration) *exchanger {
	client, host := tokenclient.Endpoint(a.TokenURL, tr)
	return &exchanger{
		auth:     a,
		client:   client,
		timeout:  timeout,
		host:     host,
		now:      time.Now,
		max:      maxExchanged,
		cache:    map[exchangeKey]exchanged{},
		inflight: map[exchangeKey]*tokenCall{},
	}
}

// errNoCaller is the failure of a call that carries no caller's token (a
// new value each time: Invoke edits the messages it returns).
func errNoCaller() error {
	return &adapter.CallError{
		Message: "This backend is called on behalf of the caller (token_exchange), and this call carries no verified access token: it can be made over HTTP with a token only. Retrying will not help.",
	}
}

// Token returns the Authorization value for the caller whose verified
// access token is subject: a cached exchanged token, or a new one. A call
// whose ctx ends stops waiting; the exchange it started goes on for the
// others of the same caller.
func (x *exchanger) Token(ctx context.Context, subject string) (string, error) {
	if subject == "" {
		return "", errNoCaller()
	}
	key := exchangeKey(sha256.Sum256([]byte(subject)))
	x.mu.Lock()
	if e, ok := x.cache[key]; ok && x.now().Before(e.expiry) {
		x.mu.Unlock()
		return e.header, nil
	}
	c := x.inflight[key]
	if c == nil {
		c = &tokenCall{Done: make(chan struct{})}
		x.inflight[key] = c
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), x.timeout)
		go func() {
			defer cancel()
			x.fetch(fctx, key, subject, c)
		}()
	}
	x.mu.Unlock()
	select {
	case <-c.Done:
		return c.Token, c.Err
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return "", &adapter.CallError{
				Message:   "Could not get an access token for this caller: the authorization server gave no answer to the token exchange before the call's deadline. Retrying later may help.",
				Retryable: true, Err: fmt.Errorf("token endpoint %s: %w", x.host, ctx.Err()),
			}
		}
		return "", ctx.Err()
	}
}

// Invalidate drops the caller's token if header is still the cached one,
// after the API refused it.
func (x *exchanger) Invalidate(subject, header string) {
	key := exchangeKey(sha256.Sum256([]byte(subject)))
	x.mu.Lock()
	if e, ok := x.cache[key]; ok && e.header == header {
		delete(x.cache, key)
	}
	x.mu.Unlock()
}

func (x *exchanger) fetch(ctx context.Context, key exchangeKey, subject string, c *tokenCall) {
	x.mu.Lock()
	inForm := x.inForm
	x.mu.Unlock()
	start := x.now()
	tok, err := x.request(ctx, subject, inForm)
	var te *exchangeError
	if !inForm && errors.As(err, &te) && (te.code == "invalid_client" || te.status == http.StatusUnauthorized) {
		// Some servers accept client credentials only in the form
		// (client_secret_post); try once, and remember.
		if tok2, err2 := x.request(ctx, subject, true); err2 == nil {
			tok, err, inForm = tok2, nil, true
		}
	}
	x.mu.Lock()
	delete(x.inflight, key)
	if err == nil {
		c.Token = tok.Header()
		x.inForm = inForm
		if tok.ExpiresIn > 0 {
			// Keep it until a little before it ends: a fifth of its
			// lifetime, at most a minute. A token without expires_in
			// serves the calls that waited for it and is not kept.
			life := time.Duration(tok.ExpiresIn) * time.Second
			x.keep(key, exchanged{header: c.Token, expiry: start.Add(life - min(time.Minute, life/5))})
		}
	} else {
		c.Err = err
	}
	x.mu.Unlock()
	close(c.Done)
}

// keep caches e under key, making room when the cache is full: first by
// dropping the tokens that ended, then the one that ends soonest.
// x.mu is held.
func (x *exchanger) keep(key exchangeKey, e exchanged) {
	if _, ok := x.cache[key]; !ok && len(x.cache) >= x.max {
		now := x.now()
		for k, old := range x.cache {
			if !now.Before(old.expiry) {
				delete(x.cache, k)
			}
		}
		for len(x.cache) >= x.max {
			var soonest exchangeKey
			first := true
			for k, old := range x.cache {
				if first || old.expiry.Before(x.cache[soonest].expiry) {
					soonest, first = k, false
				}
			}
			delete(x.cache, soonest)
		}
	}
	x.cache[key] = e
}

// request sends one token exchange request (RFC 8693 §2.1).
func (x *exchanger) request(ctx context.Context, subject string, inForm bool) (*tokenAnswer, error) {
	a := x.auth
	form := url.Values{
		"grant_type":           {grantTokenExchange},
		"subject_token":        {subject},
		"subject_token_type":   {tokenTypeAccessToken},
		"requested_token_type": {tokenTypeAccessToken},
	}
	if a.Audience != "" {
		form.Set("audience", a.Audience)
	}
	if a.Resource != "" {
		form.Set("resource", a.Resource)
	}
	if len(a.Scopes) > 0 {
		form.Set("scope", strings.Join(a.Scopes, " "))
	}
	status, fields, err := tokenclient.Post(ctx, x.client, a.TokenURL, a.ClientID, a.ClientSecret, userAgent, form, inForm)
	if err != nil {
		ce := describeTransportError(err, "The authorization server's token endpoint", x.host, x.timeout)
		ce.Message = "Could not exchange the caller's access token: " + lowerFirst(ce.Message)
		return nil, ce
	}
	if status < 200 || status > 299 {
		te := &exchangeError{status: status, code: fields.Str("error"), description: fields.Str("error_description")}
		if !tokenclient.IsOAuthCode(te.code) {
			te.code = ""
		}
		te.description = cleanDescription(te.description, subject, a.ClientSecret)
		return nil, te.callError(x.host)
	}
	if t := fields.Str("token_type"); t != "" && !strings.EqualFold(t, "bearer") && !strings.EqualFold(t, "N_A") {
		return nil, &adapter.CallError{Message: fmt.Sprintf("The authorization server exchanged the caller's access token for a %q token, which this backend cannot send; it sends bearer tokens. This is a problem of the server's configuration; retrying will not help.", cleanDescription(t, subject, a.ClientSecret))}
	}
	if it := fields.Str("issued_token_type"); it != "" && it != tokenTypeAccessToken && it != "urn:ietf:params:oauth:token-type:jwt" {
		return nil, &adapter.CallError{Message: fmt.Sprintf("The authorization server exchanged the caller's access token for a token of type %q, not an access token. This is a problem of the server's configuration; retrying will not help.", cleanDescription(it, subject, a.ClientSecret))}
	}
	fields["token_type"] = "Bearer" // RFC 8693 §2.2.1: N_A for a token that is not an access token
	t, ok := fields.Answer()
	if !ok || t.AccessToken == subject {
		return nil, &adapter.CallError{
			Message: "The authorization server answered the token exchange without a usable access_token. This is a problem of the server's configuration; retrying will not help.",
		}
	}
	return t, nil
}

// exchangeError is the authorization server's refusal of an exchange.
type exchangeError struct {
	status            int
	code, description string
}

func (e *exchangeError) Error() string {
	s := fmt.Sprintf("token exchange answered %d %s", e.status, http.StatusText(e.status))
	if e.code != "" {
		s += " (" + e.code + ")"
	}
	return s
}

// callError writes the refusal for the model: the server's error and
// error_description, and what may help.
func (e *exchangeError) callError(host string) error {
	msg := fmt.Sprintf("Could not exchange the caller's access token for one of this backend: the authorization server answered %d %s", e.status, http.StatusText(e.status))
	if e.code != "" {
		msg += " (" + e.code
		if e.description != "" {
			msg += ": " + e.description
		}
		msg += ")"
	} else if e.description != "" {
		msg += " (" + e.description + ")"
	}
	retryable := e.status == http.StatusTooManyRequests || e.status >= 500
	switch {
	case e.code == "invalid_grant":
		msg += ". The caller's access token was not accepted for the exchange (expired or revoked?); signing in again may help."
	case e.code == "invalid_client" || e.status == http.StatusUnauthorized:
		msg += ". The client_id or client_secret of the backend's token_exchange block is wrong; retrying will not help."
	case e.code == "unauthorized_client":
		msg += ". The backend's client may not exchange tokens at this authorization server; retrying will not help."
	case e.code == "invalid_target":
		msg += ". The authorization server issues no token for the backend's audience or resource to this caller; retrying will not help."
	case e.code == "invalid_scope":
		msg += ". The scopes of the backend's token_exchange block are not granted; retrying will not help."
	case retryable:
		msg += ". Retrying later may help."
	default:
		msg += "; retrying will not help."
	}
	return &adapter.CallError{Message: msg, Retryable: retryable, Err: fmt.Errorf("token endpoint %s: %w", host, e)}
}

// cleanDescription makes the authorization server's text safe to repeat:
// the characters RFC 6749 allows in error_description, at most
// maxDescription of them, and never the caller's token or the client
// secret, should the server echo them.
func cleanDescription(s, subject, secret string) string {
	s = rule.Redact(s, []string{subject, secret})
	var b strings.Builder
	for i := 0; i < len(s) && b.Len() < maxDescription; i++ {
		c := s[i]
		if c >= 0x20 && c <= 0x7e && c != '"' && c != '\\' {
			b.WriteByte(c)
		} else if c == '"' {
			b.WriteByte('\'')
		}
	}
	return strings.TrimSpace(b.String())
}
