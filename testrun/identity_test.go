package testrun

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/table"
)

const identityConfig = `
auth {
  resource              = "https://mcp.example.com/mcp"
  authorization_servers = ["https://login.example.com"]
  initial_scopes        = ["read"]
  scope "read" {}
  scope "admin" {}
  claim "tenant" {
    type = string
  }
  claim "sub" {
    type = string
  }
}
tool "whoami" {
  description = "Who calls."
  scopes      = ["read"]
  result {
    text = "auth.subject + '/' + auth.claims.sub + '@' + auth.claims.tenant"
  }
}
tool "purge" {
  description = "Administration."
  scopes      = ["admin"]
  result {
    text = "'purged ' + auth.claims.tenant"
  }
}
`

// TestAuthOfATest: a test's auth is the token the call is made with:
// auth.* reads it, its scopes are checked (a missing one is the protocol
// error of a 403), and the subject defaults to the sub claim.
func TestAuthOfATest(t *testing.T) {
	tests := `
test "reader" {
  call = tool.whoami
  auth = { subject = "alice", scopes = ["read"], claims = { tenant = "acme", sub = "alice-sub" } }
  expect {
    text = "alice/alice-sub@acme"
  }
}
test "subject from sub" {
  call = tool.whoami
  auth = { scopes = ["read"], claims = { tenant = "acme", sub = "bob" } }
  expect {
    text = "bob/bob@acme"
  }
}
test "reader cannot purge" {
  call = tool.purge
  auth = { subject = "alice", scopes = ["read"], claims = { tenant = "acme", sub = "alice" } }
  expect {
    error = { contains = "needs the scope admin" }
  }
}
test "admin purges" {
  call = tool.purge
  auth = { subject = "root", scopes = ["admin"], claims = { tenant = "acme", sub = "root" } }
  expect {
    text = "purged acme"
  }
}
test "missing claim" {
  call = tool.whoami
  auth = { subject = "alice", scopes = ["read"], claims = { sub = "alice" } }
  expect {
    is_error = true
    text     = { contains = "no \"tenant\" claim" }
  }
}
test "no token" {
  call = tool.whoami
  expect {
    is_error = true
    text     = { contains = "carries no verified access token" }
  }
}
`
	dir := write(t, map[string]string{"a.hcl": identityConfig, "a_test.hcl": tests})
	results := runSuite(t, filepath.Join(dir, "a.hcl"), Options{})
	if len(results) != 6 {
		t.Fatalf("%d results", len(results))
	}
	for _, r := range results {
		if r.Status != Passed {
			t.Errorf("%s: %s %v\n%s", r.Case.Name, r.Status, r.Problems, r.Seen)
		}
	}
}

// TestAuthOfATestChecked: a test's token is checked before anything runs:
// only with an auth block, only declared scopes and claims, only the
// fields subject, scopes and claims.
func TestAuthOfATestChecked(t *testing.T) {
	for _, c := range []struct {
		config, auth, want string
	}{
		{tiny("a"), `{ subject = "alice" }`, "Test with a token but no auth block"},
		{identityConfig, `{ scopes = ["raed"] }`, `auth.scopes names "raed", which the auth block does not declare. Did you mean "read"?`},
		{identityConfig, `{ claims = { tenat = "acme" } }`, `auth.claims holds "tenat", which the auth block does not declare. Did you mean "tenant"?`},
		{identityConfig, `{ subjct = "alice" }`, `auth has no field "subjct"`},
		{identityConfig, `{ subject = 3 }`, "auth.subject is a string"},
		{identityConfig, `"alice"`, "auth is the caller's token"},
	} {
		target := "call = tool.whoami"
		if c.config != identityConfig {
			target = "resource = \"t://r\""
		}
		tests := "test \"t\" {\n  " + target + "\n  auth = " + c.auth + "\n}\n"
		dir := write(t, map[string]string{"a.hcl": c.config, "a_test.hcl": tests})
		suites, err := Discover([]string{filepath.Join(dir, "a.hcl")})
		if err != nil {
			t.Fatal(err)
		}
		_, diags := Prepare(suites[0], table.Options{})
		if !diags.HasErrors() || !strings.Contains(diags.Error(), c.want) || diags[0].Subject.Start.Line != 3 {
			t.Errorf("auth = %s: got %v, want %q at line 3", c.auth, diags, c.want)
		}
	}
}
