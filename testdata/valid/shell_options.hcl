# Arguments that start an argv element but cannot start with "-": their
# enum or pattern rules it out, so no option warning.
tool "show_branch" {
  description = "Shows the log of a branch."
  annotations {
    read_only = true
  }
  arg "branch" {
    description = "The branch whose log to show."
    type        = string
    enum        = ["main", "release"]
  }
  arg "path" {
    description = "A path inside the repository."
    type        = string
    pattern     = "^[A-Za-z0-9][A-Za-z0-9/._-]*$"
  }
  shell {
    command = ["ls", args.branch, args.path]
  }
}

# A number whose minimum rules out a sign, a flag's value written as
# --name=value, operands after "--", and stdin given to a program that
# reads it as data: no warning.
tool "recent_commits" {
  description = "Shows recent commits touching a path."
  annotations {
    read_only = true
  }
  arg "count" {
    description = "How many commits to show."
    type        = number
    minimum     = 1
  }
  arg "author" {
    description = "Only commits by this author."
    type        = string
  }
  arg "path" {
    description = "A path inside the repository."
    type        = string
  }
  arg "text" {
    description = "Words the commit message holds."
    type        = string
    required    = false
  }
  shell {
    command = ["git", "log", args.count, "--oneline", "--author=${args.author}", "--", args.path]
    stdin   = args.text
  }
}
