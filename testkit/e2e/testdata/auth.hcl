# An authenticated server for the end-to-end tests: the caller's orders
# from SQLite, filtered by the token's subject; an HTTP backend that gets
# the caller's tenant, never the caller's token.
variable "resource" {
  type = string
}
variable "issuer" {
  type = string
}
variable "api" {
  type = string
}
variable "db" {
  type = string
}

auth {
  resource              = var.resource
  authorization_servers = [var.issuer]
  algorithms            = ["RS256", "ES256"]

  scope "orders:read" {
    description = "Read your orders"
  }
  scope "orders:admin" {
    description = "Administer every order"
  }

  claim "sub" {
    type = string
  }
  claim "tenant" {
    type = string
  }
}

backend "sql" "db" {
  driver    = "sqlite"
  dsn       = var.db
  read_only = false
}

backend "http" "api" {
  base_url = var.api
}

tool "my_orders" {
  description = "List your orders."
  scopes      = ["orders:read"]
  sql "db" {
    query = "SELECT id, item FROM orders WHERE owner = ${auth.claims.sub} ORDER BY id"
  }
  result {
    structured = "{'owner': auth.subject, 'orders': rows}"
  }
}

tool "tenant_report" {
  description = "The report of your tenant."
  scopes      = ["orders:read"]
  http "api" {
    path    = "/report"
    query   = { tenant = auth.claims.tenant }
    headers = { X-Tenant = auth.claims.tenant, X-User = auth.subject }
  }
}

tool "purge" {
  description = "Delete every order."
  scopes      = ["orders:admin"]
  sql "db" {
    query = "DELETE FROM orders WHERE 0 = 1"
  }
}
