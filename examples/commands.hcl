# Commands as tools. Each argv element is one argument: nothing reaches a
# shell, nothing from mcpdecl's own environment is passed unless listed.

server {
  name    = "commands"
  version = "0.1.0"
  title   = "Workstation commands"
}

variable "projects_dir" {
  type    = string
  default = "/tmp"
}

backend "shell" "tools" {
  dir     = var.projects_dir
  timeout = "10s"
  env     = { LC_ALL = "C" }
}

tool "disk_usage" {
  description = "Report the disk usage of a folder under the projects directory."
  annotations {
    read_only = true
  }
  arg "dir" {
    type        = string
    description = "A folder name directly under the projects directory."
    pattern     = "^[a-z0-9_-]+$"
  }
  shell {
    backend = "tools"
    command = ["du", "-sh", "--", "${var.projects_dir}/${args.dir}"]
    timeout = "10s"
  }
  error {
    when    = "exit_code != 0"
    message = "du failed: {{ trim(stderr) }}"
  }
}

tool "word_count" {
  description = "Count the lines, words and bytes of a text."
  annotations {
    read_only = true
  }
  arg "text" {
    type        = string
    description = "The text to count."
    max_length  = 100000
  }
  shell {
    command = ["wc"]
    stdin   = args.text
  }
  result {
    structured = "{'lines': int(split(trim(stdout), ' ')[0])}"
    text       = "trim(stdout)"
  }
}

tool "list_files" {
  description = "List the files in a folder under the projects directory, one per line."
  annotations {
    read_only = true
  }
  arg "dir" {
    type        = string
    description = "A folder name directly under the projects directory."
    pattern     = "^[a-z0-9_-]+$"
  }
  shell {
    backend = "tools"
    command = ["ls", "-1", "--", args.dir]
    output  = "lines"
  }
  result {
    structured = "{'files': lines}"
    text       = "join(lines, '\\n')"
  }
}
