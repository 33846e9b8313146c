# A team directory behind OAuth, on the embedded SQLite driver. Served
# over HTTP every request needs an access token for this server: the
# token's tenant claim picks the team whose rows a call sees, its subject
# is recorded as who added a member, and its scopes gate the tools:
# team:read to look, team:admin to change. See "A team server behind
# OAuth" in README.md to run it against an authorization server.

server {
  name         = "team"
  version      = "1.0.0"
  title        = "Team directory"
  instructions = "Use list_members to see the caller's team and add_member to add someone to it; whoami tells who is signed in."
}

variable "resource" {
  type        = string
  default     = "http://127.0.0.1:8080/mcp"
  description = "This server's URL as clients reach it: the audience its tokens must carry."
}

variable "issuer" {
  type        = string
  default     = "http://127.0.0.1:9400"
  description = "The authorization server that issues the tokens."
}

variable "team_db" {
  type        = string
  default     = "team.db"
  description = "The SQLite database file, created from team.sql when missing."
}

auth {
  resource              = var.resource
  authorization_servers = [var.issuer]
  resource_name         = "Team directory"
  # what a client asks for when it first signs in; it asks for
  # team:admin only when add_member answers 403
  initial_scopes = ["team:read"]

  scope "team:read" {
    description = "See the members of your team"
  }
  scope "team:admin" {
    description = "Add members to your team"
  }

  claim "tenant" {
    type        = string
    description = "The team the caller belongs to."
  }
}

backend "sql" "team" {
  driver    = "sqlite"
  dsn       = "file:${var.team_db}"
  read_only = false
  init_sql  = "team.sql"
}

tool "whoami" {
  title       = "Who am I"
  description = "The signed-in caller: subject, team and granted scopes."
  scopes      = ["team:read"]
  annotations {
    read_only = true
  }
  # no backend call: the answer is made from the token alone
  result {
    structured = "{'subject': auth.subject, 'team': auth.claims.tenant, 'scopes': auth.scopes}"
    text       = "auth.subject + ' of team ' + auth.claims.tenant"
  }
}

tool "list_members" {
  title       = "Team members"
  description = "The members of the caller's team, with their roles."
  scopes      = ["team:read"]
  annotations {
    read_only = true
  }
  sql "team" {
    # the tenant comes from the token, bound as a parameter: a caller
    # never sees another team, whatever the model sends
    query = "SELECT name, role, added_by FROM members WHERE tenant = ${auth.claims.tenant} ORDER BY name"
  }
  result {
    structured = "{'team': auth.claims.tenant, 'members': rows}"
    text       = "join(map(rows, {#.name + ' (' + #.role + ')'}), '\\n')"
  }
}

tool "add_member" {
  title       = "Add a member"
  description = "Add someone to the caller's team."
  scopes      = ["team:admin"]
  annotations {
    read_only   = false
    destructive = false
  }
  arg "name" {
    type        = string
    description = "The new member's name."
    min_length  = 1
  }
  arg "role" {
    type        = string
    description = "The new member's role."
    enum        = ["lead", "developer", "designer"]
  }
  sql "team" {
    read_only = false
    query     = "INSERT INTO members (tenant, name, role, added_by) VALUES (${auth.claims.tenant}, ${args.name}, ${args.role}, ${auth.subject})"
  }
  error {
    when    = "rows_affected == 0"
    message = "{{ args.name }} was not added."
  }
  result {
    text = "'Added ' + args.name + ' to team ' + auth.claims.tenant + '.'"
  }
}
