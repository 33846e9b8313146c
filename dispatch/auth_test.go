package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// authConfig serves orders from SQLite (only the caller's rows) and an
// HTTP API that records what it was sent.
const authConfig = `
variable "url" {
  type = string
}
variable "db" {
  type = string
}
auth {
  resource              = "https://mcp.example.com/mcp"
  authorization_servers = ["https://login.example.com"]
  scope "orders:read" {}
  scope "orders:write" {}
  claim "sub" {
    type = string
  }
  claim "tenant" {
    type = string
  }
  claim "level" {
    type     = integer
    required = false
  }
}
backend "sql" "db" {
  driver   = "sqlite"
  dsn      = var.db
  init_sql = "orders.sql"
}
backend "http" "api" {
  base_url = var.url
}
tool "my_orders" {
  description = "The caller's orders."
  scopes      = ["orders:read"]
  sql "db" {
    query = "SELECT id FROM orders WHERE owner = ${auth.claims.sub} ORDER BY id"
  }
  result {
    text = "auth.subject + ' has ' + string(len(rows)) + ' orders'"
  }
}
tool "order" {
  description = "Place an order."
  scopes      = ["orders:write"]
  arg "item" {
    type = string
  }
  step "check" {
    http "api" {
      path = "/tenants/${auth.claims.tenant}/check"
    }
  }
  http "api" {
    method  = "POST"
    path    = "/tenants/${auth.claims.tenant}/orders"
    headers = { X-User = auth.subject }
    body    = { item = args.item, level = auth.claims.level, scopes = auth.scopes }
  }
}
tool "shell_whoami" {
  description = "The caller, through a command."
  shell {
    command = ["sh", "-c", "printf '%s|%s' \"$1\" \"$TENANT\"", "who", auth.subject]
    env     = { TENANT = auth.claims.tenant }
  }
}
tool "open" {
  description = "Needs no identity."
  http "api" {
    path = "/open"
  }
}
resource "me" {
  uri    = "orders://me"
  scopes = ["orders:read"]
  sql "db" {
    query = "SELECT count(*) AS n FROM orders WHERE owner = ${auth.claims.sub}"
  }
}
prompt "hello" {
  description = "Hello."
  message "user" {
    text = "Hello ${auth.subject} of ${auth.claims.tenant}"
  }
}
`

type recordingAPI struct {
	mu   sync.Mutex
	seen []*http.Request
	body []string
}

func (a *recordingAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b := make([]byte, 4096)
	n, _ := r.Body.Read(b)
	a.mu.Lock()
	a.seen, a.body = append(a.seen, r), append(a.body, string(b[:n]))
	a.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{"ok":true}`))
}

func authTable(t *testing.T) (*table.Table, *recordingAPI) {
	t.Helper()
	dir := t.TempDir()
	sql := "CREATE TABLE orders (id INTEGER, owner TEXT); INSERT INTO orders VALUES (1, 'alice'), (2, 'bob'), (3, 'alice');"
	if err := os.WriteFile(filepath.Join(dir, "orders.sql"), []byte(sql), 0o600); err != nil {
		t.Fatal(err)
	}
	api := &recordingAPI{}
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	cfg, diags := lang.LoadSource(filepath.Join(dir, "auth.hcl"), []byte(authConfig))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{Vars: map[string]string{"url": srv.URL, "db": filepath.Join(dir, "orders.db")}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if failed := tbl.OpenBackends(context.Background()); len(failed) > 0 {
		t.Fatal(failed[0])
	}
	t.Cleanup(func() { tbl.CloseBackends(nil) })
	return tbl, api
}

func identity(sub string, scopes ...string) *auth.Identity {
	return &auth.Identity{Subject: sub, Scopes: scopes, Claims: map[string]any{"sub": sub, "tenant": "acme", "level": float64(3)}}
}

func resultText(r *ToolResult) string {
	var parts []string
	for _, b := range r.Content {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, "\n")
}

// TestClaimsFilterSQLRows: auth.claims.sub is bound as a parameter, so
// each caller sees only their own rows; the result reads auth.subject.
func TestClaimsFilterSQLRows(t *testing.T) {
	tbl, _ := authTable(t)
	for sub, want := range map[string]string{"alice": "alice has 2 orders", "bob": "bob has 1 orders", "eve": "eve has 0 orders"} {
		res, err := CallTool(context.Background(), tbl, "my_orders", &CallInput{Identity: identity(sub, "orders:read")})
		if err != nil || res.IsError || resultText(res) != want {
			t.Errorf("%s: got %+v, %v; want %q", sub, res, err, want)
		}
	}
}

// TestClaimArgumentCannotBeSent: a model sending an argument named like
// the claim is refused (the tool declares no such argument); the claim
// comes from the token only.
func TestClaimArgumentCannotBeSent(t *testing.T) {
	tbl, _ := authTable(t)
	res, err := CallTool(context.Background(), tbl, "my_orders", &CallInput{Identity: identity("bob", "orders:read"), Arguments: json.RawMessage(`{"sub":"alice"}`)})
	if err != nil || !res.IsError || !strings.Contains(resultText(res), "sub") {
		t.Fatalf("got %+v, %v; want an error result naming the argument sub", res, err)
	}
}

// TestClaimsReachHTTP: claims in the path, a header and the body, in the
// step and the call.
func TestClaimsReachHTTP(t *testing.T) {
	tbl, api := authTable(t)
	res, err := CallTool(context.Background(), tbl, "order", &CallInput{Identity: identity("alice", "orders:write"), Arguments: json.RawMessage(`{"item":"pen"}`)})
	if err != nil || res.IsError {
		t.Fatalf("got %+v, %v", res, err)
	}
	if len(api.seen) != 2 || api.seen[0].URL.Path != "/tenants/acme/check" || api.seen[1].URL.Path != "/tenants/acme/orders" {
		t.Fatalf("backend saw %d requests: %v", len(api.seen), api.seen)
	}
	if got := api.seen[1].Header.Get("X-User"); got != "alice" {
		t.Errorf("X-User = %q, want alice", got)
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(api.body[1]), &body); err != nil || body["level"] != float64(3) || body["item"] != "pen" {
		t.Errorf("body %s (%v)", api.body[1], err)
	}
}

// TestMissingScope: a token without the tool's scope gets an
// InsufficientScope error naming what to ask for (what it holds, plus
// what is needed), and nothing runs.
func TestMissingScope(t *testing.T) {
	tbl, api := authTable(t)
	_, err := CallTool(context.Background(), tbl, "order", &CallInput{Identity: identity("alice", "orders:read"), Arguments: json.RawMessage(`{"item":"pen"}`)})
	var ce *CallError
	if !errors.As(err, &ce) || ce.Code != InsufficientScope || !slices.Equal(ce.Scopes, []string{"orders:read", "orders:write"}) {
		t.Fatalf("got %v (%#v), want InsufficientScope with orders:read orders:write", err, ce)
	}
	if len(api.seen) != 0 {
		t.Errorf("the backend was called")
	}
	_, err = ReadResource(context.Background(), tbl, "orders://me", &CallInput{Identity: identity("alice")})
	if !errors.As(err, &ce) || ce.Code != InsufficientScope {
		t.Fatalf("resource: got %v, want InsufficientScope", err)
	}
}

// TestIdentityRequired: without a verified token (stdio), a tool that
// reads auth.* is refused with a message; one that does not still runs,
// scopes or not.
func TestIdentityRequired(t *testing.T) {
	tbl, api := authTable(t)
	res, err := CallTool(context.Background(), tbl, "my_orders", &CallInput{})
	if err != nil || !res.IsError || !strings.Contains(resultText(res), "no verified access token") {
		t.Fatalf("got %+v, %v", res, err)
	}
	res, err = CallTool(context.Background(), tbl, "open", &CallInput{})
	if err != nil || res.IsError || len(api.seen) != 1 {
		t.Fatalf("open: got %+v, %v", res, err)
	}
	if _, err := GetPrompt(context.Background(), tbl, "hello", nil, &CallInput{}); err == nil {
		t.Fatal("prompt: want a refusal without identity")
	}
	p, err := GetPrompt(context.Background(), tbl, "hello", nil, &CallInput{Identity: identity("alice")})
	if err != nil || p.Messages[0].Content.Text != "Hello alice of acme" {
		t.Fatalf("prompt: got %+v, %v", p, err)
	}
	c, err := ReadResource(context.Background(), tbl, "orders://me", &CallInput{Identity: identity("alice", "orders:read")})
	if err != nil || !strings.Contains(c[0].Text, "2") {
		t.Fatalf("resource: got %+v, %v", c, err)
	}
}

// TestRequiredClaimMissing: a token without a required claim is refused,
// naming it; an optional one absent is null.
func TestRequiredClaimMissing(t *testing.T) {
	tbl, api := authTable(t)
	id := &auth.Identity{Subject: "alice", Scopes: []string{"orders:write"}, Claims: map[string]any{"sub": "alice"}}
	res, err := CallTool(context.Background(), tbl, "order", &CallInput{Identity: id, Arguments: json.RawMessage(`{"item":"pen"}`)})
	if err != nil || !res.IsError || !strings.Contains(resultText(res), `"tenant" claim`) {
		t.Fatalf("got %+v, %v", res, err)
	}
	id.Claims["tenant"] = "acme"
	res, err = CallTool(context.Background(), tbl, "order", &CallInput{Identity: id, Arguments: json.RawMessage(`{"item":"pen"}`)})
	if err != nil || res.IsError || !strings.Contains(api.body[len(api.body)-1], `"level":null`) {
		t.Fatalf("got %+v, %v, body %v", res, err, api.body)
	}
	id.Claims["tenant"] = []any{"not", "a", "string"}
	res, _ = CallTool(context.Background(), tbl, "order", &CallInput{Identity: id, Arguments: json.RawMessage(`{"item":"pen"}`)})
	if !res.IsError || !strings.Contains(resultText(res), "is not a string") {
		t.Fatalf("got %+v", res)
	}
}

// TestClaimsReachCommands: auth.subject is one argv element and a claim
// an environment value of a command.
func TestClaimsReachCommands(t *testing.T) {
	tbl, _ := authTable(t)
	id := identity("alice; rm -rf /", "orders:read")
	res, err := CallTool(context.Background(), tbl, "shell_whoami", &CallInput{Identity: id})
	if err != nil || res.IsError || resultText(res) != "alice; rm -rf /|acme" {
		t.Fatalf("got %+v, %v", res, err)
	}
}
