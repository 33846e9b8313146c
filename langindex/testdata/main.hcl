variable "base_url" {
  type    = string
  default = "http://127.0.0.1:3000"
}

locals {
  page = 20
}

backend "http" "api" {
  base_url = var.base_url
}

tool "search" {
  description = "Find books."
  arg "query" {
    type = string
  }
  arg "limit" {
    type    = number
    default = local.page
  }
  step "lookup" {
    when = "args.query != \"\" && args.limit > 0"
    http "api" {
      path  = "/books"
      query = { q = args.query, n = args.limit }
    }
  }
  http "api" {
    path = "/books/${steps.lookup.body.id}"
  }
  error {
    when    = "status == 404 and args.query matches '^x'"
    message = "No book \u00e9\"{{ args.query }}\" in {{ len(steps.lookup.body) }}"
  }
  result {
    text = <<-EOT
      {{ len(body) }} books for {{ args.query }}
    EOT
  }
  ui {
    app = "dash"
  }
}

app "dash" {
  uri  = "ui://books/dash"
  html = "<p>books</p>"
}

toolset "books" {
  tools = ["search", "other", "oth*"]
}

limit "per_caller" {
  per   = "caller"
  rate  = "60/minute"
  tools = ["search"]
}

resource_template "book" {
  uri_template = "books://{isbn}{?lang}"
  arg "isbn" {
    type = string
  }
  http "api" {
    path  = "/books/${args.isbn}"
    query = { lang = args.lang }
  }
  result {
    structured = "{'isbn': args.isbn, 'lang': args.lang}"
  }
}

prompt "plan" {
  arg "query" {
  }
  message "user" {
    text = "Plan ${args.query} in ${local.page} books."
  }
  message "user" {
    resource {
      uri = "library://policy"
    }
  }
}
