# Mistakes in steps.
backend "http" "shop" {
  base_url = "http://127.0.0.1:1"
}

tool "order" {
  description = "Order a plant."
  arg "id" {
    type = integer
  }
  step "plant" {
    when = "steps.stock.status == 200" # ERROR: Invalid expression
    http "shop" {
      path = "/plants/${steps.plant.body.id}" # ERROR: Step not available here
    }
  }
  step "stock" {
    http "shop" {
      path = "/stock/${steps.plant.bdy}" # ERROR: Reference to unknown field
    }
    error {
      when    = "steps.plant.status == '404'" # ERROR: Invalid expression
      message = "Not found."
    }
  }
  step "plant" { # ERROR: Duplicate step name
    http "shop" {
      path = "/again"
    }
  }
  step "empty" { # ERROR: Missing call block
  }
  http "shop" {
    method  = "POST"
    path    = "/orders"
    headers = steps.plant.body # ERROR: Names from the arguments
    body    = { id = steps.stok.body.id } # ERROR: Reference to unknown step
  }
}
