# Tests of orders_app.hcl: each test gets a fresh SQLite database built from
# orders.sql.

test "open totals per customer" {
  call = tool.customer_totals
  expect {
    structured = {
      "customers[0].customer" = "Ada", "customers[0].orders" = 2, "customers[0].total" = 180.5,
      "customers[1].customer" = "Chen", "customers[2].customer" = "Brian",
    }
  }
}

test "open orders for the app" {
  call = tool.open_order_list
  expect {
    structured = { "orders[0].id" = 1, "orders[3].id" = 8 }
  }
}

test "cancel an open order" {
  call = tool.cancel_order
  args = { id = 8 }
  expect {
    text       = "Order 8 cancelled."
    structured = { cancelled = 8 }
  }
}

test "an order that is not open stays as it is" {
  call = tool.cancel_order
  args = { id = 4 }
  expect {
    is_error = true
    text     = { contains = "Order 4 is not open" }
  }
}
