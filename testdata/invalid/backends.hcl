# Mistakes in backend blocks and in what calls name.
server {
  allow_env = ["API_TOKEN"]
}

backend "htttp" "api" { # ERROR: Unknown backend kind
  base_url = "http://127.0.0.1:9"
}

backend "http" "web" {
  base_url = "http://127.0.0.1:9"
  headers  = { Authorization = "Bearer ${env("SECRET_TOKEN")}" } # ERROR: Invalid function argument
}

backend "http" "web" { # ERROR: Duplicate backend name
  base_url = "http://127.0.0.1:8"
}

tool "fetch" {
  description = "Fetch."
  http "wbe" { # ERROR: Unknown backend
    path = "/"
  }
}

tool "fetch2" {
  description = "Fetch with a bad expression."
  arg "id" {
    type = integer
  }
  http "web" {
    path = "/items/${join(",", args.id)}" # ERROR: Invalid function argument
  }
}

tool "fetch3" {
  description = "Fetch with an unknown root."
  http "web" {
    path = "/items/${arg.id}" # ERROR: Unknown reference
  }
}
