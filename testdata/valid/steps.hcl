# The step examples of docs/language.md, with their backends.
backend "sql" "prices" {
  driver = "sqlite"
  dsn    = "file::memory:"
}
backend "http" "shop" {
  base_url = "http://127.0.0.1:1"
}
backend "sql" "garden" {
  driver    = "sqlite"
  dsn       = "file::memory:"
  read_only = false
}
backend "sql" "reports" {
  driver = "sqlite"
  dsn    = "file::memory:"
}

tool "place_order" {
  description = "Order a plant from the shop, at the price in the price list."
  annotations {
    destructive = false
    idempotent  = false
  }
  arg "plant_id" {
    description = "The plant's id in the shop."
    type        = integer
  }
  arg "quantity" {
    description = "How many plants to order."
    type        = integer
    minimum     = 1
  }
  step "price" {
    sql "prices" {
      query = "SELECT name, price FROM prices WHERE plant_id = ${args.plant_id}"
    }
    error {
      when    = "len(rows) == 0"
      message = "Plant {{ args.plant_id }} is not in the price list. Search for another plant."
    }
  }
  http "shop" {
    method = "POST"
    path   = "/orders"
    body   = { plantId = args.plant_id, quantity = args.quantity, price = steps.price.rows[0].price }
  }
  result {
    text = "Order {{ body.id }} placed: {{ args.quantity }} × {{ steps.price.rows[0].name }}."
  }
}

tool "save_plant" {
  description = "Save a plant to the local list."
  annotations {
    destructive = false
    idempotent  = false
  }
  arg "plant_id" {
    description = "The plant's id in the shop."
    type        = integer
  }
  arg "name" {
    description = "The plant's name, when the shop has none."
    type        = string
    required    = false
  }
  step "plant" {
    when = "args.name == nil"
    http "shop" {
      path = "/plants/${args.plant_id}"
    }
    error {
      when    = "status == 404"
      message = "There is no plant {{ args.plant_id }}. Search for another plant."
    }
  }
  sql "garden" {
    query     = "INSERT INTO plants (id, name) VALUES (${args.plant_id}, ${steps.plant != null ? steps.plant.body.name : args.name})"
    read_only = false
  }
  result {
    text = "Saved plant {{ args.plant_id }}."
  }
}

tool "export_size" {
  description = "Show the size of the last export of a report."
  annotations {
    read_only = true
  }
  arg "report" {
    description = "The report's name, such as sales."
    type        = string
    pattern     = "^[a-z0-9_]+$"
  }
  step "export" {
    sql "reports" {
      query = "SELECT file FROM exports WHERE report = ${args.report} ORDER BY created DESC LIMIT 1"
    }
    error {
      when    = "len(rows) == 0"
      message = "The report {{ args.report }} has never been exported."
    }
  }
  shell {
    command = ["du", "-h", "--", "/srv/exports/${steps.export.rows[0].file}"]
  }
}

prompt "plan_watering" {
  description = "Plan this week's watering."
  step "plants" {
    sql "garden" {
      query = "SELECT name, last_watered FROM plants ORDER BY last_watered"
    }
  }
  message "user" {
    text = "Here are my plants and when each was last watered: ${jsonencode(steps.plants.rows)}. Plan this week's watering."
  }
}

tool "compare_plants" {
  description = "Search the shop and compare the plants found: name, price and stock of each."
  arg "query" {
    description = "Words from the plant's name."
    type        = string
  }
  arg "limit" {
    description = "How many plants to compare."
    type        = integer
    default     = 5
    minimum     = 1
    maximum     = 20
  }
  step "search" {
    http "shop" {
      path  = "/plants"
      query = { q = args.query, limit = args.limit }
    }
    error {
      when    = "len(body?.items ?? []) == 0"
      message = "No plant matches {{ args.query }}. Try another word."
    }
  }
  step "details" {
    for_each  = steps.search.body.items
    max_items = 20
    http "shop" {
      path = "/plants/${each.value.id}"
    }
    error {
      when    = "status == 404"
      message = "Plant {{ each.value.id }} was removed while searching. Search again."
    }
  }
  result {
    structured = "{'plants': map(steps.details, ({'name': #.body.name, 'price': #.body.price, 'stock': #.body.stock}))}"
  }
}
