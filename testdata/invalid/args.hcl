# Mistakes in argument declarations.
tool "search" {
  description = "Search."
  arg "query" {
    type    = strng # ERROR: Invalid type
  }
  arg "name" {
    type    = string
    minimum = 1 # ERROR: Constraint does not apply
  }
  arg "size" {
    type    = number
    minimum = 10
    maximum = 5 # ERROR: Impossible constraint
  }
  arg "code" {
    type    = string
    pattern = "[a-z" # ERROR: Invalid pattern
  }
  arg "day" {
    type   = string
    format = "dat" # ERROR: Unknown format
  }
  arg "colour" {
    type    = string
    enum    = ["red", "green"]
    default = "blue" # ERROR: Invalid default value
  }
  arg "mode" {
    type = string
    enum = [] # ERROR: Empty enum
  }
  arg "limit" {
    type     = integer
    default  = 10
    required = true # ERROR: Required argument with a default
  }
  arg "tags" {
    type = string
    items { # ERROR: Items on a non-list argument
      min_length = 1
    }
  }
  arg "owner" {
    type = string
    property "id" { # ERROR: Properties on a non-object argument
      type = integer
    }
  }
  arg "query" { # ERROR: Duplicate argument name
    type = string
  }
  arg "two words" { # ERROR: Invalid argument name
    type = string
  }
  arg "count" {
    type       = integer
    min_length = 2 # ERROR: Constraint does not apply
  }
  arg "ratio" {
    type     = number
    required = true
    optional = true # ERROR: Conflicting required and optional
  }
  arg "page" {
    type = integer
    validation {
      condition     = args.page # ERROR: Invalid value type
      error_message = "page must be positive"
    }
  }
  arg "unused" {
    type     = string
    required = false
    validation {
      condition     = 1 > 0 # WARNING: Condition does not use the arguments
      error_message = "never"
    }
  }
  arg "blob" {
    type       = string
    max_length = -1 # ERROR: Invalid constraint value
  }
  result {
    text = "'ok'"
  }
}

tool "untyped_default" {
  description = "A number default on an argument without a type."
  arg "limit" {
    default = 10 # WARNING: Default of another type
  }
  result {
    text = "args.limit"
  }
}
