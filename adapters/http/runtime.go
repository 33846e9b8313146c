package httpadapter

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/tokenclient"
	"github.com/mcpdecl/mcpdecl/internal/regularfile"
	"github.com/mcpdecl/mcpdecl/internal/rule"
)

// MaxRedirects is how many redirects a call follows, all within the
// backend's scheme and host.
const MaxRedirects = 10

// userAgent is sent unless the backend's or the call's headers set one.
const userAgent = "mcpdecl"

// runtime is what a backend needs to make calls: one http.Client (and so
// one connection pool) shared by every call that names the backend.
type runtime struct {
	client    *http.Client
	transport *http.Transport
	base      *url.URL
	// origin is "scheme://host" of the base URL, prefix is origin plus the
	// base path, escaped.
	origin, prefix string
	// header holds the backend's headers and static authentication.
	header http.Header
	// apiKeyQuery is the "name=value" query pair of an API key sent in the
	// query, escaped; empty otherwise.
	apiKeyQuery string
	// secrets are strings that must never appear in messages.
	secrets []string
	// answerSecrets are secrets with the forms they take inside JSON
	// strings, for cleaning answers.
	answerSecrets []string
	oauth         *tokenSource
	// exchange gets each caller's token (token_exchange); nil otherwise.
	exchange *exchanger
}

var (
	_ adapter.Opener = (*Backend)(nil)
)

// Open builds the backend's HTTP client: it reads the TLS files and checks
// header values. It opens no connection. Calls build the client on first use
// when Open was not called.
func (b *Backend) Open(context.Context) error {
	_, err := b.runtime()
	return err
}

// Close closes the idle connections of the backend's client. Calls made
// after Close fail.
func (b *Backend) Close() error {
	b.once.Do(func() { b.err = fmt.Errorf("backend %q is closed", b.Name) })
	if b.rt != nil {
		b.rt.transport.CloseIdleConnections()
	}
	return nil
}

func (b *Backend) runtime() (*runtime, error) {
	b.once.Do(func() { b.rt, b.err = b.build() })
	return b.rt, b.err
}

func (b *Backend) build() (*runtime, error) {
	if b.BaseURL == nil {
		return nil, fmt.Errorf("backend %q: base_url is not known", b.Name)
	}
	tlsConfig, err := b.tlsConfig()
	if err != nil {
		return nil, fmt.Errorf("backend %q: %w", b.Name, err)
	}
	base := *b.BaseURL
	rt := &runtime{
		base:   &base,
		origin: base.Scheme + "://" + base.Host,
		header: http.Header{},
	}
	rt.prefix = rt.origin + base.EscapedPath()
	rt.transport = &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   32,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		TLSClientConfig:       tlsConfig,
	}
	var carrier http.RoundTripper = rt.transport
	if b.WrapTransport != nil {
		carrier = b.WrapTransport(carrier)
	}
	hc := &http.Client{Transport: carrier, CheckRedirect: rt.checkRedirect}
	rt.client = hc // Invoke retries itself: see retry.go.

	for name, v := range b.Headers {
		if badHeaderValue(v) {
			return nil, fmt.Errorf("backend %q: the value of header %s holds a line break or another control character (a trailing newline in an environment variable, perhaps)", b.Name, name)
		}
		rt.header.Set(name, v)
		if isSecretHeader(name, v) {
			rt.secrets = append(rt.secrets, secretParts(v)...)
		}
	}
	if rt.header.Get("User-Agent") == "" {
		rt.header.Set("User-Agent", userAgent)
	}
	if a := b.Auth; a != nil {
		var value string
		switch a.Kind {
		case AuthBearer:
			value = a.Bearer
			rt.header.Set("Authorization", "Bearer "+a.Bearer)
		case AuthBasic:
			value = a.Password
			rt.header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(a.Username+":"+a.Password)))
			rt.secrets = append(rt.secrets, base64.StdEncoding.EncodeToString([]byte(a.Username+":"+a.Password)))
		case AuthAPIKey:
			value = a.APIKeyValue
			if a.APIKeyIn == "query" {
				rt.apiKeyQuery = url.QueryEscape(a.APIKeyName) + "=" + url.QueryEscape(a.APIKeyValue)
				rt.secrets = append(rt.secrets, url.QueryEscape(a.APIKeyValue))
			} else {
				rt.header.Set(a.APIKeyName, a.APIKeyValue)
			}
		case AuthOAuth2:
			value = a.ClientSecret
			rt.oauth = newTokenSource(a, carrier, b.Timeout)
		case AuthTokenExchange:
			value = a.ClientSecret
			rt.exchange = newExchanger(a, carrier, b.Timeout)
		}
		if badHeaderValue(value) {
			return nil, fmt.Errorf("backend %q: the %s credential holds a line break or another control character (a trailing newline in an environment variable, perhaps)", b.Name, a.Kind)
		}
		rt.secrets = append(rt.secrets, value)
		if a.Kind == AuthBasic {
			rt.secrets = append(rt.secrets, a.Username+":"+a.Password)
		}
	}
	rt.answerSecrets = withEscapedForms(rt.secrets)
	return rt, nil
}

// Credentials returns the texts the backend authenticates with (secret
// header values, the auth block's token, password, key or client
// secret), which must never be written anywhere: mcpdecl test removes
// them from the answers it records.
func (b *Backend) Credentials() ([]string, error) {
	rt, err := b.runtime()
	if err != nil {
		return nil, err
	}
	return append([]string(nil), rt.secrets...), nil
}

func (b *Backend) tlsConfig() (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	t := b.TLS
	if t == nil {
		return cfg, nil
	}
	if t.CAFile != "" {
		pem, err := regularfile.Read(t.CAFile)
		if err != nil {
			return nil, fmt.Errorf("tls ca_file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("tls ca_file %s holds no PEM certificate", t.CAFile)
		}
		cfg.RootCAs = pool
	}
	if t.CertFile != "" || t.KeyFile != "" {
		cert, err := loadKeyPair(t.CertFile, t.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("tls client certificate: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	cfg.InsecureSkipVerify = t.InsecureSkipVerify
	return cfg, nil
}

// redirectError is a redirect the client refused to follow.
type redirectError struct {
	host    string // the other host; empty when there were too many
	tooMany bool
}

func (e *redirectError) Error() string {
	if e.tooMany {
		return fmt.Sprintf("stopped after %d redirects", MaxRedirects)
	}
	return "refused a redirect to another host: " + e.host
}

// checkRedirect follows at most MaxRedirects redirects, each to the
// backend's own scheme and host.
func (rt *runtime) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > MaxRedirects {
		return &redirectError{tooMany: true}
	}
	if !sameOrigin(req.URL, rt.base) {
		return &redirectError{host: req.URL.Scheme + "://" + req.URL.Host}
	}
	return nil
}

// sameOrigin reports whether u has the scheme and host (with the port,
// defaults filled in) of base.
func sameOrigin(u, base *url.URL) bool {
	return strings.EqualFold(u.Scheme, base.Scheme) &&
		strings.EqualFold(u.Hostname(), base.Hostname()) &&
		portOf(u) == portOf(base)
}

func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}

// redact replaces every secret in s.
func (rt *runtime) redact(s string) string { return rule.Redact(s, rt.secrets) }

// redactErr returns err with the URL of a *url.Error redacted, so that
// whoever logs it does not log an API key sent in the query.
func (rt *runtime) redactErr(err error) error {
	var ue *url.Error
	if rt.apiKeyQuery == "" || !errors.As(err, &ue) {
		return err
	}
	return &url.Error{Op: ue.Op, URL: rt.redact(ue.URL), Err: ue.Err}
}

// badHeaderValue reports whether v holds a control character other than
// a tab: CR and LF would end the header and start another.
func badHeaderValue(v string) bool { return tokenclient.BadHeaderValue(v) }

// isSecretHeader reports whether a backend header may carry a credential:
// every header but a few that describe the content, so that a value that
// came from env() is never repeated in a message.
func isSecretHeader(name, value string) bool {
	switch strings.ToLower(name) {
	case "accept", "accept-language", "accept-encoding", "content-type", "user-agent", "cache-control":
		return false
	}
	return len(value) >= 4
}

// secretParts returns a secret header value and, for values like
// "Bearer <token>", the token on its own: an API may echo the bare token.
func secretParts(v string) []string {
	out := []string{v}
	for _, f := range strings.Fields(v) {
		if len(f) >= 8 && f != v {
			out = append(out, f)
		}
	}
	return out
}

// loadKeyPair is tls.LoadX509KeyPair reading only regular files (see
// regularfile): a pipe in their place would hang the backend's start.
func loadKeyPair(certFile, keyFile string) (tls.Certificate, error) {
	certPEM, err := regularfile.Read(certFile)
	if err != nil {
		return tls.Certificate{}, err
	}
	keyPEM, err := regularfile.Read(keyFile)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.X509KeyPair(certPEM, keyPEM)
}
