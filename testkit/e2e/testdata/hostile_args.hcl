# Argument shapes and hostile argument values, served by the hostile
# argument tests against a recording API.
variable "base_url" {
  type = string
}

backend "http" "api" {
  base_url = var.base_url
}

tool "sum" {
  description = "Adds numbers."
  arg "nums" {
    type = list(integer)
  }
  http "api" {
    method = "POST"
    path   = "/sum"
    body   = { nums = args.nums }
  }
}
