# Toolsets and the dynamic mode: two toolsets over five tools, one of
# them dynamic, and a tool that is in no toolset.
server {
  name = "toolsets"
}

variable "api_key" {
  type      = string
  sensitive = true
  default   = "KEY-7d1c-secret-value"
}

tool "repo_list" {
  description = "List the repositories of an owner."
  arg "owner" {
    type        = string
    description = "The user or organisation."
  }
  result {
    text = "'repos of ' + args.owner"
  }
}

tool "repo_get" {
  description = "Get one repository by its full name."
  arg "name" {
    type = string
  }
  result {
    text = "'repo ' + args.name"
  }
}

tool "issue_create" {
  description = "Open a new issue in a repository."
  arg "title" {
    type       = string
    min_length = 3
  }
  result {
    text = "'opened: ' + args.title"
  }
}

tool "leak" {
  description = "Echoes the API key the server holds (it must come out redacted)."
  content "text" {
    text = "the key is ${var.api_key}"
  }
}

tool "stepped" {
  description = "Runs a step before answering with what the step printed."
  step "hello" {
    shell {
      command = ["echo", "from the step"]
    }
  }
  result {
    text = "'step said: ' + trim(steps.hello.stdout)"
  }
}

tool "admin_purge" {
  description = "Purge everything (in no toolset)."
  result {
    text = "'purged'"
  }
}

toolset "repos" {
  description = "Repositories: list and get."
  tools       = ["repo_*"]
}

toolset "work" {
  description = "Issues, the key and a step tool, through three meta-tools."
  tools       = ["issue_create", "leak", "stepped"]
  dynamic     = true
}
