package auth

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// metadataURLs are the places an issuer's metadata is looked for, in the
// order the MCP authorization specification gives: RFC 8414's
// oauth-authorization-server, then OpenID Connect's openid-configuration,
// each with the well-known segment inserted before the issuer's path, and
// for an issuer with a path also OpenID Connect's appended form.
func metadataURLs(issuer string) ([]string, error) {
	u, err := url.Parse(issuer)
	if err != nil {
		return nil, err
	}
	origin := u.Scheme + "://" + u.Host
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	if path == "" {
		return []string{
			origin + "/.well-known/oauth-authorization-server",
			origin + "/.well-known/openid-configuration",
		}, nil
	}
	return []string{
		origin + "/.well-known/oauth-authorization-server" + path,
		origin + "/.well-known/openid-configuration" + path,
		origin + path + "/.well-known/openid-configuration",
	}, nil
}

// discoverJWKS reads the issuer's metadata and returns its jwks_uri. A
// metadata document must name the issuer it was fetched for (RFC 8414
// §3.3), or it is not believed.
func (v *Verifier) discoverJWKS(ctx context.Context, issuer string) (string, error) {
	urls, err := metadataURLs(issuer)
	if err != nil {
		return "", err
	}
	var tried []string
	for _, u := range urls {
		var meta struct {
			Issuer  string `json:"issuer"`
			JWKSURI string `json:"jwks_uri"`
		}
		err := v.getJSON(ctx, u, &meta)
		if errors.Is(err, errNotFound) {
			tried = append(tried, u)
			continue
		}
		if err != nil {
			return "", err
		}
		if canonicalURI(meta.Issuer) != canonicalURI(issuer) {
			return "", fmt.Errorf("the metadata at %s names the issuer %q, not %q", u, meta.Issuer, issuer)
		}
		if msg := urlProblem(meta.JWKSURI); msg != "" {
			return "", fmt.Errorf("the metadata at %s: jwks_uri %s", u, msg)
		}
		return meta.JWKSURI, nil
	}
	return "", fmt.Errorf("no authorization server metadata for %s (tried %s)", issuer, strings.Join(tried, ", "))
}
