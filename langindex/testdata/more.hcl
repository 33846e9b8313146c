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

tool "remove" {
  description = "Remove a thing once the user agrees, twice."
  arg "id" {
    type = string
  }
  elicit {
    key              = "agree"
    message          = "Remove ${args.id}?"
    requested_schema = { type = "object", properties = { ok = { type = "boolean" } } }
  }
  elicit {
    round            = 2
    message          = "Really remove ${args.id}?"
    requested_schema = { type = "object", properties = { sure = { type = "boolean" } } }
  }
  shell {
    backend = "tools"
    command = ["echo", "--", args.id]
  }
  error {
    when    = "answers.agree.content?.ok != true"
    message = "Not removed: {{ answers.agree.action }}, {{ answers.elicit2.action }}"
  }
}

resource "policy" {
  uri  = "library://policy"
  text = "Books are lent for three weeks."
}
