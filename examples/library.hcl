# A city library's REST catalogue, wrapped as MCP tools, a resource, a
# resource template and a prompt.
#
#   mcpdecl validate examples/library.hcl
#   LIBRARY_TOKEN=... mcpdecl serve examples/library.hcl

server {
  name         = "library"
  version      = "1.2.0"
  title        = "City Library"
  instructions = "Search the catalogue before checking a book out."
  allow_env    = ["LIBRARY_TOKEN"]
}

variable "base_url" {
  type        = string
  default     = "http://127.0.0.1:3000"
  description = "Where the library API listens."
}

backend "http" "catalog" {
  base_url = var.base_url
  headers  = { Authorization = "Bearer ${env("LIBRARY_TOKEN", "")}" }
  timeout  = "5s"
  retry {
    attempts = 3 # idempotent methods only
  }
}

tool "search" {
  title       = "Search the catalogue"
  description = "Find books by words from the title or author."
  annotations {
    read_only = true
  }

  arg "query" {
    type        = string
    description = "Words from the title or author, e.g. 'small rivers'"
    min_length  = 2
  }
  arg "limit" {
    type        = integer
    description = "How many books to list at most, 1 to 50."
    default     = 10
    validation {
      condition     = args.limit >= 1 && args.limit <= 50
      error_message = "limit must be between 1 and 50; try 10."
    }
  }

  http "catalog" {
    method = "GET"
    path   = "/books"
    query  = { q = args.query, _limit = args.limit }
  }

  result {
    structured = "{'books': body}"
    text       = "join(map(body, {#.title + ' by ' + #.author}), '\\n')"
    max_bytes  = 20000
  }
}

tool "checkout" {
  description = "Check a book out for a library member. Search first to find the ISBN."
  annotations {
    read_only   = false
    destructive = false
    idempotent  = false
  }
  arg "isbn" {
    type        = string
    description = "The book's ISBN-13, digits only."
    pattern     = "^[0-9]{13}$"
  }
  arg "member" {
    type        = string
    description = "The member number printed on the library card."
  }

  # Look the book up first: the loan is only asked for when a copy is on
  # the shelf, and the model learns the title either way.
  step "book" {
    http "catalog" {
      path = "/books/${args.isbn}"
    }
    error {
      when    = "status == 404"
      message = "There is no book with ISBN {{ args.isbn }}. Search the catalogue for the right ISBN."
    }
    error {
      when    = "(body.available ?? 0) < 1"
      message = "No copies of '{{ body.title }}' are available. Search for another title."
    }
  }

  http "catalog" {
    method = "POST"
    path   = "/loans"
    body   = { isbn = args.isbn, member = args.member }
  }

  # Another member may take the last copy between the lookup and the loan.
  error {
    when    = "status == 409"
    message = "No copies of '{{ steps.book.body.title }}' are available. Search for another title."
  }
}

resource "policy" {
  uri         = "library://policy"
  name        = "Loan policy"
  description = "How long loans last and what late returns cost."
  mime_type   = "text/markdown"
  text        = file("policy.md")
}

resource_template "book" {
  uri_template = "library://books/{isbn}"
  name         = "Book"
  description  = "One book of the catalogue, by ISBN."
  mime_type    = "application/json"
  arg "isbn" {
    description = "The book's ISBN-13."
    pattern     = "^[0-9]{13}$"
  }
  http "catalog" {
    path = "/books/${args.isbn}"
  }
}

prompt "reading_list" {
  title       = "Reading list"
  description = "Plan a reading list on a topic."
  arg "topic" {
    description = "A subject, e.g. 'rivers'"
  }
  message "user" {
    text = "Make me a reading list about ${args.topic} from books the library has."
  }
  message "user" {
    resource {
      uri = "library://policy"
    }
  }
}
