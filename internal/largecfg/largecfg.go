// Package largecfg writes large, import-like configurations for the
// benchmarks of validate, start and serve. The mix resembles what
// `mcpdecl import openapi` makes of a big REST API: HTTP tools with path,
// query and body arguments, enums, nested objects, descriptions of a
// realistic length, grouped by resource. The output depends only on n, so
// two runs measure the same config.
package largecfg

import (
	"bufio"
	"fmt"
	"io"
)

// resources are the nouns the generated API is made of; each tool works on
// one of them, as the operations of a REST API group by path.
var resources = []string{
	"repo", "issue", "pull", "release", "branch", "commit", "team", "member",
	"project", "hook", "gist", "label", "milestone", "check", "deploy", "secret",
}

// qualifiers tell apart the tools on one resource with one verb, as an
// API's paths do (by org, by team, for the user...); two of them make a
// name unique for up to 81,920 tools.
var qualifiers = []string{
	"org", "user", "team", "app", "site", "group", "env", "region",
	"draft", "public", "private", "archived", "starred", "pinned", "review", "linked",
	"parent", "child", "fork", "mirror", "template", "import", "export", "audit",
	"billing", "quota", "policy", "rule", "alert", "event", "token", "key",
}

// verbs are the operations on a resource, each with its method and shape.
var verbs = []struct {
	name, method string
	hasBody      bool
	hasQuery     bool
}{
	{"list", "GET", false, true},
	{"get", "GET", false, false},
	{"create", "POST", true, false},
	{"update", "PATCH", true, false},
	{"delete", "DELETE", false, false},
}

// Write writes a configuration of n tools to w.
func Write(w io.Writer, n int) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, `server {
  name    = "large"
  version = "1.0.0"
}

variable "base_url" {
  type    = string
  default = "http://127.0.0.1:3000"
}

backend "http" "api" {
  base_url = var.base_url
  timeout  = "10s"
}
`)
	for i := range n {
		writeTool(b, i)
	}
	return b.Flush()
}

func writeTool(b *bufio.Writer, i int) {
	res := resources[i%len(resources)]
	v := verbs[(i/len(resources))%len(verbs)]
	k := i / (len(resources) * len(verbs))
	name := fmt.Sprintf("%s_%s_%s_%s", v.name, res, qualifiers[k%len(qualifiers)], qualifiers[k/len(qualifiers)%len(qualifiers)])
	readOnly := v.method == "GET"
	fmt.Fprintf(b, `
tool %q {
  description = "%s a %s of the account, number %d. Use it when the user asks about the %s by its owner and id; the answer lists the fields the API returns."
  annotations {
    read_only   = %t
    destructive = %t
    idempotent  = %t
  }

  arg "owner" {
    type        = string
    description = "The account that owns the %s."
    min_length  = 1
  }
  arg "id" {
    type        = integer
    description = "The %s's number."
  }
`, name, v.name, res, i, res, readOnly, v.method == "DELETE", v.method != "POST", res, res)
	if v.hasQuery {
		fmt.Fprintf(b, `  arg "state" {
    type        = string
    description = "Which %ss to list."
    enum        = ["open", "closed", "all"]
    default     = "open"
  }
  arg "per_page" {
    type        = integer
    description = "How many to list at most, 1 to 100."
    default     = 30
    validation {
      condition     = args.per_page >= 1 && args.per_page <= 100
      error_message = "per_page must be between 1 and 100."
    }
  }
`, res)
	}
	if v.hasBody {
		fmt.Fprintf(b, `  arg "title" {
    type        = string
    description = "The new title of the %s."
  }
  arg "labels" {
    type        = list(string)
    description = "Labels to set."
    optional    = true
  }
  arg "settings" {
    type        = object
    description = "Settings of the %s."
    optional    = true
    property "visibility" {
      enum = ["public", "private", "internal"]
    }
    property "archived" {
      type     = bool
      optional = true
    }
  }
`, res, res)
	}
	fmt.Fprintf(b, `
  http "api" {
    method = %q
    path   = "/%ss/${args.owner}/${args.id}"
`, v.method, res)
	if v.hasQuery {
		b.WriteString("    query  = { state = args.state, per_page = args.per_page }\n")
	}
	if v.hasBody {
		b.WriteString("    body   = { title = args.title, labels = args.labels, settings = args.settings }\n")
	}
	b.WriteString("  }\n}\n")
}
