# Mistakes in prompts and their messages.
resource "policy" {
  uri  = "library://policy"
  text = "Loans last three weeks."
}

prompt "roles" {
  description = "A bad role."
  message "system" { # ERROR: Invalid message role
    text = "You are helpful."
  }
}

prompt "two_contents" {
  message "user" { # ERROR: Invalid message content
    text = "Hello"
    image {
      data      = "iVBORw0KGgo="
      mime_type = "image/png"
    }
  }
}

prompt "silent" { # ERROR: Missing prompt message
  description = "No messages."
}

prompt "typed" {
  arg "count" {
    type = number # ERROR: Prompt arguments are strings
  }
  message "user" {
    text = "Count ${args.count}"
  }
}

prompt "embed" {
  message "user" {
    resource {
      uri = "library://polcy" # ERROR: Unknown resource
    }
  }
}

prompt "media" {
  message "user" {
    image {
      data      = "iVBORw0KGgo="
      mime_type = "audio/wav" # ERROR: Invalid MIME type
    }
  }
}

prompt "refs" {
  arg "topic" {}
  message "user" {
    text = "About ${args.topc}" # ERROR: Reference to undeclared argument
  }
  message "assistant" {
    text = "Sure: ${upper(args.topic, 1)}" # ERROR: Too many function arguments
  }
}

prompt "bad name!" { # ERROR: Invalid prompt name
  message "user" {
    text = "x"
  }
}

prompt "bad_complete" {
  arg "topic" {
    complete { # ERROR: Missing call block
    }
  }
  message "user" {
    text = "About ${args.topic}"
  }
}
