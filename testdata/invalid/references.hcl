# Misspelt and misplaced references.
variable "base" {
  default = "http://127.0.0.1:1"
}

locals {
  url = var.bse # ERROR: Reference to undeclared variable
}

backend "http" "api" {
  base_url = var.base
  headers  = { X = args.id } # ERROR: Arguments not available here
}

tool "get" {
  description = "Get one item."
  arg "id" {
    type = integer
  }
  http "api" {
    path = "/items/${args.idd}" # ERROR: Reference to undeclared argument
  }
  error {
    when    = "statuz == 404" # ERROR: Invalid expression
    message = "No item {{ args.id }}."
  }
}

tool "get2" {
  description = "Get another item."
  http "apj" { # ERROR: Unknown backend
    path = "/x/${local.urll}" # ERROR: Reference to undeclared local value
  }
}

# A name the file refuses where it is declared is never offered as a
# suggestion.
tool "refused" {
  description = "Uses a refused argument name."
  arg "start-date" { # ERROR: Invalid argument name
    type = string
  }
  http "api" {
    path = "/x/${args.start_dat}" # ERROR: Reference to undeclared argument
  }
}
