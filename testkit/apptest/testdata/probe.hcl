# The browser test's CSP probe (policy_test.go): an app that declares one
# origin it may connect to, given as a variable (a test server's port).

server {
  name    = "csp-probe"
  version = "1.0.0"
}

variable "allowed" {
  type        = string
  description = "The one origin the page may connect to."
}

app "probe" {
  uri  = "ui://probe/page"
  html = "<!doctype html><html><head><title>probe</title></head><body><p id=\"probe\">probe</p></body></html>"
  csp {
    connect_domains = [var.allowed]
  }
}

tool "show_probe" {
  description = "Shows the probe page."
  ui {
    app = "probe"
  }
  content "text" {
    text = "shown"
  }
}
