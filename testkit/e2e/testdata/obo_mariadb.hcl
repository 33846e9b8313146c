# Calls on behalf of the caller, MariaDB: every statement runs with the
# caller's tenant in the user variable @tenant (set for the statement,
# set back to NULL after it), and the view my_orders shows the rows of
# @tenant only (through caller_tenant(): a view may not read a user
# variable itself).
variable "resource" {
  type = string
}
variable "issuer" {
  type = string
}
variable "dsn" {
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
  driver         = "mysql"
  dsn            = var.dsn
  read_only      = false
  max_open_conns = 1
  identity {
    settings = { tenant = auth.claims.tenant }
  }
}

tool "orders" {
  description = "The orders of the caller's tenant, through the view."
  sql "db" {
    query     = "SELECT tenant, item FROM my_orders ORDER BY id"
    read_only = true
  }
}

tool "orders_query" {
  description = "The orders of the caller's tenant, the query filtering on @tenant."
  sql "db" {
    query     = "SELECT tenant, item FROM orders WHERE tenant = @tenant ORDER BY id"
    read_only = true
  }
}

tool "add_order" {
  description = "Add an order for the caller's tenant."
  arg "item" {
    type = string
  }
  sql "db" {
    query = "INSERT INTO orders (tenant, item) VALUES (@tenant, ${args.item}) RETURNING tenant, item"
  }
}

tool "session" {
  description = "The statement's @tenant."
  sql "db" {
    query     = "SELECT @tenant AS tenant"
    read_only = true
  }
}
