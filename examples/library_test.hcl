# Tests of library.hcl, run by `mcpdecl test examples` (make examples).
# The catalogue API is answered by mock blocks: nothing reaches the network.

test "search finds dune" {
  call = tool.search
  args = { query = "dune", limit = 2 }
  mock "catalog" {
    request {
      method = "GET"
      path   = "/books"
      query  = { q = "dune", _limit = "2" }
    }
    response {
      json = [{ isbn = "9780441172719", title = "Dune", author = "Frank Herbert" }]
    }
  }
  expect {
    is_error   = false
    text       = "Dune by Frank Herbert"
    structured = { "books[0].isbn" = "9780441172719", "books[0].title" = "Dune" }
  }
}

test "checkout refuses a book with no copy on the shelf" {
  call = tool.checkout
  args = { isbn = "9780441172719", member = "M-1001" }
  mock "catalog" {
    request {
      path = "/books/9780441172719"
    }
    response {
      json = { title = "Dune", available = 0 }
    }
  }
  # No mock for POST /loans: the loan must not be asked for.
  expect {
    is_error = true
    text     = { contains = "No copies of 'Dune' are available" }
  }
}

test "checkout posts the loan" {
  call = tool.checkout
  args = { isbn = "9780441172719", member = "M-1001" }
  mock "catalog" {
    request {
      path = "/books/9780441172719"
    }
    response {
      json = { title = "Dune", available = 2 }
    }
  }
  mock "catalog" {
    request {
      method = "POST"
      path   = "/loans"
      json   = { isbn = "9780441172719", member = "M-1001" }
    }
    response {
      status = 201
      json   = { id = 7, due = "2026-12-15" }
    }
  }
  expect {
    structured = { id = 7, due = "2026-12-15" }
  }
}

test "a malformed isbn is refused before any request" {
  call = tool.checkout
  args = { isbn = "12", member = "M-1001" }
  expect {
    is_error = true
    text     = { matches = "isbn" }
  }
}

test "policy resource" {
  resource = "library://policy"
  expect {
    text = { contains = "Books are lent for three weeks" }
  }
}

test "reading list embeds the policy" {
  call = prompt.reading_list
  args = { topic = "rivers" }
  expect {
    text = { matches = "(?s)reading list about rivers.*lent for three weeks" }
  }
}
