package lint

// checkAuth reports an auth block that checks tokens by introspection but
// names no authorization server. Its protected resource metadata then
// lists none, and an MCP client learns where to sign in only from that
// list: it can never get a token by itself, and a user is left with a 401
// and nowhere to go. Static tokens alone are not reported: they are for
// service accounts and CI, which are handed their token.
func (c *checker) checkAuth() {
	a := c.cfg.Auth
	if a == nil || len(a.Introspection) == 0 || a.AuthorizationServers != nil {
		return
	}
	c.report(CodeUndiscoverableAuth, nil, a.Introspection[0].DeclRange,
		"The auth block checks tokens by introspection but names no authorization_servers, so the server's protected resource metadata lists none and MCP clients cannot find where to get a token. Add authorization_servers = [\"https://login.example.com\"] (the server that issues the tokens this endpoint introspects), or ignore MCPD701 in the server's lint block when every client is handed its token.")
}
