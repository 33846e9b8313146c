package auth

import (
	"net/url"
	"strings"
)

// canonicalURI is the form in which resource and issuer identifiers are
// compared: scheme and host in lower case, the scheme's default port
// dropped, no fragment, and no trailing slash on the path (so
// "HTTPS://Example.com:443/mcp/" and "https://example.com/mcp" are the
// same resource). The query, if any, is kept as written. Anything that is
// not an absolute http(s) URL is returned unchanged, so it only ever
// equals itself.
func canonicalURI(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return s
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return s
	}
	host := strings.ToLower(u.Host)
	if scheme == "https" {
		host = strings.TrimSuffix(host, ":443")
	} else {
		host = strings.TrimSuffix(host, ":80")
	}
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	out := scheme + "://" + host + path
	if u.RawQuery != "" {
		out += "?" + u.RawQuery
	}
	return out
}
