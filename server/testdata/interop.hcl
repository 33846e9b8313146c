# The configuration every interop test serves: static tools answered by
# their result block, static and template resources, prompts with required
# and enumerated arguments. No backend, so it needs no registry entries.
server {
  name         = "interop"
  version      = "1.2.3"
  instructions = "Greets people and adds small numbers."
}

tool "greet" {
  description = "Greet someone by name."
  arg "name" {
    type        = string
    description = "Who to greet."
    min_length  = 1
    max_length  = 40
  }
  result {
    text       = "'Hello ' + args.name"
    structured = "{'greeting': 'Hello ' + args.name}"
    output_schema = {
      type       = "object"
      properties = { greeting = { type = "string" } }
      required   = ["greeting"]
    }
  }
}

tool "add" {
  description = "Add two small whole numbers."
  annotations {
    read_only  = true
    idempotent = true
  }
  arg "a" {
    type    = integer
    minimum = 0
  }
  arg "b" {
    type    = integer
    minimum = 0
  }
  arg "colour" {
    type     = string
    enum     = ["red", "green", "blue"]
    required = false
  }
  validation {
    condition     = args.a + args.b <= 100
    error_message = "a + b must be at most 100, not ${args.a + args.b}; use smaller numbers."
  }
  result {
    text = "{{ args.a }} + {{ args.b }} = {{ args.a + args.b }}"
  }
}

resource "readme" {
  uri         = "docs://readme"
  description = "What this server is."
  mime_type   = "text/plain"
  text        = "A test server for interop."
}

resource_template "greet" {
  uri_template = "greet://{name}"
  description  = "A greeting for a name."
  mime_type    = "text/plain"
  text         = "Hello ${args.name}"
}

prompt "review" {
  description = "Review a piece of code."
  arg "code" {
    description = "The code to review."
  }
  arg "language" {
    description = "Its language."
    required    = false
    enum        = ["go", "python", "rust", "ruby"]
  }
  message "user" {
    text = "Review this ${coalesce(args.language, "code")}: ${args.code}"
  }
}
