# The echo tool of the loopback benchmark: a content block built from the
# one argument.
server {
  name    = "echo"
  version = "1.0.0"
}

tool "echo" {
  description = "Echoes the text back."
  arg "text" {
    type        = string
    description = "Text to echo."
  }
  content "text" {
    text = "echo: ${args.text}"
  }
}
