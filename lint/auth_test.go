package lint_test

import (
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/lint"
)

// authConfig is a tool behind an auth block whose body is given.
func authConfig(body string) string {
	return `auth {
  resource = "https://mcp.example.com/mcp"
` + body + `
}

tool "greet" {
  description = "Greets the person named, by name."
  annotations {
    read_only = true
  }
  arg "name" {
    type        = string
    description = "Who to greet"
  }
  result {
    text = "{{ 'hello ' + args.name }}"
  }
}
`
}

const introspectionBlock = `  introspection {
    url           = "https://login.example.com/introspect"
    client_id     = "mcp"
    client_secret = "s"
  }`

// An introspection-only auth block is reported at its introspection
// block: clients reading the metadata find no server to get a token from.
func TestUndiscoverableAuth(t *testing.T) {
	diags := wantFindings(t, authConfig(introspectionBlock), lint.CodeUndiscoverableAuth, "MCPD701 3:3")
	if d := detailOf(t, diags, lint.CodeUndiscoverableAuth); !strings.Contains(d, "authorization_servers = [") {
		t.Errorf("the detail says no fix: %s", d)
	}
	// Named servers, static tokens alone or the server's lint block
	// ignoring the code: nothing.
	wantFindings(t, authConfig(`  authorization_servers = ["https://login.example.com"]
`+introspectionBlock), lint.CodeUndiscoverableAuth)
	wantFindings(t, authConfig(`  token "ci" {
    value  = "a-long-static-token-for-ci-0123456789"
  }`), lint.CodeUndiscoverableAuth)
	wantFindings(t, `server {
  name = "demo"
  lint {
    ignore = ["undiscoverable-auth"]
  }
}
`+authConfig(introspectionBlock), lint.CodeUndiscoverableAuth)
}
