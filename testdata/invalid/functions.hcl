# Function arguments written as literals are checked at load time, even
# where the function would only see them per call, or inside can()/try(),
# where a failing call is just false.
server {
  allow_env = ["API_TOKEN"]
}

variable "token_name" {
  default = "API_TOKEN"
}

locals {
  token   = env(var.token_name) # ERROR: Computed environment variable name
  cleaned = regex_replace("a-b", "[a-", "") # ERROR: Invalid regular expression
}

tool "add_event" {
  description = "Add an event."
  arg "date" {
    type = string
    validation {
      condition     = can(regex("^([0-9]{4}-[0-9]{2}-[0-9]{2}$", args.date)) # ERROR: Invalid regular expression
      error_message = "The date must be YYYY-MM-DD."
    }
  }
  arg "at" {
    type = string
    validation {
      condition     = can(formatdate("DD MMM YYYY Q", args.at)) # ERROR: Invalid function argument
      error_message = "Not a timestamp."
    }
    validation {
      condition     = can(timeadd(args.at, "1 day")) # ERROR: Invalid function argument
      error_message = "Not a timestamp."
    }
    validation {
      condition     = try(parseint(args.at, 99) > 0, false) # ERROR: Invalid function argument
      error_message = "Not a number."
    }
  }
  result {
    text = "'Added.'"
  }
}
