# Shell tools whose arguments have no pattern, for the injection tests:
# every value, hostile or not, must reach the program as exactly one argv
# element. The program is a script (var.script) that writes its argv,
# NUL-separated, to $ARGV_OUT and its environment to $ARGV_OUT.env.

server {
  name    = "shell-argv"
  version = "0.1.0"
}

variable "script" {
  type = string
}

variable "out" {
  type = string
}

backend "shell" "rec" {
  timeout = "10s"
  env     = { ARGV_OUT = var.out }
}

tool "record" {
  description = "Run the recording script with the value as its only argument."
  arg "value" {
    type = string
  }
  shell {
    backend = "rec"
    command = [var.script, args.value]
    # The recording script reads no options: values starting with "-"
    # must reach it too.
    allow_options = true
  }
}

tool "record_joined" {
  description = "Run the recording script with the value inside a larger argument."
  arg "value" {
    type = string
  }
  shell {
    backend = "rec"
    command = [var.script, "--value=${args.value}", "end"]
  }
}
