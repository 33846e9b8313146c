// Package authtest gives tests authorization servers to get tokens from.
//
// Start runs a real OAuth 2.0 authorization server (the npm package
// oauth2-mock-server, pinned in testdata/authserver and installed by
// scripts/authserver.sh) on 127.0.0.1: it signs JWT access tokens with its
// own keys, serves its metadata and JWKS, the authorization endpoint with
// PKCE, dynamic client registration and introspection, and maps the
// RFC 8707 `resource` parameter to the token's audience. Tests skip when
// it is not installed (and fail under CI, whose script installs it).
//
// NewIssuer is a small in-process issuer for the cases a real server will
// not produce on request: forged key ids, other algorithms, unsigned
// tokens, odd claims. It too serves metadata and a key set over HTTP on
// 127.0.0.1 and counts the fetches.
package authtest
