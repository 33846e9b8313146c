// Package auth makes an MCP server an OAuth 2.1 resource server: it checks
// the bearer token of every HTTP request and publishes where clients get
// one.
//
// A Verifier (New) accepts three kinds of token:
//
//   - JWT access tokens, verified locally: the signature with a key of the
//     issuer's JSON Web Key Set (selected by `kid`, fetched lazily from
//     the issuer's RFC 8414 or OpenID Connect metadata, cached, refreshed
//     when a token names an unknown key but at most once per
//     KeyRefreshInterval), the algorithm (one of Config.Algorithms, and
//     fitting the key's type), `exp` (required), `nbf` and `iat` (with
//     Config.Leeway), `iss` (one of the accepted issuers) and `aud` (it
//     must name Config.Resource: a token minted for another resource is
//     refused, RFC 8707);
//   - opaque tokens, checked with an RFC 7662 introspection endpoint;
//   - static tokens (API keys), compared in constant time.
//
// Resource and issuer URIs are compared in canonical form: scheme and
// host in lower case, no default port, no trailing slash.
//
// Middleware takes the token from the Authorization header only, answers
// 401 with an RFC 6750 / RFC 9728 challenge (WWW-Authenticate: Bearer
// resource_metadata="…") when it is missing or invalid, and puts the
// caller's Identity in the request context. MetadataHandler serves the
// RFC 9728 protected resource metadata at MetadataPaths.
//
// Tokens and keys never appear in errors, logs or identities: an Error's
// Description is written for the client, and log lines name the reason.
// Verified tokens are cached by their SHA-256, never by value.
//
// # Why golang-jwt and jwkset
//
// No JOSE or cryptography is written here. github.com/golang-jwt/jwt/v5
// parses and verifies the JWS (it is the most used Go JWT library, small,
// with no dependencies, already in this module's graph through the MCP Go
// SDK, and it refuses "none" and algorithms outside an allow-list before
// any key is looked up). github.com/MicahParks/jwkset turns JSON Web Keys
// into crypto public keys (the key set parser golang-jwt's own keyfunc
// companion uses) — its HTTP client is not used: fetching, caching and the
// refresh rate limit are this package's, so that concurrent first requests
// share one fetch and no background goroutine runs before a token arrives.
package auth
