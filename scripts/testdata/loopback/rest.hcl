# The rest job of scripts/bench-loopback.sh: one GET of a REST backend
# (loopbench backend), its JSON body answered as it came.
#
#   mcpdecl serve --http 127.0.0.1:8080 --var backend_url=http://127.0.0.1:9090 rest.hcl
server {
  name    = "rest"
  version = "1.0.0"
}

variable "backend_url" {
  type        = string
  default     = "http://127.0.0.1:9090"
  description = "Where loopbench backend listens."
}

backend "http" "items" {
  base_url = var.backend_url
  timeout  = "5s"
}

tool "item" {
  description = "One item by id."
  annotations {
    read_only = true
  }
  arg "id" {
    type        = integer
    description = "The item's id, 1 to 1000."
    minimum     = 1
  }
  http "items" {
    method = "GET"
    path   = "/items/${args.id}"
  }
}
