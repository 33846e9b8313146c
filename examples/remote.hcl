# Another MCP server as a backend: the official "everything" server from
# npm, started over stdio, fronted by two tools of this server's own that
# rename, narrow and combine its tools. Its answers, errors and progress
# reach the caller as this server's. See "Other MCP servers as backends"
# in README.md.

server {
  name    = "remote"
  version = "1.0.0"
  title   = "The everything server, fronted"
}

# npx fetches the pinned release from npm on first start. The program a
# backend starts must exist when the file is loaded; started through
# /usr/bin/env, the file loads (and validates) where Node.js is not
# installed; serving there fails, quoting env's "'npx': No such file or
# directory".
variable "everything" {
  type        = list(string)
  default     = ["/usr/bin/env", "npx", "-y", "@modelcontextprotocol/server-everything@2026.8.31", "stdio"]
  description = "The command that starts the everything server over stdio."
}

backend "mcp" "everything" {
  command = var.everything
  # the first start may download the package
  timeout = "60s"
}

tool "add" {
  title       = "Add"
  description = "Add two numbers on the everything server and say the sum."
  arg "a" {
    type        = number
    description = "The first number."
  }
  arg "b" {
    type        = number
    description = "The second number."
  }
  annotations {
    read_only = true
  }
  mcp "everything" {
    tool      = "get-sum"
    arguments = { a = args.a, b = args.b }
  }
  error {
    when    = "is_error"
    message = "The sum failed: {{ text }}"
  }
}

tool "shout" {
  title       = "Shout"
  description = "Echo a message back in capitals, through the everything server's echo."
  arg "message" {
    type        = string
    description = "What to shout."
    min_length  = 1
  }
  annotations {
    read_only = true
  }
  mcp "everything" {
    tool      = "echo"
    arguments = { message = upper(args.message) }
  }
}
