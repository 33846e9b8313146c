# Mistakes in the server block and in variables and locals.
server {
  name      = "demo"
  versoin   = "1.0.0" # ERROR: Unsupported argument
  allow_env = "TOKEN" # ERROR: Invalid allow_env
  icon {
    src   = "https://example.com/i.png"
    theme = "blue" # ERROR: Invalid icon theme
  }
}

server { # ERROR: Duplicate server block
  name = "again"
}

variable "limit" {
  type    = integr # ERROR: Invalid type
  default = 5
}

variable "port" {
  type    = number
  default = "eighty" # ERROR: Invalid default value for variable
}

variable "derived" {
  type    = string
  default = var.port # ERROR: Variables not allowed
}

variable "port" { # ERROR: Duplicate variable name
  type = number
}

variable "9lives" { # ERROR: Invalid variable name
  type = string
}

locals {
  a = local.b # ERROR: Cycle in local values
  b = local.a
  c = env("HOME") # ERROR: Invalid function argument
}

tool "t" {
  description = "Uses the values above."
  result {
    text = "'ok'"
  }
}
