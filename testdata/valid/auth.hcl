# An authenticated server: scopes per primitive, claims in calls.
server {
  name      = "orders"
  allow_env = ["ORDERS_CI_TOKEN", "INTROSPECTION_SECRET"]
}

auth {
  resource              = "https://mcp.example.com/mcp"
  authorization_servers = ["https://login.example.com"]
  algorithms            = ["RS256", "ES256"]
  leeway                = "30s"
  initial_scopes        = ["orders:read"]

  scope "orders:read" {
    description = "Read orders"
  }
  scope "orders:write" {}

  claim "sub" {
    type = string
  }
  claim "tenant" {
    type = string
  }
  claim "level" {
    type     = integer
    required = false
  }

  introspection {
    url           = "https://login.example.com/introspect"
    client_id     = "mcp"
    client_secret = env("INTROSPECTION_SECRET")
  }

  token "ci" {
    value  = env("ORDERS_CI_TOKEN")
    scopes = ["orders:read"]
    claims = { tenant = "acme", sub = "ci" }
  }
}

backend "sql" "db" {
  driver = "sqlite"
  dsn    = "file::memory:"
}

backend "http" "shop" {
  base_url = "http://127.0.0.1:9000"
}

tool "my_orders" {
  description = "List the caller's orders."
  scopes      = ["orders:read"]
  sql "db" {
    query = "SELECT id, total FROM orders WHERE owner = ${auth.claims.sub} AND tenant = ${auth.claims.tenant}"
  }
  result {
    text = "'Orders of ' + auth.subject + ': ' + string(len(rows))"
  }
}

tool "place_order" {
  description = "Place an order for the caller."
  scopes      = ["orders:write"]
  annotations {
    destructive = false
    idempotent  = false
  }
  arg "item" {
    type        = string
    description = "The catalogue name of the item to order."
  }
  http "shop" {
    method  = "POST"
    path    = "/tenants/${auth.claims.tenant}/orders"
    headers = { X-User = auth.subject }
    body    = { item = args.item, level = auth.claims.level }
  }
}

resource "profile" {
  uri         = "orders://me"
  description = "The caller's own profile: the name the shop knows them by."
  scopes      = ["orders:read"]
  sql "db" {
    query = "SELECT name FROM users WHERE id = ${auth.claims.sub}"
  }
}

prompt "greet" {
  description = "Greet the caller by name and tenant."
  scopes      = ["orders:read"]
  message "user" {
    text = "Say hello to ${auth.subject} of ${auth.claims.tenant}."
  }
}
