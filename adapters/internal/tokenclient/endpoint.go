// Package tokenclient asks OAuth 2 token endpoints for the access tokens
// that backends send: the request and its answer as the http and mcp
// adapters share them, and a Source of client credentials tokens
// (RFC 6749 §4.4), cached until shortly before they expire. The adapters
// stay independent of each other; what both need of a token endpoint is
// here.
package tokenclient

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// maxAnswer bounds the token endpoint's answer.
const maxAnswer = 1 << 20

// Endpoint is the client that asks tokenURL for tokens, and the host
// named in errors. It never follows a redirect: the request carries the
// client secret (and, for an exchange, the caller's token).
func Endpoint(tokenURL string, tr http.RoundTripper) (*http.Client, string) {
	host := tokenURL
	if u, err := url.Parse(tokenURL); err == nil {
		host = u.Host
	}
	return &http.Client{
		Transport:     tr,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}, host
}

// Answer is an access token a token endpoint issued.
type Answer struct {
	AccessToken, TokenType string
	// ExpiresIn is its lifetime in seconds; 0 when the answer gave none.
	ExpiresIn int64
}

// Header is the Authorization header value that carries the token.
func (t *Answer) Header() string {
	typ := t.TokenType
	if typ == "" || strings.EqualFold(typ, "bearer") {
		typ = "Bearer"
	}
	return typ + " " + t.AccessToken
}

// Fields are the fields of a token endpoint's answer.
type Fields map[string]any

// Str is the field k as text; "" when absent or not text nor a number.
func (f Fields) Str(k string) string {
	switch v := f[k].(type) {
	case string:
		return v
	case json.Number:
		return v.String()
	}
	return ""
}

// Answer reads an access token from a successful answer; false when it
// holds none that a header can carry.
func (f Fields) Answer() (*Answer, bool) {
	t := &Answer{AccessToken: f.Str("access_token"), TokenType: f.Str("token_type")}
	if t.AccessToken == "" || BadHeaderValue(t.AccessToken) || BadHeaderValue(t.TokenType) || strings.ContainsAny(t.TokenType, " ") {
		return nil, false
	}
	if n, err := strconv.ParseFloat(f.Str("expires_in"), 64); err == nil && n > 0 {
		t.ExpiresIn = int64(n)
	}
	return t, true
}

// Post sends form to a token endpoint, authenticating the client with
// HTTP basic authentication (client_secret_basic), or in the form when
// inForm (client_secret_post), and reads the answer's fields (JSON, or
// form-encoded as some servers send them). err is a transport error.
func Post(ctx context.Context, client *http.Client, tokenURL, clientID, secret, userAgent string, form url.Values, inForm bool) (int, Fields, error) {
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
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return 0, nil, err
	}
	fields := Fields{}
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

// IsOAuthCode reports whether s looks like an OAuth error code, which is
// safe to repeat (unlike a free-text description).
func IsOAuthCode(s string) bool {
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

// BadHeaderValue reports whether v holds a control character other than
// a tab: CR and LF would end the header and start another.
func BadHeaderValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 && c != '\t' || c == 0x7f {
			return true
		}
	}
	return false
}
