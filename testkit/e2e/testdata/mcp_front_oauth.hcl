# The front of TestMCPBackendClientCredentials: the remote's tool through
# a backend "mcp" that gets its own tokens with the client credentials
# grant, and through one without a token.
variable "remote" {
  type = string
}
variable "token_url" {
  type = string
}

server {
  allow_env = ["FRONT_SECRET"]
}

backend "mcp" "remote" {
  url = var.remote
  auth {
    oauth2 {
      token_url     = var.token_url
      client_id     = "front-client"
      client_secret = env("FRONT_SECRET")
      scopes        = ["remote:call"]
    }
  }
}

backend "mcp" "anonymous" {
  url = var.remote
}

tool "remote_whoami" {
  description = "Whom the remote sees calling."
  mcp "remote" {
    tool = "whoami"
  }
}

tool "anonymous_whoami" {
  description = "The remote, called without a token."
  mcp "anonymous" {
    tool = "whoami"
  }
}

# Its token endpoint does not exist.
backend "mcp" "misconfigured" {
  url = var.remote
  auth {
    oauth2 {
      token_url     = "${var.token_url}/missing"
      client_id     = "front-client"
      client_secret = env("FRONT_SECRET")
    }
  }
}

tool "misconfigured_whoami" {
  description = "The remote, through a token endpoint that is not there."
  mcp "misconfigured" {
    tool = "whoami"
  }
}
