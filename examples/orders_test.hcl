# Tests of orders.hcl: each test gets a fresh SQLite database built from
# orders.sql (the backend's init_sql), or from the file a sqlite block names.

test "open orders per customer" {
  call = tool.open_orders
  args = { status = "open" }
  expect {
    text       = "Ada: 2\nBrian: 1\nChen: 1"
    structured = { "customers[0].customer" = "Ada", "customers[0].n" = 2 }
  }
}

test "no orders since a late date" {
  call = tool.order_totals
  args = { since = "2031-01-01" }
  expect {
    is_error = true
    text     = { contains = "No orders since 2031-01-01" }
  }
}

test "totals from a small fixture" {
  call = tool.order_totals
  args = { since = "2026-01-01" }
  sqlite "orders" {
    init_sql = "orders_small.sql"
  }
  expect {
    structured = { "rows[0].customer" = "Zoe", "rows[0].total" = 12.5, "rows[0].orders" = 1 }
  }
}

test "schema resource" {
  resource = "schema://orders"
  expect {
    text = { matches = "^CREATE TABLE orders" }
  }
}

test "an order by uri" {
  resource = "orders://2"
  expect {
    structured = { customer = "Ada", total = 35 }
  }
}

test "an order that does not exist" {
  resource = "orders://999"
  expect {
    error = { equals = "There is no order 999." }
  }
}

test "aggregate question prompt" {
  call = prompt.aggregate_question
  args = { question = "Who spent most?" }
  expect {
    text = { contains = "Who spent most? Use only the order tools" }
  }
}
