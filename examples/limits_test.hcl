# Tests of limits.hcl: each test gets its own buckets, full, so these
# check the tools the limits cover. TestLimitsExample (cmd/mcpdecl) serves
# the file with an audit trail and calls until a limit refuses.

test "greet" {
  call = tool.greet
  args = { name = "Ada" }
  expect {
    text = "Hello, Ada!"
  }
}

test "lookup a word" {
  call = tool.lookup_word
  args = { word = "anvil" }
  expect {
    text       = "anvil: 5 letters"
    structured = { letters = 5, first = "A" }
  }
}
