# Mistakes in tool blocks and their result and error rules.
backend "http" "api" {
  base_url = "http://127.0.0.1:9"
}

tool "bad name!" { # ERROR: Invalid tool name
  description = "Bad name."
  result {
    text = "'x'"
  }
}

tool "nothing" { # ERROR: Missing call block
  description = "Does nothing."
}

tool "twice" {
  description = "Two calls."
  http "api" {
    path = "/a"
  }
  http "api" { # ERROR: More than one call block
    path = "/b"
  }
}

tool "results" {
  description = "Two result blocks."
  result {
    text = "'a'"
  }
  result { # ERROR: Duplicate result block
    text = "'b'"
  }
}

tool "empty_result" {
  description = "An empty result block."
  result { # ERROR: Empty result block
  }
}

tool "static_error" {
  description = "An error rule with no call."
  result {
    text = "'a'"
  }
  error { # ERROR: Error rule without a call
    when    = "true"
    message = "never"
  }
}

tool "types" {
  description = "Type errors in expr-lang."
  arg "id" {
    type = integer
  }
  timeout = "soon" # ERROR: Invalid duration
  annotations {
    read_only   = true
    destructive = true # ERROR: Contradicting annotations
  }
  http "api" {
    path = "/items/${args.id}"
  }
  error {
    when    = "status == '404'" # ERROR: Invalid expression
    message = "No item {{ args.id" # ERROR: Unclosed template piece
  }
  error {
    when    = "status" # ERROR: Invalid expression
    message = "Failed with ${args.id}" # ERROR: Interpolation in expr-lang
  }
  result {
    structured    = "body"
    output_schema = { type = "array" } # ERROR: Invalid output schema
  }
}

tool "search" {
  description = "First."
  result {
    text = "'a'"
  }
}

tool "search" { # ERROR: Duplicate tool name
  description = "Second."
  result {
    text = "'b'"
  }
}

tool "unknown_block" {
  description = "A misspelt block."
  http "api" {
    path = "/x"
  }
  reslt { # ERROR: Unsupported block type
    text = "'a'"
  }
}

tool "half_rule" {
  description = "An error rule without its condition."
  http "api" {
    path = "/x"
  }
  error { # ERROR: Missing required argument
    message = "never shown"
  }
  validation { # ERROR: Missing required argument
    condition = true
  }
}

tool "bad_content" {
  description = "Content blocks with mistakes."
  content "picture" { # ERROR: Unknown content kind
    data = "x"
  }
  content "image" { # ERROR: Missing required argument
    data = "iVBORw0KGgo="
  }
  content "text" {
    text = "hi"
    uri  = "x://y" # ERROR: Unsupported argument
  }
}

tool "content_and_call" {
  description = "Content and a call."
  http "api" {
    path = "/x"
  }
  content "text" { # ERROR: Content blocks with a call
    text = "hi"
  }
}

tool "schema_twice" {
  description = "input_schema and arg blocks."
  input_schema = { type = "object", properties = { a = { type = "string" } } } # ERROR: Arguments declared twice
  arg "b" {
    type = string
  }
  result {
    text = "'x'"
  }
}

tool "schema_not_object" {
  description = "input_schema of an array."
  input_schema = { type = "array" } # ERROR: Invalid input schema
  result {
    text = "'x'"
  }
}

tool "bad_elicit" {
  description = "An elicit block with a bad schema."
  elicit {
    message          = "Sure?"
    requested_schema = { type = "array" } # ERROR: Invalid requested schema
  }
  result {
    text = "elicit.action"
  }
}

tool "bad_questions" {
  description = "Questions with mistakes."
  elicit {
    key              = "q"
    message          = "First?"
    requested_schema = { type = "object", properties = { a = { type = "string" } } }
  }
  sample {
    key    = "q" # ERROR: Duplicate question key
    prompt = "Second?"
  }
  roots {
    round = 0 # ERROR: Invalid round
  }
  result {
    text = "answers.q.action"
  }
}

tool "bad_header" {
  description = "An x-mcp-header on a number."
  input_schema = { type = "object", properties = { n = { type = "number", "x-mcp-header" = "N" } } } # ERROR: Invalid x-mcp-header
  result {
    text = "'x'"
  }
}

tool "closed_cut" {
  description = "max_items with an output schema that forbids truncated."
  result {
    structured    = "{'items': [1, 2, 3]}"
    max_items     = 2 # ERROR: max_items needs truncated in the output schema
    output_schema = { type = "object", properties = { items = { type = "array" } }, additionalProperties = false }
  }
}

tool "open_cut" {
  description = "max_items with an output schema that declares truncated."
  result {
    structured    = "{'items': [1, 2, 3]}"
    max_items     = 2
    output_schema = { type = "object", properties = { items = { type = "array" }, truncated = { type = "boolean" } }, additionalProperties = false }
  }
}

tool "unquoted_rule" {
  description = "An error rule written without quotes."
  error {
    when    = status == 404 # ERROR: Expected a quoted string
    message = "Not found."
  }
  error {
    when    = "status == 500"
    message = "{{ body.name }} lives {{ body.city in {{ body.country }}" # ERROR: Unclosed template piece
  }
  error {
    when    = "status == 429 && headers['Retry-After'] != ''" # ERROR: Invalid expression
    message = "Busy; retry after {{ headers.Link }}." # ERROR: Invalid expression
  }
  http "api" {
    path = "/x"
  }
}

tool "optional_in_path" {
  description = "An optional argument without a default as a path segment."
  arg "id" {
    type     = string
    required = false
  }
  arg "kind" {
    type     = string
    required = false
    default  = "all"
  }
  http "api" {
    path = "/items/${args.id}/${args.kind}" # WARNING: Optional argument in path
  }
}

tool "option_injection" {
  description = "A free-form argument as an operand before any --."
  arg "path" {
    type    = string
    pattern = "^[^/]"
  }
  shell {
    command = ["ls", args.path] # WARNING: Argument may be read as an option
  }
}

tool "computed_env" {
  description = "Environment variable names taken from an argument."
  arg "vars" {
    type = map(string)
  }
  shell {
    command = ["git", "status"]
    env     = args.vars # ERROR: Computed environment names
  }
}

tool "option_after_flag" {
  description = "A free-form argument after a flag that takes no value."
  arg "rev" {
    type = string
  }
  shell {
    command = ["git", "log", "--oneline", args.rev] # WARNING: Argument may be read as an option
  }
}

tool "script_on_stdin" {
  description = "A shell reading its script from an argument on stdin."
  arg "text" {
    type = string
  }
  shell {
    command = ["sh"]
    stdin   = args.text # ERROR: Arguments run as code
  }
}
