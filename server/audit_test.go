package server_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/observe/audit"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
	"github.com/mcpdecl/mcpdecl/tasks"
)

// The secrets the audit trail must never hold: the env() value of a
// sensitive variable, the values of sensitive arguments, and bearer
// credentials in arguments.
const (
	envSecret      = "ENV-7d1e-never-in-audit"
	sensitiveToken = "tok-93b0-never-in-audit"
	promptSecret   = "pin-5a2c-never-in-audit"
	bearerToken    = "eyJhbGciOi.never-in-audit.sig"
)

const auditedConfig = `
server {
  name      = "audited"
  version   = "1.0.0"
  allow_env = ["AUDIT_API_KEY"]
}
variable "api_key" {
  type      = string
  sensitive = true
  default   = env("AUDIT_API_KEY")
}
tool "login" {
  description = "Logs in."
  arg "token" {
    type      = string
    sensitive = true
  }
  arg "note" {
    type        = string
    description = "A note."
  }
  content "text" {
    text = "ok"
  }
}
resource "policy" {
  uri  = "library://policy"
  text = "Books are lent for three weeks."
}
prompt "greet" {
  arg "pin" {
    sensitive = true
  }
  message "user" {
    text = "Hello."
  }
}
limit "login" {
  per   = "caller"
  rate  = "3/hour"
  tools = ["login"]
}
`

func auditedServer(t *testing.T, log *audit.Log) *server.Server {
	t.Helper()
	cfg, diags := lang.LoadSource("audited.hcl", []byte(auditedConfig))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, adapter.NewRegistry(), table.Options{LookupEnv: func(name string) (string, bool) {
		return envSecret, name == "AUDIT_API_KEY"
	}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return server.New(tbl, &server.Options{Audit: log})
}

// TestAuditTrail: real clients in both eras call tools (directly and
// through call_tool), read a resource and get a prompt; the trail holds
// one chained record per call, with who, what and how it ended, and none
// of the secrets.
func TestAuditTrail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	log, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	srv := auditedServer(t, log)
	direct := startGuarded(t, srv, srv)
	view := srv.View(nil, true)
	dynamic := startGuarded(t, srv, view)
	ctx := context.Background()
	for _, e := range eras {
		c := connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: direct}, e.version)
		for _, note := range []string{"Bearer " + bearerToken, "the key is " + envSecret, `quoted "` + envSecret + `"`} {
			if _, _, isErr, err := c.callTool(ctx, "login", map[string]any{"token": sensitiveToken, "note": note}); err != nil || isErr {
				t.Fatalf("%s: login: %v %v", e.name, isErr, err)
			}
		}
		// The fourth call of the caller is refused by the limit.
		if _, _, isErr, _ := c.callTool(ctx, "login", map[string]any{"token": sensitiveToken, "note": "x"}); !isErr && e.era == mcp.EraLegacy {
			t.Fatalf("%s: fourth login not refused", e.name)
		}
		if _, err := c.readResource(ctx, "library://policy"); err != nil {
			t.Fatal(err)
		}
		if _, err := c.getPrompt(ctx, "greet", map[string]string{"pin": promptSecret}); err != nil {
			t.Fatal(err)
		}
		if _, _, _, err := c.callTool(ctx, "nope", nil); err == nil {
			t.Fatal("unknown tool answered")
		}
		c.close()
		d := connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: dynamic}, e.version)
		if _, _, _, err := d.callTool(ctx, "call_tool", map[string]any{"name": "login", "arguments": map[string]any{"token": sensitiveToken, "note": "via"}}); err != nil {
			t.Fatal(err)
		}
		// Calls the view answers itself: a meta-tool, and a name it
		// does not have.
		if _, _, isErr, err := d.callTool(ctx, "search_tools", map[string]any{"query": "log in"}); err != nil || isErr {
			t.Fatal(isErr, err)
		}
		if _, _, _, err := d.callTool(ctx, "nope", nil); err == nil {
			t.Fatal("an unknown tool answered through the view")
		}
		d.close()
	}
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{envSecret, sensitiveToken, promptSecret, bearerToken} {
		if strings.Contains(string(data), secret) {
			t.Errorf("the audit trail holds the secret %q:\n%s", secret, data)
		}
	}
	f, _ := os.Open(path)
	defer f.Close()
	n, err := audit.Verify(f)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	var records []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		records = append(records, r)
	}
	if n != len(records) {
		t.Fatalf("Verify counted %d records, the file has %d", n, len(records))
	}
	count := func(pred func(map[string]any) bool) int {
		k := 0
		for _, r := range records {
			if pred(r) {
				k++
			}
		}
		return k
	}
	is := func(k, v string) func(map[string]any) bool { return func(r map[string]any) bool { return r[k] == v } }
	// Per era: 4 logins (3 ok, 1 refused), a read, a prompt, an unknown
	// tool, a call_tool, a search_tools, an unknown tool through the view.
	if got := count(is("method", "tools/call")); got != 2*8 {
		t.Errorf("%d tools/call records, want 16", got)
	}
	if got := count(func(r map[string]any) bool { return r["name"] == "search_tools" && r["outcome"] == "ok" }); got != 2 {
		t.Errorf("%d search_tools records, want 2", got)
	}
	// Anonymous modern callers share one bucket: the modern call_tool
	// is refused too; the 2025 one comes from a new session.
	if got := count(is("outcome", "refused")); got != 3 {
		t.Errorf("%d refused records, want 3:\n%s", got, data)
	}
	if got := count(is("via", "call_tool")); got != 2 {
		t.Errorf("%d records via call_tool, want 2:\n%s", got, data)
	}
	if got := count(func(r map[string]any) bool {
		return r["method"] == "resources/read" && r["uri"] == "library://policy" && r["name"] == "policy"
	}); got != 2 {
		t.Errorf("%d resources/read records, want 2", got)
	}
	if got := count(func(r map[string]any) bool {
		return r["method"] == "tools/call" && r["name"] == "unknown" && r["outcome"] == "protocol_error" && r["code"] == float64(-32602)
	}); got != 4 {
		t.Errorf("%d unknown-tool records with code -32602, want 4 (two per era: on the server, and through the view):\n%s", got, data)
	}
	for _, r := range records {
		if r["request_id"] == "" || r["principal"] == nil || r["time"] == nil || r["duration_ms"] == nil {
			t.Errorf("record without who, when or request id: %v", r)
		}
		if r["name"] == "login" {
			args, _ := r["arguments"].(map[string]any)
			if args["token"] != "[redacted]" {
				t.Errorf("login's sensitive token is %v, want the redaction marker", args["token"])
			}
		}
	}
	if got := count(func(r map[string]any) bool {
		a, _ := r["arguments"].(map[string]any)
		return a != nil && a["note"] == "Bearer [redacted]"
	}); got != 2 {
		t.Errorf("%d records with the bearer credential redacted, want 2", got)
	}
}

// TestAuditTasks: a tools/call that becomes a task is recorded with its
// task id, and so is the task's cancellation.
func TestAuditTasks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	log, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	r := newReplica(t, tasks.NewMemory(), &server.Options{Audit: log})
	secs := uniqueSeconds()
	created := r.rpc(t, "tools/call", `"name":"sleeper","arguments":{"seconds":`+secs+`}`)
	id, _ := created["taskId"].(string)
	if id == "" {
		t.Fatalf("no task: %v", created)
	}
	waitSleepers(t, secs, 1)
	r.rpc(t, "tasks/cancel", `"taskId":"`+id+`"`)
	waitSleepers(t, secs, 0)
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	text := string(data)
	if !strings.Contains(text, `"method":"tools/call","name":"sleeper","arguments":{"seconds":`+secs+`},"outcome":"task_created"`) ||
		!strings.Contains(text, `"task_id":"`+id+`"`) || strings.Count(text, `"task_id":"`+id+`"`) != 2 ||
		!strings.Contains(text, `"method":"tasks/cancel","outcome":"ok"`) {
		t.Fatalf("trail:\n%s", text)
	}
}
