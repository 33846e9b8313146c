package httpadapter

import (
	"fmt"
	"net/http"
	"net/textproto"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/check"
	"github.com/mcpdecl/mcpdecl/internal/rule"
)

// Defaults of a backend "http" block.
const (
	DefaultTimeout          = 30 * time.Second
	DefaultMaxResponseBytes = 10 << 20
	DefaultRetryAttempts    = 3
	DefaultRetryMinWait     = 100 * time.Millisecond
	DefaultRetryMaxWait     = 2 * time.Second
)

// Methods lists the HTTP methods a call may use.
var Methods = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}

// DefaultRetryMethods are the idempotent methods, retried unless a retry
// block lists others.
var DefaultRetryMethods = []string{"GET", "HEAD", "PUT", "DELETE", "OPTIONS"}

// DefaultRetryStatus are the statuses retried unless a retry block lists
// others. Transport errors are always retried.
var DefaultRetryStatus = []int{429, 502, 503, 504}

// Backend is a compiled `backend "http"` block.
type Backend struct {
	Name string
	// BaseURL is the parsed base URL without a trailing slash; nil when it is
	// not known at load time (it comes from env() during validate).
	BaseURL *url.URL
	// Headers are sent with every call, by canonical name. Values may be
	// secrets.
	Headers map[string]string
	// Timeout is the total deadline of one call, retries included.
	Timeout          time.Duration
	MaxResponseBytes int64
	// Retry is never nil; Attempts 1 means no retries.
	Retry *Retry
	// Auth is nil when the block has no auth block.
	Auth *Auth
	// TLS is nil when the block has no tls block.
	TLS *TLS
	// ForwardHeaders are the inbound request headers passed on, by canonical
	// name. Authorization passes only when listed here.
	ForwardHeaders []string
	// WrapTransport, when set before the first call, wraps the transport
	// that carries the backend's requests (OAuth2 token requests
	// included): mcpdecl test answers them from mocks without using it,
	// or records what it carries.
	WrapTransport func(http.RoundTripper) http.RoundTripper

	// summaries are the call summaries of the backend's calls, one per
	// method and path template: the tools of an imported API call the
	// same few templates many times over (see Action.summarize).
	summaries   map[string]*adapter.CallSummary
	summariesMu sync.Mutex

	// The runtime client, built once by Open or the first call.
	once sync.Once
	rt   *runtime
	err  error
}

// Retry says when a failed attempt is tried again.
type Retry struct {
	// Attempts counts every attempt, the first included.
	Attempts         int
	MinWait, MaxWait time.Duration
	// OnStatus lists the response statuses that are retried; transport
	// errors are always retried.
	OnStatus []int
	// Methods lists the methods that may be retried.
	Methods []string
}

// Auth kinds.
const (
	AuthBearer = "bearer"
	AuthBasic  = "basic"
	AuthAPIKey = "api_key"
	AuthOAuth2 = "oauth2"
	// AuthTokenExchange calls the API with a token got for each caller by
	// exchanging the caller's verified access token (RFC 8693).
	AuthTokenExchange = "token_exchange"
)

// Auth is outbound authentication. Only the fields of Kind are set.
type Auth struct {
	Kind string
	// Bearer is the token for AuthBearer.
	Bearer string
	// Username and Password are for AuthBasic.
	Username, Password string
	// APIKeyIn ("header" or "query"), APIKeyName and APIKeyValue are for
	// AuthAPIKey.
	APIKeyIn, APIKeyName, APIKeyValue string
	// TokenURL, ClientID, ClientSecret and Scopes are for AuthOAuth2 (the
	// client credentials grant) and AuthTokenExchange.
	TokenURL, ClientID, ClientSecret string
	Scopes                           []string
	// Audience and Resource are what a token exchange asks a token for
	// (RFC 8693 audience, RFC 8707 resource); at least one is set.
	Audience, Resource string
	// DeclRange is where the method's block is written.
	DeclRange hcl.Range
}

// ActsForCaller implements adapter.ForCaller: a backend that exchanges the
// caller's token needs it on every call.
func (b *Backend) ActsForCaller() *adapter.CallerNeeds {
	if b.Auth == nil || b.Auth.Kind != AuthTokenExchange {
		return nil
	}
	return &adapter.CallerNeeds{Block: AuthTokenExchange, DeclRange: b.Auth.DeclRange, Token: true}
}

// TLS holds client TLS settings. File paths are absolute or relative to
// the working directory, already resolved against the config file.
type TLS struct {
	CAFile, CertFile, KeyFile string
	InsecureSkipVerify        bool
}

var _ adapter.Backend = (*Backend)(nil)

// Describe returns the backend's settings without secrets.
func (b *Backend) Describe() map[string]any {
	d := map[string]any{
		"kind":               Kind,
		"name":               b.Name,
		"timeout":            b.Timeout.String(),
		"max_response_bytes": b.MaxResponseBytes,
	}
	if b.BaseURL != nil {
		d["base_url"] = b.BaseURL.String()
	}
	if len(b.Headers) > 0 {
		d["headers"] = anyList(check.SortedKeys(b.Headers))
	}
	if b.Retry != nil {
		statuses := make([]any, len(b.Retry.OnStatus))
		for i, s := range b.Retry.OnStatus {
			statuses[i] = s
		}
		d["retry"] = map[string]any{
			"attempts":  b.Retry.Attempts,
			"min_wait":  b.Retry.MinWait.String(),
			"max_wait":  b.Retry.MaxWait.String(),
			"on_status": statuses,
			"methods":   anyList(b.Retry.Methods),
		}
	}
	if a := b.Auth; a != nil {
		auth := map[string]any{"kind": a.Kind}
		switch a.Kind {
		case AuthAPIKey:
			auth["in"], auth["name"] = a.APIKeyIn, a.APIKeyName
		case AuthOAuth2:
			auth["token_url"], auth["scopes"] = a.TokenURL, anyList(a.Scopes)
		case AuthTokenExchange:
			auth["token_url"], auth["scopes"] = a.TokenURL, anyList(a.Scopes)
			if a.Audience != "" {
				auth["audience"] = a.Audience
			}
			if a.Resource != "" {
				auth["resource"] = a.Resource
			}
		}
		d["auth"] = auth
	}
	if t := b.TLS; t != nil {
		d["tls"] = map[string]any{
			"ca_file":              t.CAFile,
			"cert_file":            t.CertFile,
			"insecure_skip_verify": t.InsecureSkipVerify,
		}
	}
	if len(b.ForwardHeaders) > 0 {
		d["forward_headers"] = anyList(b.ForwardHeaders)
		d["forwards_authorization"] = slices.Contains(b.ForwardHeaders, "Authorization")
	}
	return d
}

func anyList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func compileBackend(bb *adapter.BackendBlock) (*Backend, hcl.Diagnostics) {
	s := bb.Scope
	b := &Backend{
		Name:             bb.Name,
		Timeout:          DefaultTimeout,
		MaxResponseBytes: DefaultMaxResponseBytes,
		Retry: &Retry{
			Attempts: 1, MinWait: DefaultRetryMinWait, MaxWait: DefaultRetryMaxWait,
			OnStatus: DefaultRetryStatus, Methods: DefaultRetryMethods,
		},
	}
	content, diags := bb.Body.Content(BackendSchema)
	a := content.Attributes
	var d hcl.Diagnostics

	if raw, known, d := check.String(s, a["base_url"], ""); known {
		diags = append(diags, d...)
		var ud hcl.Diagnostics
		b.BaseURL, ud = parseBaseURL(raw, a["base_url"].Expr.Range(), "base_url")
		diags = append(diags, ud...)
	} else {
		diags = append(diags, d...)
	}

	b.Headers, d = staticHeaders(s, a["headers"])
	diags = append(diags, d...)
	b.Timeout, d = check.Duration(s, a["timeout"], DefaultTimeout)
	diags = append(diags, d...)
	b.MaxResponseBytes, d = check.Int(s, a["max_response_bytes"], DefaultMaxResponseBytes, 1)
	diags = append(diags, d...)
	b.ForwardHeaders, d = forwardHeaders(s, a["forward_headers"])
	diags = append(diags, d...)

	where := fmt.Sprintf("The backend %q", bb.Name)
	blocks := content.Blocks.ByType()
	if blk, d := check.Single(blocks["retry"], "retry", where); blk != nil {
		diags = append(diags, d...)
		diags = append(diags, decodeRetry(s, blk, b.Retry)...)
	} else {
		diags = append(diags, d...)
	}
	if blk, d := check.Single(blocks["auth"], "auth", where); blk != nil {
		diags = append(diags, d...)
		b.Auth, d = decodeAuth(s, blk)
		diags = append(diags, d...)
	} else {
		diags = append(diags, d...)
	}
	if blk, d := check.Single(blocks["tls"], "tls", where); blk != nil {
		diags = append(diags, d...)
		b.TLS, d = decodeTLS(s, blk)
		diags = append(diags, d...)
	} else {
		diags = append(diags, d...)
	}
	return b, diags
}

// parseBaseURL checks an absolute http or https URL with a host and
// without credentials, query or fragment.
func parseBaseURL(raw string, r hcl.Range, name string) (*url.URL, hcl.Diagnostics) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, hcl.Diagnostics{check.Error("Invalid URL",
			fmt.Sprintf("%s must be an absolute http or https URL such as \"https://api.example.com/v1\": %s.", name, unwrapURLError(err)), r)}
	}
	var diags hcl.Diagnostics
	switch {
	case u.Scheme == "":
		diags = append(diags, check.Error("Invalid URL",
			fmt.Sprintf("%s must be an absolute URL that starts with http:// or https://, not %q.", name, raw), r))
	case u.Scheme != "http" && u.Scheme != "https":
		diags = append(diags, check.Error("Unsupported URL scheme",
			fmt.Sprintf("%s must use http or https, not %q. Other schemes are not supported.", name, u.Scheme), r))
	case u.Host == "":
		diags = append(diags, check.Error("Invalid URL",
			fmt.Sprintf("%s has no host. Write it as \"%s://host[:port]/path\".", name, u.Scheme), r))
	}
	if u.User != nil {
		diags = append(diags, check.Error("Credentials in URL",
			fmt.Sprintf("%s must not hold a user name or password. Use an auth block instead, for example auth { basic { username = ..., password = env(\"API_PASSWORD\") } }.", name), r))
	}
	if u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(raw, "?") {
		diags = append(diags, check.Error("Query in base URL",
			fmt.Sprintf("%s must not hold a query string or fragment. Pass query parameters with query = { ... } in each call, or an api_key auth block.", name), r))
	}
	if diags.HasErrors() {
		return nil, diags
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = strings.TrimSuffix(u.RawPath, "/")
	return u, nil
}

func unwrapURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}

func staticHeaders(s *adapter.Scope, attr *hcl.Attribute) (map[string]string, hcl.Diagnostics) {
	m, keys, _, diags := check.StringMap(s, attr)
	if m == nil {
		return nil, diags
	}
	// Report a duplicate at its later spelling in the source.
	slices.SortStableFunc(keys, func(x, y string) int {
		return check.KeyRange(attr, x).Start.Byte - check.KeyRange(attr, y).Start.Byte
	})
	out := map[string]string{}
	for _, k := range keys {
		if !validHeaderName(k) {
			diags = append(diags, badHeaderName(k, check.KeyRange(attr, k)))
			continue
		}
		ck := textproto.CanonicalMIMEHeaderKey(k)
		if _, dup := out[ck]; dup {
			diags = append(diags, check.Error("Duplicate header",
				fmt.Sprintf("The header %q is set twice (header names are case-insensitive). Keep one.", ck), check.KeyRange(attr, k)))
			continue
		}
		out[ck] = m[k]
	}
	return out, diags
}

func forwardHeaders(s *adapter.Scope, attr *hcl.Attribute) ([]string, hcl.Diagnostics) {
	names, ranges, _, diags := check.StringList(s, attr)
	var out []string
	for i, n := range names {
		switch {
		case n == "*":
			diags = append(diags, check.Error("Invalid header name",
				"forward_headers lists header names one by one; \"*\" is not allowed, so that credentials are never forwarded by accident.", ranges[i]))
		case !validHeaderName(n):
			diags = append(diags, badHeaderName(n, ranges[i]))
		default:
			c := textproto.CanonicalMIMEHeaderKey(n)
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out, diags
}

func badHeaderName(name string, r hcl.Range) *hcl.Diagnostic {
	return check.Error("Invalid header name",
		fmt.Sprintf("%q is not a valid HTTP header name. Header names are letters, digits and !#$%%&'*+-.^_`|~, as in \"X-Request-Id\".", name), r)
}

// validHeaderName reports whether name is an HTTP token (RFC 9110 §5.6.2).
func validHeaderName(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range []byte(name) {
		isAlnum := c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !isAlnum && !strings.ContainsRune("!#$%&'*+-.^_`|~", rune(c)) {
			return false
		}
	}
	return true
}

func decodeRetry(s *adapter.Scope, blk *hcl.Block, r *Retry) hcl.Diagnostics {
	content, diags := blk.Body.Content(retrySchema)
	a := content.Attributes
	attempts, d := check.Int(s, a["attempts"], DefaultRetryAttempts, 1)
	diags = append(diags, d...)
	r.Attempts = int(attempts)
	r.MinWait, d = check.Duration(s, a["min_wait"], DefaultRetryMinWait)
	diags = append(diags, d...)
	r.MaxWait, d = check.Duration(s, a["max_wait"], DefaultRetryMaxWait)
	diags = append(diags, d...)
	if r.MinWait > r.MaxWait && !d.HasErrors() {
		rng := blk.DefRange
		if a["max_wait"] != nil {
			rng = a["max_wait"].Expr.Range()
		} else if a["min_wait"] != nil {
			rng = a["min_wait"].Expr.Range()
		}
		diags = append(diags, check.Error("Invalid retry wait",
			fmt.Sprintf("max_wait (%s) must not be shorter than min_wait (%s).", r.MaxWait, r.MinWait), rng))
	}
	if codes, ranges, known, d := check.NumberList(s, a["on_status"]); known {
		diags = append(diags, d...)
		r.OnStatus = nil
		for i, c := range codes {
			if c < 100 || c > 599 {
				diags = append(diags, check.Error("Invalid HTTP status",
					fmt.Sprintf("%d is not an HTTP status code; on_status lists codes from 100 to 599, such as 429 or 503.", c), ranges[i]))
				continue
			}
			r.OnStatus = append(r.OnStatus, int(c))
		}
	} else {
		diags = append(diags, d...)
	}
	if methods, ranges, known, d := check.StringList(s, a["methods"]); known {
		diags = append(diags, d...)
		r.Methods = nil
		for i, m := range methods {
			if !slices.Contains(Methods, m) {
				diags = append(diags, unknownMethod(m, ranges[i]))
				continue
			}
			r.Methods = append(r.Methods, m)
		}
	} else {
		diags = append(diags, d...)
	}
	return diags
}

func unknownMethod(m string, r hcl.Range) *hcl.Diagnostic {
	return check.Error("Unknown HTTP method",
		fmt.Sprintf("%q is not an HTTP method mcpdecl sends. Use one of %s (in capitals).%s", m, check.Quoted(Methods), rule.DidYouMean(m, Methods)), r)
}

func decodeAuth(s *adapter.Scope, blk *hcl.Block) (*Auth, hcl.Diagnostics) {
	content, diags := blk.Body.Content(authSchema)
	type given struct {
		kind string
		rng  hcl.Range
	}
	var kinds []given
	if attr := content.Attributes["bearer"]; attr != nil {
		kinds = append(kinds, given{AuthBearer, attr.NameRange})
	}
	for _, b := range content.Blocks {
		kinds = append(kinds, given{b.Type, b.DefRange})
	}
	slices.SortFunc(kinds, func(x, y given) int { return x.rng.Start.Byte - y.rng.Start.Byte })
	if len(kinds) == 0 {
		return nil, append(diags, check.Error("Missing auth method",
			"An auth block needs one method: bearer = \"...\", basic { ... }, api_key { ... }, oauth2 { ... } or token_exchange { ... }.", blk.DefRange))
	}
	for _, k := range kinds[1:] {
		diags = append(diags, check.Error("Conflicting auth methods",
			fmt.Sprintf("This auth block already uses %s (line %d). An auth block holds exactly one method; remove this one.", kinds[0].kind, kinds[0].rng.Start.Line), k.rng))
	}
	auth := &Auth{Kind: kinds[0].kind, DeclRange: kinds[0].rng}
	var d hcl.Diagnostics
	switch auth.Kind {
	case AuthBearer:
		auth.Bearer, _, d = check.String(s, content.Attributes["bearer"], "")
		diags = append(diags, d...)
	case AuthBasic:
		c, d := content.Blocks.OfType(AuthBasic)[0].Body.Content(basicSchema)
		diags = append(diags, d...)
		auth.Username, _, d = check.String(s, c.Attributes["username"], "")
		diags = append(diags, d...)
		auth.Password, _, d = check.String(s, c.Attributes["password"], "")
		diags = append(diags, d...)
	case AuthAPIKey:
		c, d := content.Blocks.OfType(AuthAPIKey)[0].Body.Content(apiKeySchema)
		diags = append(diags, d...)
		var known bool
		auth.APIKeyIn, known, d = check.String(s, c.Attributes["in"], "header")
		diags = append(diags, d...)
		if places := []string{"header", "query"}; known && !slices.Contains(places, auth.APIKeyIn) {
			diags = append(diags, check.Error("Invalid API key location",
				fmt.Sprintf("in must be \"header\" or \"query\", not %q.%s", auth.APIKeyIn, rule.DidYouMean(auth.APIKeyIn, places)),
				c.Attributes["in"].Expr.Range()))
		}
		auth.APIKeyName, known, d = check.String(s, c.Attributes["name"], "")
		diags = append(diags, d...)
		if known && auth.APIKeyIn == "header" && !validHeaderName(auth.APIKeyName) {
			diags = append(diags, badHeaderName(auth.APIKeyName, c.Attributes["name"].Expr.Range()))
		} else if known && auth.APIKeyName == "" {
			diags = append(diags, check.Error("Empty API key name", "name is the query parameter that carries the key; it cannot be empty.", c.Attributes["name"].Expr.Range()))
		}
		auth.APIKeyValue, _, d = check.String(s, c.Attributes["value"], "")
		diags = append(diags, d...)
	case AuthOAuth2:
		c, d := content.Blocks.OfType(AuthOAuth2)[0].Body.Content(oauth2Schema)
		diags = append(diags, d...)
		diags = append(diags, decodeTokenClient(s, c, auth)...)
	case AuthTokenExchange:
		diags = append(diags, decodeTokenExchange(s, content.Blocks.OfType(AuthTokenExchange)[0], auth)...)
	}
	return auth, diags
}

// decodeTokenExchange reads a token_exchange block: the token endpoint,
// the backend's client there, and what the exchanged token is for.
func decodeTokenExchange(s *adapter.Scope, blk *hcl.Block, auth *Auth) hcl.Diagnostics {
	c, diags := blk.Body.Content(tokenExchangeSchema)
	diags = append(diags, decodeTokenClient(s, c, auth)...)
	var d hcl.Diagnostics
	auth.Audience, _, d = check.String(s, c.Attributes["audience"], "")
	diags = append(diags, d...)
	var known bool
	auth.Resource, known, d = check.String(s, c.Attributes["resource"], "")
	diags = append(diags, d...)
	if known && auth.Resource != "" {
		if u, err := url.Parse(auth.Resource); err != nil || u.Scheme == "" || u.Host == "" || u.Fragment != "" || strings.Contains(auth.Resource, "#") {
			diags = append(diags, check.Error("Invalid resource",
				fmt.Sprintf("resource is the absolute URI of the API the exchanged token is for (RFC 8707), without a fragment, such as \"https://api.example.com/\", not %q.", auth.Resource),
				c.Attributes["resource"].Expr.Range()))
		}
	}
	if c.Attributes["audience"] == nil && c.Attributes["resource"] == nil && !diags.HasErrors() {
		diags = append(diags, check.Error("Exchanged token for no audience",
			"A token_exchange block says whom the exchanged token is for, so that the API gets a token meant for it and not one valid anywhere: add audience = \"orders-api\" (the name the authorization server knows the API by) or resource = \"https://api.example.com/\".",
			blk.DefRange))
	}
	return diags
}

// decodeTokenClient reads what client credentials and token exchange
// share: the token endpoint, the backend's client there, and the scopes
// it asks for.
func decodeTokenClient(s *adapter.Scope, c *hcl.BodyContent, auth *Auth) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if raw, known, d := check.String(s, c.Attributes["token_url"], ""); known {
		diags = append(diags, d...)
		u, ud := parseTokenURL(raw, c.Attributes["token_url"].Expr.Range())
		diags = append(diags, ud...)
		if u != nil {
			auth.TokenURL = u.String()
		}
	} else {
		diags = append(diags, d...)
	}
	var d hcl.Diagnostics
	auth.ClientID, _, d = check.String(s, c.Attributes["client_id"], "")
	diags = append(diags, d...)
	auth.ClientSecret, _, d = check.String(s, c.Attributes["client_secret"], "")
	diags = append(diags, d...)
	auth.Scopes, _, _, d = check.StringList(s, c.Attributes["scopes"])
	return append(diags, d...)
}

func parseTokenURL(raw string, r hcl.Range) (*url.URL, hcl.Diagnostics) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, hcl.Diagnostics{check.Error("Invalid URL",
			fmt.Sprintf("token_url must be an absolute http or https URL, such as \"https://auth.example.com/oauth/token\", not %q.", raw), r)}
	}
	return u, nil
}

func decodeTLS(s *adapter.Scope, blk *hcl.Block) (*TLS, hcl.Diagnostics) {
	content, diags := blk.Body.Content(tlsSchema)
	a := content.Attributes
	t := &TLS{}
	file := func(name string) string {
		p, known, d := check.String(s, a[name], "")
		diags = append(diags, d...)
		if !known {
			return ""
		}
		p = check.Path(a[name], p)
		if st, err := os.Stat(p); err != nil || st.IsDir() {
			diags = append(diags, check.Error("TLS file not found",
				fmt.Sprintf("%s names %s, which is not a readable file. Paths are relative to the config file.", name, p), a[name].Expr.Range()))
		}
		return p
	}
	t.CAFile = file("ca_file")
	t.CertFile = file("cert_file")
	t.KeyFile = file("key_file")
	switch {
	case a["cert_file"] != nil && a["key_file"] == nil:
		diags = append(diags, check.Error("Missing TLS key file",
			"cert_file sets a client certificate, which needs its private key: add key_file.", a["cert_file"].NameRange))
	case a["key_file"] != nil && a["cert_file"] == nil:
		diags = append(diags, check.Error("Missing TLS certificate file",
			"key_file sets a client key, which needs its certificate: add cert_file.", a["key_file"].NameRange))
	}
	var known bool
	var d hcl.Diagnostics
	t.InsecureSkipVerify, known, d = check.Bool(s, a["insecure_skip_verify"], false)
	diags = append(diags, d...)
	if known && t.InsecureSkipVerify {
		diags = append(diags, check.Warning("Certificate checks disabled",
			"insecure_skip_verify = true disables TLS certificate checks, so anyone on the network path can read and change the traffic, credentials included. Use ca_file to trust a private certificate authority instead.",
			a["insecure_skip_verify"].Expr.Range()))
	}
	return t, diags
}
