# Path and query arguments with no pattern, for the injection tests: every
# value reaches the call, and must arrive escaped as one segment or one
# query value.

server {
  name    = "paths"
  version = "0.1.0"
}

variable "base_url" {
  type = string
}

backend "http" "api" {
  base_url = var.base_url
  timeout  = "5s"
}

tool "item" {
  description = "Fetch one item's detail."
  arg "id" {
    type = string
  }
  http "api" {
    path = "/items/${args.id}/detail"
  }
}

tool "find" {
  description = "Find items."
  arg "q" {
    type = string
  }
  http "api" {
    path  = "/find"
    query = { q = args.q, limit = 5 }
  }
}

resource_template "item" {
  uri_template = "items://{id}"
  name         = "Item"
  mime_type    = "application/json"
  arg "id" {
    description = "The item's id."
  }
  http "api" {
    path = "/items/${args.id}"
  }
}

tool "slow" {
  description = "Call an endpoint that may take long."
  http "api" {
    path    = "/slow"
    timeout = "300ms"
  }
}
