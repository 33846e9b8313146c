test "search finds dune" {
  call = tool.search
  args = { query = "dune", "limit" = 2 }
  mock "api" {
    response {
      json = []
    }
  }
}

test "plan" {
  call = prompt.plan
  args = { query = "rivers" }
}

test "mine" {
  call = tool.mine
  auth = { subject = "alice", scopes = ["books:read"], claims = { tenant = "acme" } }
}

test "remove" {
  call    = tool.remove
  args    = { id = "x" }
  answers = { agree = { action = "accept", content = { ok = true } }, elicit2 = { action = "decline" } }
}

test "a book in French" {
  resource = "books://9780441172719?lang=fr"
  mock "api" {
    response {
      json = { isbn = "9780441172719" }
    }
  }
}
