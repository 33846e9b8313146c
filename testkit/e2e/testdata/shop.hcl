# A plant shop behind an HTTP API, and its customer records in SQLite:
# tools that look something up, decide, then act.

server {
  name    = "shop"
  version = "1.0.0"
}

variable "shop_url" {
  type = string
}

variable "db" {
  type = string
}

backend "http" "shop" {
  base_url = var.shop_url
}

backend "sql" "crm" {
  driver   = "sqlite"
  dsn      = "file:${var.db}"
  init_sql = "shop.sql"
}

tool "place_order" {
  description = "Order plants from the shop, if it has enough in stock."
  arg "plant_id" {
    type    = integer
    minimum = 1
  }
  arg "quantity" {
    type    = integer
    minimum = 1
  }
  step "plant" {
    http "shop" {
      path = "/plants/${args.plant_id}"
    }
    error {
      when    = "status == 404"
      message = "There is no plant {{ args.plant_id }}. Search for plants first."
    }
    error {
      when    = "body.stock < args.quantity"
      message = "No '{{ body.name }}' plants are in stock. Search for another plant."
    }
  }
  http "shop" {
    method = "POST"
    path   = "/orders"
    body   = { plantId = args.plant_id, quantity = args.quantity, price = steps.plant.body.price }
  }
  result {
    text = "Order {{ body.id }} placed: {{ args.quantity }} x {{ steps.plant.body.name }} at {{ steps.plant.body.price }}."
  }
}

tool "order_for_customer" {
  description = "Order one plant for a customer known by name."
  arg "customer" {
    type = string
  }
  arg "plant_id" {
    type    = integer
    minimum = 1
  }
  step "customer" {
    sql "crm" {
      query = "SELECT id, name FROM customers WHERE name = ${args.customer}"
    }
    error {
      when    = "len(rows) == 0"
      message = "No customer is named {{ args.customer }}. Check the spelling."
    }
  }
  http "shop" {
    method = "POST"
    path   = "/orders"
    body   = { plantId = args.plant_id, quantity = 1, customerId = steps.customer.rows[0].id }
  }
  result {
    text = "Order {{ body.id }} placed for customer {{ steps.customer.rows[0].id }}."
  }
}

tool "address_label" {
  description = "Print a customer's address label."
  arg "customer" {
    type = string
  }
  step "customer" {
    sql "crm" {
      query = "SELECT name, city FROM customers WHERE name = ${args.customer}"
    }
    error {
      when    = "len(rows) == 0"
      message = "No customer is named {{ args.customer }}."
    }
  }
  shell {
    command = ["printf", "--", "%s / %s", steps.customer.rows[0].name, steps.customer.rows[0].city]
  }
  result {
    text = "stdout"
  }
}

tool "restock_if_low" {
  description = "Reorder a plant from the grower when the shop has fewer than 3."
  arg "plant_id" {
    type    = integer
    minimum = 1
  }
  step "plant" {
    http "shop" {
      path = "/plants/${args.plant_id}"
    }
  }
  step "reorder" {
    when = "steps.plant.body.stock < 3"
    http "shop" {
      method = "POST"
      path   = "/restock/${steps.plant.body.name}"
    }
  }
  result {
    text = "steps.reorder.status == 0 ? 'Enough in stock.' : 'Reordered.'"
  }
}

tool "post_card" {
  description = "Post a greeting card whose text a command lays out."
  arg "name" {
    type = string
  }
  step "card" {
    shell {
      command = ["printf", "--", "Dear %s, your plants are on their way.", args.name]
    }
  }
  http "shop" {
    method = "POST"
    path   = "/cards"
    body   = { text = steps.card.stdout }
  }
  result {
    text = "'Card sent: ' + steps.card.stdout"
  }
}

tool "compare_plants" {
  description = "Search the shop and compare the plants found: name, stock and price of each."
  arg "query" {
    type = string
  }
  step "search" {
    http "shop" {
      path  = "/plants"
      query = { q = args.query }
    }
    error {
      when    = "len(body?.items ?? []) == 0"
      message = "No plant matches {{ args.query }}."
    }
  }
  step "details" {
    for_each  = steps.search.body.items
    max_items = 3
    http "shop" {
      path = "/plants/${each.value.id}"
    }
    error {
      when    = "status == 404"
      message = "Plant {{ each.value.id }} (result {{ each.index + 1 }}) is gone. Search again."
    }
  }
  result {
    structured = "{'plants': map(steps.details, ({'name': #.body.name, 'stock': #.body.stock, 'price': #.body.price}))}"
  }
}

resource_template "plant" {
  uri_template = "shop://plants/{id}"
  name         = "plant"
  mime_type    = "text/plain"
  arg "id" {
    type = integer
  }
  step "plant" {
    http "shop" {
      path = "/plants/${args.id}"
    }
    error {
      when    = "status == 404"
      message = "There is no plant {{ args.id }}."
    }
  }
  text = "${steps.plant.body.name}: ${steps.plant.body.stock} in stock"
}

prompt "customer_brief" {
  description = "Brief on a customer's orders."
  arg "customer" {
    type = string
  }
  step "orders" {
    sql "crm" {
      query = "SELECT o.plant, o.quantity FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.name = ${args.customer} ORDER BY o.id"
    }
  }
  message "user" {
    text = "Summarize the orders of ${args.customer}: ${jsonencode(steps.orders.rows)}"
  }
}
