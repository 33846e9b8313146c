# The places of the grammar that the examples do not reach.
tool "edges" {
  description = "Not a template: {{ args.x }} and a literal $${x}."
  arg "x" {
    type = list(string)
  }
  step "first" {
    when = "len(args.x) > 0 && args.x[0] != \"skip\""
    http "api" {
      path = "/items/${args.x[0]}"
    }
  }
  http "api" {
    path = "/more"
  }
  result {
    output_schema = { type = "object", properties = { n = { type = "integer" } } }
    structured    = "{'n': len(body)}"
    is_error      = "status >= 500"
    text = <<-EOT
      Found {{ len(body) }} items.
    EOT
  }
}

tool "after" {
  description = "The result block above has ended."
}
