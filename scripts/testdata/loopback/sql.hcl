# The sql job of scripts/bench-loopback.sh: one point read of the SQLite
# database that loopbench seed writes, opened read-only.
#
#   mcpdecl serve --http 127.0.0.1:8080 --var db=/tmp/items.db sql.hcl
server {
  name    = "sql"
  version = "1.0.0"
}

variable "db" {
  type        = string
  default     = "items.db"
  description = "The database loopbench seed wrote."
}

backend "sql" "items" {
  driver = "sqlite"
  dsn    = "file:${var.db}?mode=ro"
}

tool "item" {
  description = "One item by id."
  annotations {
    read_only = true
  }
  arg "id" {
    type        = integer
    description = "The item's id, 1 to 1000."
    minimum     = 1
  }
  sql "items" {
    query = "SELECT id, name, price FROM items WHERE id = ${args.id}"
  }
}
