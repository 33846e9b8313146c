package tokenclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/mcpdecl/mcpdecl/adapter"
)

// ClientCredentials is a backend's client at a token endpoint.
type ClientCredentials struct {
	TokenURL, ClientID, ClientSecret string
	Scopes                           []string
	// Resource, when set, is sent as the RFC 8707 resource the token is
	// for (an MCP server's URL: the MCP authorization spec asks clients
	// to name it).
	Resource string
}

// Source gets OAuth 2 access tokens with the client credentials grant
// (RFC 6749 §4.4) and caches them until shortly before they expire.
// Concurrent callers that find no valid token share one token request.
type Source struct {
	creds     ClientCredentials
	client    *http.Client
	timeout   time.Duration
	host      string
	userAgent string
	// transport describes a failure to reach the endpoint (the adapter's
	// own words for its transport errors).
	transport func(err error, host string, timeout time.Duration) *adapter.CallError
	// Now is the clock (tests set it).
	Now func() time.Time

	mu       sync.Mutex
	token    string    // "Bearer xyz", ready for the Authorization header
	expiry   time.Time // zero: no known expiry (kept until the backend answers 401)
	inflight *Pending
	// inForm is set once the endpoint refused credentials in a basic
	// Authorization header and accepted them in the form.
	inForm bool
}

// Pending is a token request that concurrent callers wait on.
type Pending struct {
	Done  chan struct{}
	Token string
	Err   error
}

// NewSource returns a Source for creds, asking the endpoint through tr
// within timeout. transport describes a failure to get an answer; nil
// writes a plain message.
func NewSource(creds ClientCredentials, tr http.RoundTripper, timeout time.Duration, userAgent string, transport func(err error, host string, timeout time.Duration) *adapter.CallError) *Source {
	client, host := Endpoint(creds.TokenURL, tr)
	if transport == nil {
		transport = plainTransportError
	}
	return &Source{creds: creds, client: client, timeout: timeout, host: host, userAgent: userAgent, transport: transport, Now: time.Now}
}

func plainTransportError(err error, host string, _ time.Duration) *adapter.CallError {
	return &adapter.CallError{Message: "The OAuth2 token endpoint could not be reached. Retrying later may help.", Retryable: true,
		Err: fmt.Errorf("token endpoint %s: %w", host, err)}
}

// Token returns the Authorization header value: a cached token, or a new
// one. A caller whose ctx ends stops waiting; the request it started goes on
// for the others.
func (ts *Source) Token(ctx context.Context) (string, error) {
	ts.mu.Lock()
	if ts.token != "" && (ts.expiry.IsZero() || ts.Now().Before(ts.expiry)) {
		tok := ts.token
		ts.mu.Unlock()
		return tok, nil
	}
	c := ts.inflight
	if c == nil {
		c = &Pending{Done: make(chan struct{})}
		ts.inflight = c
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ts.timeout)
		go func() {
			defer cancel()
			ts.fetch(fctx, c)
		}()
	}
	ts.mu.Unlock()
	select {
	case <-c.Done:
		return c.Token, c.Err
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return "", &adapter.CallError{
				Message:   "Could not get an OAuth2 access token: the token endpoint gave no answer before the call's deadline. Retrying later may help.",
				Retryable: true, Err: fmt.Errorf("token endpoint %s: %w", ts.host, ctx.Err()),
			}
		}
		return "", ctx.Err()
	}
}

// Invalidate drops token if it is still the cached one, after the
// backend refused it.
func (ts *Source) Invalidate(token string) {
	ts.mu.Lock()
	if ts.token == token {
		ts.token, ts.expiry = "", time.Time{}
	}
	ts.mu.Unlock()
}

func (ts *Source) fetch(ctx context.Context, c *Pending) {
	ts.mu.Lock()
	inForm := ts.inForm
	ts.mu.Unlock()
	start := ts.Now()
	tok, err := ts.request(ctx, inForm)
	var te *Refusal
	if !inForm && errors.As(err, &te) && (te.Status == http.StatusBadRequest || te.Status == http.StatusUnauthorized) {
		// Some servers accept client credentials only in the form
		// (client_secret_post); try once, and remember.
		if tok2, err2 := ts.request(ctx, true); err2 == nil {
			tok, err, inForm = tok2, nil, true
		}
	}
	ts.mu.Lock()
	ts.inflight = nil
	if err == nil {
		ts.token = tok.Header()
		ts.expiry = time.Time{}
		if tok.ExpiresIn > 0 {
			life := time.Duration(tok.ExpiresIn) * time.Second
			// Refresh a little early: a fifth of the lifetime, at most a minute.
			ts.expiry = start.Add(life - min(time.Minute, life/5))
		}
		ts.inForm = inForm
		c.Token = ts.token
	} else {
		c.Err = err
	}
	ts.mu.Unlock()
	close(c.Done)
}

// Refusal is a token endpoint's refusal.
type Refusal struct {
	Status int
	Code   string // the OAuth error code, such as invalid_client
}

func (e *Refusal) Error() string {
	s := fmt.Sprintf("token endpoint answered %d %s", e.Status, http.StatusText(e.Status))
	if e.Code != "" {
		s += " (" + e.Code + ")"
	}
	return s
}

func (ts *Source) request(ctx context.Context, inForm bool) (*Answer, error) {
	a := ts.creds
	form := url.Values{"grant_type": {"client_credentials"}}
	if len(a.Scopes) > 0 {
		form.Set("scope", strings.Join(a.Scopes, " "))
	}
	if a.Resource != "" {
		form.Set("resource", a.Resource)
	}
	status, fields, err := Post(ctx, ts.client, a.TokenURL, a.ClientID, a.ClientSecret, ts.userAgent, form, inForm)
	if err != nil {
		ce := ts.transport(err, ts.host, ts.timeout)
		ce.Message = "Could not get an OAuth2 access token: " + lowerFirst(ce.Message)
		return nil, ce
	}
	if status < 200 || status > 299 {
		code := fields.Str("error")
		if !IsOAuthCode(code) {
			code = ""
		}
		return nil, ts.refusal(&Refusal{Status: status, Code: code})
	}
	t, ok := fields.Answer()
	if !ok {
		return nil, &adapter.CallError{
			Message: "The OAuth2 token endpoint answered without a usable access_token. This is a problem of the server's configuration; retrying will not help.",
		}
	}
	return t, nil
}

func (ts *Source) refusal(te *Refusal) error {
	msg := fmt.Sprintf("Could not get an OAuth2 access token: the token endpoint answered %d %s", te.Status, http.StatusText(te.Status))
	if te.Code != "" {
		msg += " (" + te.Code + ")"
	}
	retryable := te.Status == http.StatusTooManyRequests || te.Status >= 500
	switch {
	case te.Code == "invalid_client" || te.Status == http.StatusUnauthorized:
		msg += ". The client_id or client_secret of the backend is wrong; retrying will not help."
	case te.Code == "invalid_scope":
		msg += ". The scopes of the backend are not allowed for this client; retrying will not help."
	case retryable:
		msg += ". Retrying later may help."
	default:
		msg += "; retrying will not help."
	}
	return &adapter.CallError{Message: msg, Retryable: retryable, Err: fmt.Errorf("token endpoint %s: %w", ts.host, te)}
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
