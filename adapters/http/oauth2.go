package httpadapter

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpdecl/mcpdecl/adapter"
)

// maxTokenAnswer bounds the token endpoint's answer.
const maxTokenAnswer = 1 << 20

// tokenSource gets OAuth 2 access tokens with the client credentials grant
// (RFC 6749 §4.4) and caches them until shortly before they expire.
// Concurrent callers that find no valid token share one token request.
type tokenSource struct {
	auth    *Auth
	client  *http.Client
	timeout time.Duration
	host    string
	now     func() time.Time

	mu       sync.Mutex
	token    string    // "Bearer xyz", ready for the Authorization header
	expiry   time.Time // zero: no known expiry (kept until the API answers 401)
	inflight *tokenCall
	// inForm is set once the endpoint refused credentials in a basic
	// Authorization header and accepted them in the form.
	inForm bool
}

type tokenCall struct {
	done  chan struct{}
	token string
	err   error
}

func newTokenSource(a *Auth, tr http.RoundTripper, timeout time.Duration) *tokenSource {
	client, host := tokenEndpoint(a.TokenURL, tr)
	return &tokenSource{auth: a, client: client, timeout: timeout, host: host, now: time.Now}
}

// tokenEndpoint is the client that asks tokenURL for tokens, and the
// host named in errors. It never follows a redirect: the request carries
// the client secret (and, for an exchange, the caller's token).
func tokenEndpoint(tokenURL string, tr http.RoundTripper) (*http.Client, string) {
	host := tokenURL
	if u, err := url.Parse(tokenURL); err == nil {
		host = u.Host
	}
	return &http.Client{
		Transport:     tr,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}, host
}

// Token returns the Authorization header value: a cached token, or a new
// one. A caller whose ctx ends stops waiting; the request it started goes on
// for the others.
func (ts *tokenSource) Token(ctx context.Context) (string, error) {
	ts.mu.Lock()
	if ts.token != "" && (ts.expiry.IsZero() || ts.now().Before(ts.expiry)) {
		tok := ts.token
		ts.mu.Unlock()
		return tok, nil
	}
	c := ts.inflight
	if c == nil {
		c = &tokenCall{done: make(chan struct{})}
		ts.inflight = c
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ts.timeout)
		go func() {
			defer cancel()
			ts.fetch(fctx, c)
		}()
	}
	ts.mu.Unlock()
	select {
	case <-c.done:
		return c.token, c.err
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return "", &adapter.CallError{
				Message:   fmt.Sprintf("Could not get an OAuth2 access token: the token endpoint gave no answer before the call's deadline. Retrying later may help."),
				Retryable: true, Err: fmt.Errorf("token endpoint %s: %w", ts.host, ctx.Err()),
			}
		}
		return "", ctx.Err()
	}
}

// Invalidate drops token if it is still the cached one, after the API
// refused it.
func (ts *tokenSource) Invalidate(token string) {
	ts.mu.Lock()
	if ts.token == token {
		ts.token, ts.expiry = "", time.Time{}
	}
	ts.mu.Unlock()
}

func (ts *tokenSource) fetch(ctx context.Context, c *tokenCall) {
	ts.mu.Lock()
	inForm := ts.inForm
	ts.mu.Unlock()
	start := ts.now()
	tok, err := ts.request(ctx, inForm)
	var te *tokenError
	if !inForm && errors.As(err, &te) && (te.status == http.StatusBadRequest || te.status == http.StatusUnauthorized) {
		// Some servers accept client credentials only in the form
		// (client_secret_post); try once, and remember.
		if tok2, err2 := ts.request(ctx, true); err2 == nil {
			tok, err, inForm = tok2, nil, true
		}
	}
	ts.mu.Lock()
	ts.inflight = nil
	if err == nil {
		ts.token = tok.header()
		ts.expiry = time.Time{}
		if tok.expiresIn > 0 {
			life := time.Duration(tok.expiresIn) * time.Second
			// Refresh a little early: a fifth of the lifetime, at most a minute.
			ts.expiry = start.Add(life - min(time.Minute, life/5))
		}
		ts.inForm = inForm
		c.token = ts.token
	} else {
		c.err = err
	}
	ts.mu.Unlock()
	close(c.done)
}

type tokenAnswer struct {
	accessToken, tokenType string
	expiresIn              int64
}

func (t *tokenAnswer) header() string {
	typ := t.tokenType
	if typ == "" || strings.EqualFold(typ, "bearer") {
		typ = "Bearer"
	}
	return typ + " " + t.accessToken
}

// tokenError is a token endpoint's refusal.
type tokenError struct {
	status int
	code   string // the OAuth error code, such as invalid_client
}

func (e *tokenError) Error() string {
	s := fmt.Sprintf("token endpoint answered %d %s", e.status, http.StatusText(e.status))
	if e.code != "" {
		s += " (" + e.code + ")"
	}
	return s
}

func (ts *tokenSource) request(ctx context.Context, inForm bool) (*tokenAnswer, error) {
	a := ts.auth
	form := url.Values{"grant_type": {"client_credentials"}}
	if len(a.Scopes) > 0 {
		form.Set("scope", strings.Join(a.Scopes, " "))
	}
	status, fields, err := postToken(ctx, ts.client, a.TokenURL, a.ClientID, a.ClientSecret, form, inForm)
	if err != nil {
		return nil, ts.callError(err)
	}
	if status < 200 || status > 299 {
		code := fields.str("error")
		if !isOAuthCode(code) {
			code = ""
		}
		return nil, ts.refusal(&tokenError{status: status, code: code})
	}
	t, ok := fields.answer()
	if !ok {
		return nil, &adapter.CallError{
			Message: fmt.Sprintf("The OAuth2 token endpoint answered without a usable access_token. This is a problem of the server's configuration; retrying will not help."),
		}
	}
	return t, nil
}

// tokenFields are the fields of a token endpoint's answer.
type tokenFields map[string]any

func (f tokenFields) str(k string) string {
	switch v := f[k].(type) {
	case string:
		return v
	case json.Number:
		return v.String()
	}
	return ""
}

// answer reads an access token from a successful answer; false when it
// holds none that a header can carry.
func (f tokenFields) answer() (*tokenAnswer, bool) {
	t := &tokenAnswer{accessToken: f.str("access_token"), tokenType: f.str("token_type")}
	if t.accessToken == "" || badHeaderValue(t.accessToken) || badHeaderValue(t.tokenType) || strings.ContainsAny(t.tokenType, " ") {
		return nil, false
	}
	if n, err := strconv.ParseFloat(f.str("expires_in"), 64); err == nil && n > 0 {
		t.expiresIn = int64(n)
	}
	return t, true
}

// postToken sends form to a token endpoint, authenticating the client
// with HTTP basic authentication (client_secret_basic), or in the form
// when inForm (client_secret_post), and reads the answer's fields (JSON,
// or form-encoded as some servers send them). err is a transport error.
func postToken(ctx context.Context, client *http.Client, tokenURL, clientID, secret string, form url.Values, inForm bool) (int, tokenFields, error) {
	if inForm {
		form.Set("client_id", clientID)
		form.Set("client_secret", secret)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, tokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", userAgent)
	if !inForm {
		// RFC 6749 §2.3.1: both are form-encoded before basic auth.
		req.SetBasicAuth(url.QueryEscape(clientID), url.QueryEscape(secret))
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxTokenAnswer))
	if err != nil {
		return 0, nil, err
	}
	fields := tokenFields{}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if mt == "application/x-www-form-urlencoded" || mt == "text/plain" {
		if vals, err := url.ParseQuery(string(data)); err == nil {
			for k := range vals {
				fields[k] = vals.Get(k)
			}
		}
	} else {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		_ = dec.Decode(&fields)
	}
	return resp.StatusCode, fields, nil
}

// isOAuthCode reports whether s looks like an OAuth error code, which is
// safe to repeat (unlike a free-text description).
func isOAuthCode(s string) bool {
	if s == "" || len(s) > 40 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c == '_') {
			return false
		}
	}
	return true
}

func (ts *tokenSource) refusal(te *tokenError) error {
	msg := fmt.Sprintf("Could not get an OAuth2 access token: the token endpoint answered %d %s", te.status, http.StatusText(te.status))
	if te.code != "" {
		msg += " (" + te.code + ")"
	}
	retryable := te.status == http.StatusTooManyRequests || te.status >= 500
	switch {
	case te.code == "invalid_client" || te.status == http.StatusUnauthorized:
		msg += ". The client_id or client_secret of the backend is wrong; retrying will not help."
	case te.code == "invalid_scope":
		msg += ". The scopes of the backend are not allowed for this client; retrying will not help."
	case retryable:
		msg += ". Retrying later may help."
	default:
		msg += "; retrying will not help."
	}
	return &adapter.CallError{Message: msg, Retryable: retryable, Err: fmt.Errorf("token endpoint %s: %w", ts.host, te)}
}

func (ts *tokenSource) callError(err error) error {
	ce := describeTransportError(err, "The OAuth2 token endpoint", ts.host, ts.timeout)
	ce.Message = "Could not get an OAuth2 access token: " + lowerFirst(ce.Message)
	return ce
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
