# Mistakes in resources and resource templates.
backend "http" "api" {
  base_url = "http://127.0.0.1:9"
}

resource "no_scheme" {
  uri  = "policy.md" # ERROR: Invalid resource URI
  text = "x"
}

resource "first" {
  uri  = "docs://a"
  text = "a"
}

resource "second" {
  uri  = "docs://a" # ERROR: Duplicate resource URI
  text = "b"
}

resource "empty" { # ERROR: Missing resource content
  uri = "docs://empty"
}

resource "both" {
  uri  = "docs://both"
  text = "a"
  blob = "YQ==" # ERROR: Conflicting resource content
}

resource "bad_blob" {
  uri  = "docs://blob"
  blob = "not base64!" # ERROR: Invalid blob
}

resource "missing_file" {
  uri  = "docs://file"
  file = "no-such-file.md" # ERROR: Resource file not found
}

resource "audience" {
  uri      = "docs://aud"
  text     = "x"
  audience = ["robots"] # ERROR: Invalid audience
  priority = 2 # ERROR: Invalid priority
}

resource "static_result" {
  uri  = "docs://sr"
  text = "x"
  result { # ERROR: Result without a call
    text = "'y'"
  }
}

resource_template "broken" {
  uri_template = "books://{isbn" # ERROR: Invalid URI template
  text         = "x"
}

resource_template "book" {
  uri_template = "books://{isbn}"
  arg "isbm" { # ERROR: Argument is not a template variable
    type = string
  }
  http "api" {
    path = "/books/${args.isbn}"
  }
}

resource_template "book_again" {
  uri_template = "books://{isbn}" # ERROR: Duplicate URI template
  text         = "again ${args.isbn}"
}

resource_template "fixed" {
  uri_template = "books://all" # ERROR: URI template without variables
  text         = "all"
}

resource_template "wrong_ref" {
  uri_template = "authors://{name}"
  text         = "Author ${args.nam}" # ERROR: Reference to undeclared argument
}

resource "no_uri" { # ERROR: Missing required argument
  text = "x"
}

resource_template "no_template" { # ERROR: Missing required argument
  text = "x"
}
