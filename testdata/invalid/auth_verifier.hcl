# What only the token verifier's own rules catch, reported at the attribute.
auth {
  resource              = "https://mcp.example.com/mcp"
  authorization_servers = ["https://login.example.com"]
  scope "read" {}

  token "spaced" {
    value  = "has spaces, so no Bearer header carries it" # ERROR: Invalid auth block
    scopes = ["read"]
  }
}

tool "t" {
  description = "A tool."
  scopes      = ["read"]
  content "text" {
    text = "ok"
  }
}
