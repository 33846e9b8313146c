tool "other" {
  description = "Another tool in another file."
  arg "query" {
    type = string
  }
  shell {
    backend = "tools"
    command = ["echo", "--", args.query, var.base_url]
  }
  result {
    structured = "args.query"
  }
}

backend "shell" "tools" {
}
