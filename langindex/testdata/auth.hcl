auth {
  resource              = "https://mcp.example.com/mcp"
  authorization_servers = ["https://login.example.com"]
  initial_scopes        = ["books:read"]
  scope "books:read" {
    description = "Read books"
  }
  claim "tenant" {
    type = string
  }
  token "ci" {
    value  = "ci-token-value-long-enough"
    scopes = ["books:read"]
    claims = { tenant = "acme" }
  }
}

tool "mine" {
  description = "The books of the caller's tenant."
  scopes      = ["books:read"]
  http "api" {
    path = "/tenants/${auth.claims.tenant}/books"
  }
  result {
    text = "{{ auth.claims.tenant }}: {{ len(body) }}"
  }
}
