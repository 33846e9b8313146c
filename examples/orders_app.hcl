# The orders database with an app: customer_totals answers with the open
# order totals per customer and links the "dashboard" app, a page that
# hosts supporting MCP Apps show beside the answer. The page charts the
# totals and lists the open orders, each with a Cancel button that calls
# cancel_order through the host. open_order_list and cancel_order are for
# the app only (hosts keep them from the model); cancel_order is marked
# destructive, so a host asks the user before the app may run it.
#
# The page, orders_app.html, is one plain file that loads nothing and needs
# no build: its script speaks the MCP Apps protocol (JSON-RPC over
# postMessage) with the host itself.

server {
  name    = "orders-app"
  version = "1.0.0"
  title   = "Orders, with a dashboard"
}

variable "orders_db" {
  type        = string
  default     = "orders_app.db"
  description = "The SQLite database file, created from orders.sql when missing."
}

backend "sql" "orders" {
  driver    = "sqlite"
  dsn       = "file:${var.orders_db}"
  read_only = false
  max_rows  = 500
  init_sql  = "orders.sql"
}

app "dashboard" {
  uri            = "ui://orders/dashboard"
  name           = "Order dashboard"
  description    = "A chart of the open order totals per customer, and the open orders with a button to cancel each."
  file           = "orders_app.html"
  prefers_border = true
}

tool "customer_totals" {
  title       = "Open order totals"
  description = "Sum and count the open orders of each customer, largest total first."
  annotations {
    read_only = true
  }
  ui {
    app = "dashboard"
  }
  sql "orders" {
    read_only = true
    query     = <<-SQL
      SELECT customer, count(*) AS orders, sum(total) AS total
      FROM orders
      WHERE status = 'open'
      GROUP BY customer
      ORDER BY total DESC, customer
    SQL
  }
  result {
    structured = "{'customers': rows}"
    text       = "join(map(rows, {#.customer + ': ' + string(#.orders) + ' open, ' + string(#.total)}), '\\n')"
  }
}

tool "open_order_list" {
  title       = "Open orders"
  description = "The open orders, oldest first."
  annotations {
    read_only = true
  }
  ui {
    visibility = ["app"]
  }
  sql "orders" {
    read_only = true
    query     = "SELECT id, customer, total, created_at FROM orders WHERE status = 'open' ORDER BY id"
  }
  result {
    structured = "{'orders': rows}"
    text       = "join(map(rows, {string(#.id) + ' ' + #.customer + ' ' + string(#.total)}), '\\n')"
  }
}

tool "cancel_order" {
  title       = "Cancel an order"
  description = "Cancel one open order."
  annotations {
    read_only   = false
    destructive = true
    idempotent  = true
  }
  ui {
    visibility = ["app"]
  }
  arg "id" {
    type        = integer
    description = "The id of the open order to cancel."
    minimum     = 1
  }
  sql "orders" {
    query = "UPDATE orders SET status = 'cancelled' WHERE id = ${args.id} AND status = 'open'"
  }
  error {
    when    = "rows_affected == 0"
    message = "Order {{ args.id }} is not open (or does not exist): nothing was cancelled. Call open_order_list for the open orders."
  }
  result {
    structured = "{'cancelled': args.id}"
    text       = "'Order ' + string(args.id) + ' cancelled.'"
  }
}
