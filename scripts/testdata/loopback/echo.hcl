# The echo job of scripts/bench-loopback.sh: a content block built from
# the one argument, no backend.
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
  result {
    text = "'echo: ' + args.text"
  }
}
