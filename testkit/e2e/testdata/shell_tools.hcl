# Shell tools for the streaming, cancellation, timeout and flood tests. No
# tool interpolates an argument into a script; the processes they start
# write their PIDs to $PIDFILE so that the tests can check they are gone.

server {
  name    = "shell-tools"
  version = "0.1.0"
}

variable "pid_file" {
  type = string
}

backend "shell" "sh" {
  timeout = "30s"
  env     = { PIDFILE = var.pid_file }
}

tool "stream" {
  description = "Three steps, reported as progress on stdout and as log lines on stderr."
  shell {
    backend          = "sh"
    allow_shell      = true
    command          = ["sh", "-c", "for i in 1 2 3; do echo \"progress $i/3\"; echo \"working on step $i\" >&2; sleep 0.1; done; echo done"]
    progress_pattern = "^progress (\\d+)/(\\d+)$"
  }
}

tool "sleeper" {
  description = "Sleep for 30 seconds in a child process."
  shell {
    backend = "sh"
    command = ["sh", "-c", "echo $$ >> \"$PIDFILE\"; sleep 30 & echo $! >> \"$PIDFILE\"; wait"]
  }
}

tool "stubborn" {
  description = "Sleep for 30 seconds, ignoring SIGTERM, with a 1s timeout."
  shell {
    backend = "sh"
    command = ["sh", "-c", "trap '' TERM; echo $$ >> \"$PIDFILE\"; sleep 30 & echo $! >> \"$PIDFILE\"; wait"]
    timeout = "1s"
  }
}

tool "flood" {
  description = "Print 10 MiB on stdout."
  shell {
    backend = "sh"
    command = ["sh", "-c", "yes 0123456789abcde | head -c 10485760"]
  }
}

tool "flood_stderr" {
  description = "Print 10 MiB on stderr, 16-byte lines."
  shell {
    backend          = "sh"
    command          = ["sh", "-c", "yes 0123456789abcde | head -c 10485760 >&2; echo finished"]
    max_output_bytes = 65536
  }
}

tool "truth" {
  description = "Run true."
  shell {
    command = ["true"]
  }
}
