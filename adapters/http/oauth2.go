package httpadapter

import (
	"net/http"
	"strings"
	"time"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/tokenclient"
)

// The OAuth 2 client credentials grant of auth { oauth2 { ... } } is the
// shared token client's (adapters/internal/tokenclient), which the mcp
// adapter uses too; this file gives it the adapter's words for
// transport errors.

// tokenSource gets and caches the backend's client credentials tokens.
type tokenSource = tokenclient.Source

func newTokenSource(a *Auth, tr http.RoundTripper, timeout time.Duration) *tokenSource {
	creds := tokenclient.ClientCredentials{TokenURL: a.TokenURL, ClientID: a.ClientID, ClientSecret: a.ClientSecret, Scopes: a.Scopes}
	return tokenclient.NewSource(creds, tr, timeout, userAgent, func(err error, host string, timeout time.Duration) *adapter.CallError {
		return describeTransportError(err, "The OAuth2 token endpoint", host, timeout)
	})
}

// tokenCall is a token request that concurrent callers wait on.
type tokenCall = tokenclient.Pending

// tokenAnswer is an access token a token endpoint issued.
type tokenAnswer = tokenclient.Answer

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
