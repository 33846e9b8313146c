package auth

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"
)

// ConfigError is one problem New found in a Config. Field names the
// setting in the configuration language's words ("resource",
// "authorization_servers", "algorithms", "introspection.url",
// "static.token", ...) and Index the list item (-1 for a single value), so
// a caller can point at the attribute; the message never repeats a secret.
// New returns all of them joined (errors.Join): use errors.As, or
// Unwrap() []error, to get each one.
type ConfigError struct {
	Field   string
	Index   int
	Message string
}

func (e *ConfigError) Error() string { return "auth: " + e.Field + ": " + e.Message }

type checker struct{ errs []error }

func (c *checker) add(field string, index int, format string, args ...any) {
	c.errs = append(c.errs, &ConfigError{Field: field, Index: index, Message: fmt.Sprintf(format, args...)})
}

func (c *checker) url(field string, index int, s string) {
	if msg := urlProblem(s); msg != "" {
		c.add(field, index, "%s", msg)
	}
}

// check validates cfg and returns every problem found, joined.
func (cfg *Config) check() error {
	c := &checker{}
	c.url("resource", -1, cfg.Resource)
	for i, s := range cfg.AuthorizationServers {
		c.url("authorization_servers", i, s)
	}
	for i, s := range cfg.Issuers {
		c.url("issuers", i, s)
	}
	if cfg.JWKSURL != "" {
		c.url("jwks_url", -1, cfg.JWKSURL)
		if len(cfg.AuthorizationServers) == 0 && len(cfg.Issuers) == 0 {
			c.add("jwks_url", -1, "is given without authorization_servers or issuers, so no token's issuer could be accepted")
		}
	}
	for i, a := range cfg.Algorithms {
		if msg := algorithmProblem(a); msg != "" {
			c.add("algorithms", i, "%s", msg)
		}
	}
	if cfg.Leeway < 0 || cfg.Leeway > maxLeeway {
		c.add("leeway", -1, "%v is out of range; use 1s to %v (0 means the default, %v)", cfg.Leeway, maxLeeway, defaultLeeway)
	}
	for i, sc := range cfg.InitialScopes {
		if len(cfg.ScopesSupported) > 0 && !slices.Contains(cfg.ScopesSupported, sc) {
			c.add("initial_scopes", i, "%q is not one of the supported scopes", sc)
		}
	}
	if in := cfg.Introspection; in != nil {
		c.url("introspection.url", -1, in.URL)
		if in.ClientSecret != "" && in.ClientID == "" {
			c.add("introspection.client_id", -1, "is missing, but a client secret is given")
		}
	}
	c.static(cfg.Static)
	if !cfg.jwtEnabled() && cfg.Introspection == nil && len(cfg.Static) == 0 {
		c.add("auth", -1, "nothing can verify a token; give authorization servers (JWTs), an introspection endpoint or static tokens")
	}
	return errors.Join(c.errs...)
}

func (cfg *Config) jwtEnabled() bool {
	return len(cfg.AuthorizationServers) > 0 || len(cfg.Issuers) > 0 || cfg.JWKSURL != ""
}

// urlProblem describes what keeps s from being an identifier or endpoint
// URL: an absolute http(s) URL without a fragment or credentials. It
// never repeats a URL that holds credentials.
func urlProblem(s string) string {
	u, err := url.Parse(s)
	switch {
	case s == "":
		return "is empty; give an absolute URL such as https://auth.example.com"
	case err != nil:
		return fmt.Sprintf("%q is not a URL", s)
	case u.User != nil:
		return "must not hold credentials (user:password@); they are not repeated here"
	case u.Scheme != "https" && u.Scheme != "http":
		return fmt.Sprintf("%q must be an absolute https:// (or, for local testing, http://) URL", s)
	case u.Host == "":
		return fmt.Sprintf("%q has no host", s)
	case u.Fragment != "" || strings.Contains(s, "#"):
		return fmt.Sprintf("%q must not have a fragment (#...)", s)
	}
	return ""
}

// cleartext tells an http:// URL to a host other than the loopback, where
// OAuth 2.1 requires TLS.
func cleartext(s string) bool {
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "http" {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return false
	}
	ip := net.ParseIP(host)
	return ip == nil || !ip.IsLoopback()
}

func algorithmProblem(a string) string {
	switch {
	case slices.Contains(asymmetricAlgorithms, a):
		return ""
	case strings.EqualFold(a, "none"):
		return `"none" accepts unsigned tokens and is never allowed`
	case strings.HasPrefix(strings.ToUpper(a), "HS"):
		return fmt.Sprintf("%q uses a shared secret, which a public key set cannot verify; use one of %s", a, strings.Join(asymmetricAlgorithms, ", "))
	}
	return fmt.Sprintf("unknown algorithm %q; use one of %s", a, strings.Join(asymmetricAlgorithms, ", "))
}

func (c *checker) static(tokens []StaticToken) {
	names := map[string]bool{}
	values := map[string]string{}
	for i, st := range tokens {
		switch {
		case st.Name == "":
			c.add("static.name", i, "static token #%d has no name", i+1)
		case names[st.Name]:
			c.add("static.name", i, "two static tokens are named %q", st.Name)
		}
		names[st.Name] = true
		switch {
		case len(st.Token) < minStaticTokenLen:
			c.add("static.token", i, "the token of %q is shorter than %d characters; use a long random value", st.Name, minStaticTokenLen)
		case !isToken68(st.Token):
			c.add("static.token", i, "the token of %q holds characters an Authorization: Bearer header cannot carry; use letters, digits and - . _ ~ + /", st.Name)
		}
		if other, dup := values[st.Token]; dup && st.Token != "" {
			c.add("static.token", i, "static tokens %q and %q have the same value", other, st.Name)
		}
		values[st.Token] = st.Name
	}
}
