# Calls on behalf of the caller, SQL: every statement runs as the role
# obo_reader_* with the caller's tenant in app.tenant, so the table's
# row-level security policy shows each caller their tenant's rows only.
variable "resource" {
  type = string
}
variable "issuer" {
  type = string
}
variable "dsn" {
  type = string
}
variable "role" {
  type = string
}

auth {
  resource              = var.resource
  authorization_servers = [var.issuer]
  claim "tenant" {
    type     = string
    required = false
  }
}

backend "sql" "db" {
  driver         = "postgres"
  dsn            = var.dsn
  read_only      = false
  max_open_conns = 1
  identity {
    role     = var.role
    settings = { "app.tenant" = auth.claims.tenant }
  }
}

tool "orders" {
  description = "The orders of the caller's tenant."
  sql "db" {
    query     = "SELECT tenant, item FROM orders ORDER BY id"
    read_only = true
  }
}

tool "add_order" {
  description = "Add an order for the caller's tenant."
  arg "item" {
    type = string
  }
  sql "db" {
    query = "INSERT INTO orders (tenant, item) VALUES (current_setting('app.tenant'), ${args.item}) RETURNING tenant, item"
  }
}

tool "session" {
  description = "Who the statement runs as."
  sql "db" {
    query     = "SELECT current_user AS who, current_setting('app.tenant', true) AS tenant"
    read_only = true
  }
}
