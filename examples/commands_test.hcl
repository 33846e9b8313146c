# Tests of commands.hcl: commands run for real.

test "word count" {
  call = tool.word_count
  args = { text = "one two three\nfour\n" }
  expect {
    structured = { lines = 2 }
    text       = { matches = "^2\\s+4\\s+19$" }
  }
}

test "disk usage of a folder that is not there" {
  call = tool.disk_usage
  args = { dir = "no-such-folder-for-mcpdecl-tests" }
  expect {
    is_error = true
    text     = { contains = "du failed" }
  }
}

test "a folder name with a slash is refused" {
  call = tool.list_files
  args = { dir = "../etc" }
  expect {
    is_error = true
    text     = { contains = "dir" }
  }
}
