// Package authtest gives tests authorization servers to get tokens from.
//
// Start runs a real OAuth 2.0 authorization server (the npm package
// oauth2-mock-server, pinned in testdata/authserver and installed by
// scripts/authserver.sh) on 127.0.0.1: it signs JWT access tokens with its
// own keys, serves its metadata (RFC 8414 and OpenID Connect) and JWKS,
// the authorization endpoint with PKCE (approving at once, for the user
// "johndoe"), dynamic client registration (RFC 7591) and introspection
// (RFC 7662), maps the RFC 8707 `resource` parameter to the token's
// audience, and exchanges the tokens it issued (RFC 8693, an extension in
// testdata/authserver/server.mjs: oauth2-mock-server has no such grant)
// for the client as.ExchangeClientID, keeping the subject and its claims
// and naming the client in `act`. Tests skip when it is not installed (and fail under CI, whose
// script installs it).
//
//	as := authtest.Start(t)
//	// configure the server under test with as.Issuer as its authorization
//	// server (and as.ClientID/as.ClientSecret for introspection), then:
//	token := as.Token(t, authtest.TokenRequest{Scope: "tools:read", Resource: []string{serverURL}})
//	user := as.AuthorizationCode(t, authtest.TokenRequest{Resource: []string{serverURL}})
//	as.Rotate(t, true) // a new signing key; the old one leaves the JWKS
//
// A client that runs the authorization code flow itself (such as an MCP
// SDK's) registers at as.Issuer+"/register", follows the authorization
// endpoint's redirect to its redirect_uri to read the code, and exchanges
// it; SetClaims sets claims for the tokens it will get.
//
// NewIssuer is a small in-process issuer for the cases a real server will
// not produce on request: forged key ids, other algorithms, unsigned
// tokens, odd claims. It too serves metadata and a key set over HTTP on
// 127.0.0.1 and counts the fetches.
package authtest
