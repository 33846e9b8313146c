# An orders database on the embedded SQLite driver: a read-only query tool,
# the table's schema as a resource, one order per URI, and a prompt with
# worked examples of safe aggregate questions.

server {
  name         = "orders"
  version      = "1.0.0"
  title        = "Orders"
  instructions = "Use open_orders and order_totals to answer questions about orders; read schema://orders first when unsure of the columns."
}

variable "orders_db" {
  type        = string
  default     = "orders.db"
  description = "The SQLite database file, created from orders.sql when missing."
}

backend "sql" "orders" {
  driver    = "sqlite"
  dsn       = "file:${var.orders_db}"
  read_only = true
  max_rows  = 500
  # created from this SQL file, in one transaction, when the database file is missing
  init_sql = "orders.sql"
}

tool "open_orders" {
  title       = "Orders by status"
  description = "Count orders in one status, per customer."
  annotations {
    read_only = true
  }
  arg "status" {
    type        = string
    description = "The status of the orders to count."
    enum        = ["open", "shipped", "cancelled"]
  }
  sql "orders" {
    # each ${...} becomes a bound parameter, never SQL text
    query    = "SELECT customer, count(*) AS n FROM orders WHERE status = ${args.status} GROUP BY customer ORDER BY customer"
    max_rows = 100
  }
  result {
    structured = "{'customers': rows}"
    text       = "join(map(rows, {#.customer + ': ' + string(#.n)}), '\\n')"
  }
}

tool "order_totals" {
  title       = "Order totals"
  description = "Sum and count orders per customer for orders created on or after a date."
  annotations {
    read_only = true
  }
  arg "since" {
    type        = string
    description = "Earliest creation date, YYYY-MM-DD."
    format      = "date"
  }
  arg "min_total" {
    type        = number
    description = "Only count orders of at least this amount."
    default     = 0
    minimum     = 0
  }
  sql "orders" {
    query = <<-SQL
      SELECT customer, count(*) AS orders, sum(total) AS total
      FROM orders
      WHERE created_at >= ${args.since} AND total >= ${args.min_total}
      GROUP BY customer
      ORDER BY total DESC
    SQL
  }
  error {
    when    = "len(rows) == 0"
    message = "No orders since {{ args.since }} of at least {{ args.min_total }}. Try an earlier date."
  }
}

resource "schema" {
  uri         = "schema://orders"
  name        = "Orders table"
  description = "The CREATE TABLE statement of the orders table."
  mime_type   = "text/plain"
  sql "orders" {
    query = "SELECT sql FROM sqlite_master WHERE name = 'orders'"
  }
  result {
    text = "rows[0].sql"
  }
}

resource_template "order" {
  uri_template = "orders://{id}"
  name         = "Order"
  description  = "One order by its id."
  mime_type    = "application/json"
  arg "id" {
    type        = integer
    description = "The order's id."
    minimum     = 1
  }
  sql "orders" {
    query = "SELECT * FROM orders WHERE id = ${args.id}"
  }
  error {
    when    = "len(rows) == 0"
    message = "There is no order {{ args.id }}."
  }
  result {
    structured = "rows[0]"
  }
}

prompt "aggregate_question" {
  title       = "Ask about order totals"
  description = "Answer a question about orders with the order tools, with worked examples."
  arg "question" {
    description = "The question, e.g. 'Who spent most since October?'"
  }
  message "user" {
    text = "How many open orders does each customer have?"
  }
  message "assistant" {
    text = "I call open_orders with status = \"open\" and report the counts per customer."
  }
  message "user" {
    text = "What did each customer spend since 2026-10-05?"
  }
  message "assistant" {
    text = "I call order_totals with since = \"2026-10-05\" and list the totals, largest first."
  }
  message "user" {
    text = "${args.question} Use only the order tools; never guess numbers."
  }
}
