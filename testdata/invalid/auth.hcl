# The auth block and what refers to it.
server {
  allow_env = ["CI_TOKEN"]
}

auth {
  resource              = "mcp.example.com/mcp" # ERROR: Invalid URL
  authorization_servers = ["https://login.example.com", "ftp://login.example.com"] # ERROR: Invalid URL
  algorithms = [
    "RS256",
    "ES265", # ERROR: Unsupported algorithm
    "HS256", # ERROR: Unsupported algorithm
  ]
  jwks_url              = "https://login.example.com/keys#main" # ERROR: Invalid URL
  leeway                = "1h" # ERROR: Leeway too long

  introspection {
    url           = "https://login.example.com/introspect"
    client_secret = "s3cr3t-value-0123456789" # ERROR: Client secret without a client id
  }

  scope "orders:read" {
    description = "Read orders"
  }
  scope "orders:write" {}
  scope "orders:admin" {} # WARNING: Scope used nowhere

  claim "tenant" {
    type = string
  }
  claim "org-id" { # ERROR: Invalid claim name
    type = string
  }
  claim "level" {
    type = integr # ERROR: Invalid type
  }

  token "ci" {
    value  = "short" # ERROR: Token too short
    scopes = ["orders:reed"] # ERROR: Undeclared scope
  }

  token "placeholder" {
    value = "replace-me-with-a-real-token" # ERROR: Guessable token
  }

  token "counting" {
    value = "abcdefghijklmnopqrstuvwxyz" # ERROR: Guessable token
  }
}

backend "http" "shop" { # ERROR: Client token forwarded
  base_url        = "http://127.0.0.1:9000"
  forward_headers = ["Authorization"]
}

backend "http" "other" { # ERROR: Client token forwarded
  base_url        = "http://127.0.0.1:9001"
  forward_headers = ["Authorization"]
}

tool "orders" {
  description = "List the orders of the caller's tenant."
  scopes      = ["orders:read", "orders:wirte"] # ERROR: Undeclared scope
  http "shop" {
    path  = "/orders"
    query = { tenant = auth.claims.tenat } # ERROR: Reference to unknown field
  }
}

tool "whoami" {
  description = "Say who is calling."
  scopes      = ["orders:write"]
  http "shop" {
    path  = "/whoami"
    query = { who = auth.subjet } # ERROR: Reference to unknown identity field
  }
  result {
    text = "auth.claims.tenant + ' ' + auth.nope" # ERROR: Invalid expression
  }
}
