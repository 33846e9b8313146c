# Tests of team.hcl: each test gets a fresh database from team.sql. A
# test's auth is the caller's access token (subject, scopes, claims), as
# if the call came over HTTP with it; scopes are checked as served.

test "whoami reads the token alone" {
  call = tool.whoami
  auth = {
    subject = "alice"
    scopes  = ["team:read"]
    claims  = { tenant = "acme" }
  }
  expect {
    text       = "alice of team acme"
    structured = { subject = "alice", team = "acme", "scopes[0]" = "team:read" }
  }
}

test "members of the caller's team only" {
  call = tool.list_members
  auth = {
    subject = "alice"
    scopes  = ["team:read"]
    claims  = { tenant = "acme" }
  }
  expect {
    text       = "Ada (lead)\nBrian (developer)"
    structured = { team = "acme", "members[0].name" = "Ada", "members[1].name" = "Brian" }
  }
}

test "another tenant sees another team" {
  call = tool.list_members
  auth = {
    subject = "carol"
    scopes  = ["team:read"]
    claims  = { tenant = "globex" }
  }
  expect {
    text = "Chen (lead)"
  }
}

test "adding needs the admin scope" {
  call = tool.add_member
  args = { name = "Dana", role = "designer" }
  auth = {
    subject = "alice"
    scopes  = ["team:read"]
    claims  = { tenant = "acme" }
  }
  expect {
    error = { contains = "needs the scope team:admin" }
  }
}

test "an admin adds to their own team" {
  call = tool.add_member
  args = { name = "Dana", role = "designer" }
  auth = {
    subject = "alice"
    scopes  = ["team:read", "team:admin"]
    claims  = { tenant = "acme" }
  }
  expect {
    text = "Added Dana to team acme."
  }
}

test "no token, no call" {
  call = tool.list_members
  expect {
    is_error = true
    text     = { contains = "carries no verified access token" }
  }
}
