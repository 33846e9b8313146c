# Every argument feature on one tool.
tool "everything" {
  title       = "Every argument kind"
  description = "Takes one argument of each kind; answers with their count."
  icon {
    src       = "https://example.com/icon.png"
    mime_type = "image/png"
    sizes     = ["48x48"]
  }
  # A catalogue of argument features for the tests, not a tool a model
  # would choose: its arguments are declared to be compiled, not read.
  lint {
    ignore = ["missing-description", "unused-arg"]
  }
  annotations {
    title      = "Everything"
    read_only  = true
    idempotent = true
    open_world = false
  }
  arg "name" {
    type        = string
    title       = "Name"
    description = "A name."
    min_length  = 1
    max_length  = 40
    pattern     = "^[A-Za-z ]+$"
    examples    = ["Ada"]
  }
  arg "count" {
    type              = integer
    minimum           = 1
    exclusive_maximum = 100
    multiple_of       = 1
    default           = 5
  }
  arg "ratio" {
    type     = number
    nullable = true
    required = false
  }
  arg "flag" {
    type    = bool
    default = false
  }
  arg "colour" {
    type        = string
    enum        = ["red", "green", "blue"]
    completions = ["red", "green", "blue"]
  }
  arg "when" {
    type     = string
    format   = "date-time"
    optional = true
  }
  arg "tags" {
    type         = list(string)
    min_items    = 0
    max_items    = 5
    unique_items = true
    required     = false
    items {
      min_length = 1
    }
  }
  arg "labels" {
    type     = map(string)
    required = false
  }
  arg "point" {
    type     = object({ x = number, y = number, label = optional(string) })
    required = false
  }
  arg "owner" {
    type     = object
    required = false
    property "id" {
      type = integer
    }
    property "email" {
      type     = string
      format   = "email"
      required = false
    }
  }
  arg "anything" {
    type     = any
    required = false
  }
  validation {
    condition     = args.count <= 50 || args.flag
    error_message = "count above 50 needs flag = true (got ${args.count})."
  }
  result {
    structured = "{'name': args.name, 'count': args.count}"
    text       = "Hello {{ args.name }}, count {{ args.count }}."
  }
}
