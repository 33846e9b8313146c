# The remote of TestMCPBackendClientCredentials: a server behind OAuth
# whose one tool says whom the token speaks for and what it grants.
variable "resource" {
  type = string
}
variable "issuer" {
  type = string
}

auth {
  resource              = var.resource
  authorization_servers = [var.issuer]
  scope "remote:call" {
    description = "Call the remote's tools"
  }
}

tool "whoami" {
  description = "Whom the access token speaks for, and its scopes."
  scopes      = ["remote:call"]
  result {
    text = "auth.subject + ' with ' + join(auth.scopes, ' ')"
  }
}
