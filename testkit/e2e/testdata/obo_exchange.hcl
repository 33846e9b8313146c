# Calls on behalf of the caller, HTTP: the orders API is called with a
# token the authorization server issues for each caller and the API's
# resource (RFC 8693 token exchange), never with the caller's own token.
variable "resource" {
  type = string
}
variable "issuer" {
  type = string
}
variable "api" {
  type = string
}
variable "exchange_client" {
  type = string
}

server {
  allow_env = ["EXCHANGE_SECRET"]
}

auth {
  resource              = var.resource
  authorization_servers = [var.issuer]
  claim "tenant" {
    type = string
  }
}

backend "http" "orders" {
  base_url = var.api
  auth {
    token_exchange {
      token_url     = "${var.issuer}/token"
      client_id     = var.exchange_client
      client_secret = env("EXCHANGE_SECRET")
      resource      = "${var.api}/"
    }
  }
}

# The authorization server issues no token for this API.
backend "http" "billing" {
  base_url = var.api
  auth {
    token_exchange {
      token_url     = "${var.issuer}/token"
      client_id     = var.exchange_client
      client_secret = env("EXCHANGE_SECRET")
      audience      = "billing-api"
    }
  }
}

tool "whoami" {
  description = "Who the orders API sees."
  http "orders" { path = "/whoami" }
}

tool "invoices" {
  description = "The caller's invoices."
  http "billing" { path = "/invoices" }
}

# A step and the call after it, each exchanged for the same caller.
tool "whoami_twice" {
  description = "Who the orders API sees, asked twice."
  step "first" {
    http "orders" { path = "/whoami" }
  }
  http "orders" { path = "/whoami" }
}

# Runs later, as a task, still for the caller who created it.
tool "whoami_later" {
  description = "Who the orders API sees, as a task."
  task {
    mode = "required"
  }
  http "orders" { path = "/whoami" }
}
