package testrun

import (
	"strings"
	"testing"
)

// exchangeConfig calls its API with a token exchanged for each caller.
const exchangeConfig = `
server {
  name    = "tx"
  version = "1.0.0"
}
auth {
  resource              = "https://mcp.example.com/mcp"
  authorization_servers = ["https://as.example.com"]
  scope "read" {}
}
backend "http" "api" {
  base_url = "https://api.example.com"
  auth {
    token_exchange {
      token_url     = "https://as.example.com/token"
      client_id     = "mcp"
      client_secret = "s3cret-client-value"
      audience      = "api"
    }
  }
}
tool "get_item" {
  description = "Reads one item by its id."
  scopes      = ["read"]
  arg "id" {
    type        = string
    description = "The item's id."
  }
  http "api" {
    method = "GET"
    path   = "/items/${args.id}"
  }
}
`

// TestTokenExchangeInATest: a test whose caller is given (auth = {...})
// runs a tool whose backend exchanges the caller's token: the exchange
// is a request of the backend, answered by a mock of the token URL, and
// the API's mock sees the exchanged token. Without that mock the test
// fails naming the token request; without a caller, the call is refused
// as it is over stdio, with a tool error.
func TestTokenExchangeInATest(t *testing.T) {
	const caller = `
  auth = {
    subject = "alice"
    scopes  = ["read"]
  }`
	const tokenMock = `
  mock "api" {
    request {
      method = "POST"
      path   = "/token"
    }
    response {
      json = { access_token = "exchanged-for-alice", token_type = "Bearer", expires_in = 300 }
    }
  }`
	const apiMock = `
  mock "api" {
    request {
      path    = "/items/7"
      headers = { Authorization = "Bearer exchanged-for-alice" }
    }
    response {
      json = { id = "7" }
    }
  }`
	test := func(name, body, expect string) string {
		return "test \"" + name + "\" {\n  call = tool.get_item\n  args = { id = \"7\" }\n" + body + "\n  expect {\n    " + expect + "\n  }\n}\n"
	}
	dir := write(t, map[string]string{
		"tx.hcl": exchangeConfig,
		"tx_test.hcl": test("exchanged", caller+tokenMock+apiMock, `text = "{\"id\":\"7\"}"`) +
			test("token URL not mocked", caller+apiMock, `text = "{\"id\":\"7\"}"`) +
			test("no caller", "", "is_error = true\n    text     = { contains = \"carries no verified access token\" }"),
	})
	results := runSuite(t, dir+"/tx.hcl", Options{})
	got := statuses(results)
	want := map[string]Status{"exchanged": Passed, "token URL not mocked": Failed, "no caller": Passed}
	for name, s := range want {
		if got[name] != s {
			t.Errorf("%s: %v, want %v", name, got[name], s)
		}
	}
	for _, r := range results {
		if r.Case.Name == "token URL not mocked" {
			if text := strings.Join(r.Problems, "\n"); !strings.Contains(text, "POST /token, which no mock matches") {
				t.Errorf("the failure does not name the token request:\n%s", text)
			}
		}
	}
}
