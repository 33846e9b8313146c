# A parenthesis never closed is named where it opens, not where the parser
# gave up (here, at the next line's "}").
backend "http" "api" {
  base_url = "http://127.0.0.1:1"
}

tool "x" {
  description = "Find items."
  arg "q" {
    type = string
  }
  http "api" {
    path = "/items/${lower(trimspace(args.q)}" # ERROR: Unclosed parenthesis
  }
}
