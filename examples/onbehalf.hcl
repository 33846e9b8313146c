# Calls on behalf of the caller. Served over HTTP, every request needs an
# access token for this server, and both backends act for the caller of
# each call instead of with one identity of their own: the orders API
# gets a token the authorization server issues to the caller for the
# API (RFC 8693 token exchange), never the caller's own token, and every
# statement on the reports database runs as the role reports_role with
# the caller's tenant in app.tenant, so the table's row-level security
# policy shows each caller their tenant's rows only. See "Calls on behalf
# of the caller" in README.md.

server {
  name      = "onbehalf"
  version   = "1.0.0"
  title     = "Orders, for the caller"
  allow_env = ["ORDERS_EXCHANGE_SECRET", "REPORTS_DSN"]
}

variable "resource" {
  type        = string
  default     = "http://127.0.0.1:8080/mcp"
  description = "This server's URL as clients reach it: the audience its tokens must carry."
}

variable "issuer" {
  type        = string
  default     = "http://127.0.0.1:9400"
  description = "The authorization server: it issues the callers' tokens and exchanges them."
}

variable "orders_api" {
  type        = string
  default     = "http://127.0.0.1:3000"
  description = "The orders API, which accepts tokens issued for its own URL."
}

variable "exchange_client" {
  type        = string
  default     = "mcpdecl-exchange"
  description = "This server's client at the authorization server, allowed to exchange tokens."
}

variable "reports_role" {
  type        = string
  default     = "orders_reader"
  description = "The PostgreSQL role the reports run as: no superuser, so row-level security applies."
}

auth {
  resource              = var.resource
  authorization_servers = [var.issuer]
  resource_name         = "Orders, for the caller"

  claim "tenant" {
    type        = string
    description = "The company the caller works for."
  }
}

backend "http" "orders" {
  base_url = var.orders_api
  auth {
    token_exchange {
      token_url     = "${var.issuer}/token"
      client_id     = var.exchange_client
      client_secret = env("ORDERS_EXCHANGE_SECRET")
      # the API's URL: the audience of the token the caller's is exchanged for
      resource = "${var.orders_api}/"
    }
  }
}

backend "sql" "reports" {
  driver = "postgres"
  # a local database by default; set REPORTS_DSN to another
  dsn = env("REPORTS_DSN", "postgres://orders_mcp@127.0.0.1:5432/orders?sslmode=disable")
  identity {
    role     = var.reports_role
    settings = { "app.tenant" = auth.claims.tenant }
  }
}

tool "whoami" {
  title       = "Who the API sees"
  description = "Whom the orders API sees calling: the caller, with this server as the actor."
  annotations {
    read_only = true
  }
  http "orders" {
    path = "/whoami"
  }
  result {
    structured = "{'subject': body.sub, 'tenant': body.tenant, 'actor': body.actor}"
    text       = "body.sub + ' of ' + body.tenant + ', through ' + body.actor"
  }
}

tool "tenant_orders" {
  title       = "The tenant's orders"
  description = "The orders of the caller's tenant: the database's row-level security picks them, not the query."
  annotations {
    read_only = true
  }
  sql "reports" {
    query = "SELECT id, tenant, item FROM orders ORDER BY id"
  }
  result {
    structured = "{'orders': rows}"
    text       = "join(map(rows, {#.item}), ', ')"
  }
}
