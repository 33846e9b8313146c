# A string left open on its line is one error, not one per line after it.
tool "x" {
  description = "Find items # ERROR: Unterminated string
  arg "q" {
    type = string
  }
  result {
    text = "'found'"
  }
}
