package table_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

const exchangingBackend = `backend "http" "orders" {
  base_url = "https://orders.example.com"
  auth {
    token_exchange {
      token_url     = "https://login.example.com/token"
      client_id     = "orders-mcp"
      client_secret = "s3cret-value"
      audience      = "orders-api"
    }
  }
}
tool "list_orders" {
  description = "List the caller's orders."
  http "orders" { path = "/orders" }
}
`

const authBlock = `auth {
  resource              = "https://mcp.example.com/mcp"
  authorization_servers = ["https://login.example.com"]
}
`

// compileWhere compiles src and returns each diagnostic as
// "file:line:col: severity: summary".
func compileWhere(t *testing.T, src string) (*table.Table, []string) {
	t.Helper()
	cfg, diags := lang.LoadSource("t.hcl", []byte(src))
	var tbl *table.Table
	if !cfg.Incomplete {
		tb, cd := table.Compile(cfg, all.Registry(), table.Options{})
		tbl = tb
		diags = append(diags, cd...)
	}
	var out []string
	for _, d := range diags {
		where := ""
		if d.Subject != nil {
			where = fmt.Sprintf("%s:%d:%d: ", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column)
		}
		out = append(out, fmt.Sprintf("%s%s: %s", where, d.Summary, d.Detail))
	}
	return tbl, out
}

// TestTokenExchangeNeedsAuthBlock: a backend that exchanges the caller's
// token in a configuration that checks no tokens is a load error at its
// token_exchange block.
func TestTokenExchangeNeedsAuthBlock(t *testing.T) {
	_, got := compileWhere(t, exchangingBackend)
	if len(got) != 1 || !strings.HasPrefix(got[0], "t.hcl:4:5: Acting for the caller without an auth block: The backend \"orders\" has a token_exchange block") {
		t.Fatalf("diagnostics: %q", got)
	}
}

// TestTokenExchangeCallersReadIdentity: with an auth block, the tool
// calling an exchanging backend needs a verified caller (as if it read
// auth.*), and the auth block keeps the verified token for the exchange.
func TestTokenExchangeCallersReadIdentity(t *testing.T) {
	tbl, got := compileWhere(t, authBlock+exchangingBackend)
	if len(got) != 0 {
		t.Fatalf("diagnostics: %q", got)
	}
	if !tbl.Tool("list_orders").UsesIdentity {
		t.Error("the tool calling a token_exchange backend does not need a verified caller")
	}
	if !tbl.Auth.KeepToken {
		t.Error("the auth block does not keep the verified token for the exchange")
	}
	plain, got := compileWhere(t, authBlock+`tool "ping" {
  description = "Ping."
  result { text = "'pong'" }
}`)
	if len(got) != 0 || plain.Auth.KeepToken {
		t.Errorf("a configuration without token exchange keeps tokens (%v, %q)", plain.Auth.KeepToken, got)
	}
}

// TestTokenExchangeNotFromCompletions: a completion has no caller to act
// for.
func TestTokenExchangeNotFromCompletions(t *testing.T) {
	_, got := compileWhere(t, authBlock+strings.Replace(exchangingBackend, `tool "list_orders" {
  description = "List the caller's orders."
  http "orders" { path = "/orders" }
}`, `tool "find" {
  description = "Find an order."
  arg "id" {
    type = string
    complete {
      http "orders" { path = "/ids" }
    }
  }
  result { text = "'ok'" }
}`, 1))
	if len(got) != 1 || !strings.Contains(got[0], "Backend acting for the caller") {
		t.Fatalf("diagnostics: %q", got)
	}
}

// TestIdentityNeedsAuthBlock: an SQL backend's identity block in a
// configuration that checks no tokens is a load error at the block.
func TestIdentityNeedsAuthBlock(t *testing.T) {
	_, got := compileWhere(t, `backend "sql" "db" {
  driver = "postgres"
  dsn    = "postgres://app@db.example.com/orders"
  identity {
    role = "orders_reader"
  }
}
tool "orders" {
  description = "Orders."
  sql "db" { query = "SELECT 1" }
}
`)
	if len(got) != 1 || !strings.HasPrefix(got[0], "t.hcl:4:3: Acting for the caller without an auth block: The backend \"db\" has an identity block") {
		t.Fatalf("diagnostics: %q", got)
	}
}

// TestIdentityInJSONSyntax: an identity block written in JSON compiles as
// the native one does, and its backend's callers need a verified caller.
func TestIdentityInJSONSyntax(t *testing.T) {
	cfg, diags := lang.LoadSource("t.hcl.json", []byte(`{
  "auth": {"resource": "https://mcp.example.com/mcp", "authorization_servers": ["https://login.example.com"],
           "claim": {"tenant": {"type": "string"}}},
  "backend": {"sql": {"db": {"driver": "postgres", "dsn": "postgres://app@db.example.com/orders",
    "identity": {"role": "orders_reader", "settings": {"app.tenant": "${auth.claims.tenant}"}}}}},
  "tool": {"orders": {"description": "Orders.", "sql": {"db": {"query": "SELECT 1"}}}}
}`))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if !tbl.Tool("orders").UsesIdentity || tbl.Auth.KeepToken {
		t.Errorf("UsesIdentity %v, KeepToken %v; want true, false (an identity needs no token)", tbl.Tool("orders").UsesIdentity, tbl.Auth.KeepToken)
	}
}
