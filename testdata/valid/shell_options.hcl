# Arguments that start an argv element but cannot start with "-": their
# enum or pattern rules it out, so no option warning.
tool "show_branch" {
  description = "Shows the log of a branch."
  arg "branch" {
    type = string
    enum = ["main", "release"]
  }
  arg "path" {
    type    = string
    pattern = "^[A-Za-z0-9][A-Za-z0-9/._-]*$"
  }
  shell {
    command = ["ls", args.branch, args.path]
  }
}
