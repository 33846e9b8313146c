package server_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	mcpgotransport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/observe/audit"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
	"github.com/mcpdecl/mcpdecl/tasks"
	"github.com/mcpdecl/mcpdecl/testkit/wiretest"
)

// openTrail opens an audit trail in a temporary folder; records closes it
// and returns its records (the seed line left out) after checking the
// chain.
func openTrail(t *testing.T) (*audit.Log, func() []map[string]any) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	log, err := audit.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return log, func() []map[string]any {
		t.Helper()
		if err := log.Close(); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := audit.Verify(f); err != nil {
			t.Fatalf("Verify: %v", err)
		}
		data, _ := os.ReadFile(path)
		var out []map[string]any
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
			var r map[string]any
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			out = append(out, r)
		}
		return out
	}
}

// ofMethod are the records of method.
func ofMethod(records []map[string]any, method string) []map[string]any {
	var out []map[string]any
	for _, r := range records {
		if r["method"] == method {
			out = append(out, r)
		}
	}
	return out
}

// TestAuditTaskResults2026: a 2026-07-28 tasks/get that answers with an
// ended task hands out its result inlined, and is recorded with the task
// id and the result's outcome (ok, or tool_error for a result with
// isError); polls of a running task are not (a
// client polling would fill the trail); a tasks/get of an unknown task is
// recorded as the protocol error it gets.
func TestAuditTaskResults2026(t *testing.T) {
	log, records := openTrail(t)
	r := newReplicaOf(t, taskConfig+`
tool "broken" {
  description = "Fails, as a task."
  shell {
    command = ["false"]
  }
  task {}
}
`, tasks.NewMemory(), &server.Options{Audit: log})

	secs := uniqueSeconds()
	running := r.rpc(t, "tools/call", `"name":"sleeper","arguments":{"seconds":`+secs+`}`)["taskId"].(string)
	waitSleepers(t, secs, 1)
	for range 3 {
		if got := r.rpc(t, "tasks/get", `"taskId":"`+running+`"`); got["status"] != "working" {
			t.Fatalf("the sleeper's task: %v", got)
		}
	}
	r.rpc(t, "tasks/cancel", `"taskId":"`+running+`"`)
	waitSleepers(t, secs, 0)

	awaitEnd := func(tool, args, want string) string {
		t.Helper()
		id := r.rpc(t, "tools/call", `"name":"`+tool+`","arguments":`+args)["taskId"].(string)
		deadline := time.Now().Add(10 * time.Second)
		for {
			got := r.rpc(t, "tasks/get", `"taskId":"`+id+`"`)
			if got["status"] == "completed" {
				if !strings.Contains(string(mustJSON(t, got)), want) {
					t.Fatalf("tasks/get of the ended task does not inline its result: %v", got)
				}
				return id
			}
			if time.Now().After(deadline) {
				t.Fatalf("the %s task did not end: %v", tool, got)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	done := awaitEnd("quick", `{"word":"later"}`, "echo: later")
	broken := awaitEnd("broken", `{}`, `"isError":true`)
	if _, e := r.try(t, tasksCaps, "tasks/get", `"taskId":"no-such-task"`); e == nil {
		t.Fatal("tasks/get of an unknown task answered")
	}

	gets := ofMethod(records(), "tasks/get")
	if len(gets) != 3 {
		t.Fatalf("%d tasks/get records, want 3 (the ended tasks', the unknown one's): %v", len(gets), gets)
	}
	if g := gets[0]; g["task_id"] != done || g["name"] != "quick" || g["outcome"] != "ok" || g["protocol"] != mcp.Version20260728 {
		t.Errorf("the ended task's tasks/get: %v", g)
	}
	if g := gets[1]; g["task_id"] != broken || g["name"] != "broken" || g["outcome"] != "tool_error" {
		t.Errorf("the failed tool's tasks/get: %v", g)
	}
	if g := gets[2]; g["task_id"] != "no-such-task" || g["outcome"] != "protocol_error" || g["code"] != -32602.0 {
		t.Errorf("the unknown task's tasks/get: %v", g)
	}
}

// TestAuditTaskResults2025: a 2025-11-25 client, mcp-go (a real client
// with that revision's tasks; its CallTool cannot decode a
// CreateTaskResult, so the task-augmented call goes through its
// transport), gets a task's result with tasks/result, which is recorded
// with the task id, the tool and the outcome; its tasks/get (status
// only) and tasks/list (ids and statuses) hand out no result and are not
// recorded; a tasks/result of an unknown task is, with its error.
func TestAuditTaskResults2025(t *testing.T) {
	log, records := openTrail(t)
	r := newReplica(t, tasks.NewMemory(), &server.Options{Audit: log})
	tr, err := mcpgotransport.NewStreamableHTTP(r.url)
	if err != nil {
		t.Fatal(err)
	}
	c, version := wiretest.StartMCPGo(t, tr, mcp.Version20251125, "audit-tasks-mcp-go")
	defer c.Close()
	if version != mcp.Version20251125 {
		t.Fatalf("negotiated %s", version)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	id := mcpgoTask(t, ctx, c, "quick", `{"word":"later"}`)
	res, err := c.TaskResult(ctx, mcpgo.TaskResultRequest{Params: mcpgo.TaskResultParams{TaskId: id}})
	if err != nil || !strings.Contains(string(mustJSON(t, res)), "echo: later") {
		t.Fatalf("tasks/result: %v, %v", res, err)
	}
	if _, err := c.GetTask(ctx, mcpgo.GetTaskRequest{Params: mcpgo.GetTaskParams{TaskId: id}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListTasks(ctx, mcpgo.ListTasksRequest{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.TaskResult(ctx, mcpgo.TaskResultRequest{Params: mcpgo.TaskResultParams{TaskId: "no-such-task"}}); err == nil {
		t.Fatal("tasks/result of an unknown task answered")
	}

	all := records()
	results := ofMethod(all, "tasks/result")
	if len(results) != 2 {
		t.Fatalf("%d tasks/result records, want 2: %v", len(results), all)
	}
	principal, _ := results[0]["principal"].(string)
	if r := results[0]; r["task_id"] != id || r["name"] != "quick" || r["outcome"] != "ok" || !strings.HasPrefix(principal, "session:") || r["protocol"] != mcp.Version20251125 {
		t.Errorf("tasks/result: %v", r)
	}
	if r := results[1]; r["task_id"] != "no-such-task" || r["outcome"] != "protocol_error" || r["code"] != -32602.0 {
		t.Errorf("tasks/result of an unknown task: %v", r)
	}
	if n := len(ofMethod(all, "tasks/get")) + len(ofMethod(all, "tasks/list")); n != 0 {
		t.Errorf("%d records of tasks/get and tasks/list, which hand out no result: %v", n, all)
	}
}

const completionConfig = `
variable "token" {
  type      = string
  sensitive = true
  default   = "sec-41c9-never-in-audit"
}
prompt "fruit" {
  description = "Talk about a fruit."
  arg "name" {
    complete {
      shell {
        command = ["printf", "apple\napricot\n"]
        output  = "lines"
      }
    }
  }
  arg "colour" {
    completions = ["green", "red"]
  }
  message "user" {
    text = "Tell me about the ${args.colour} ${args.name}."
  }
}
`

// TestAuditCompletions: real clients (go-sdk) in both eras ask for
// completions; one that runs the argument's complete block (a backend
// call) is recorded with the prompt, the argument and its typed value
// (a secret in it redacted), one that filters a list of the
// configuration is not.
func TestAuditCompletions(t *testing.T) {
	log, records := openTrail(t)
	cfg, diags := lang.LoadSource("completion.hcl", []byte(completionConfig))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	srv := server.New(tbl, &server.Options{Audit: log})
	endpoint := startGuarded(t, srv, srv)
	ctx := context.Background()
	for _, e := range eras {
		c := connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: endpoint}, e.version)
		if got, err := c.complete(ctx, "fruit", "name", "ap"); err != nil || strings.Join(got, ",") != "apple,apricot" {
			t.Fatalf("%s: completing name: %v, %v", e.name, got, err)
		}
		if _, err := c.complete(ctx, "fruit", "name", "sec-41c9-never-in-audit"); err != nil {
			t.Fatalf("%s: %v", e.name, err)
		}
		if got, err := c.complete(ctx, "fruit", "colour", "g"); err != nil || strings.Join(got, ",") != "green" {
			t.Fatalf("%s: completing colour: %v, %v", e.name, got, err)
		}
		c.close()
	}
	all := records()
	got := ofMethod(all, "completion/complete")
	if len(got) != 4 {
		t.Fatalf("%d completion records, want 4 (two per era, of the argument a backend completes): %v", len(got), all)
	}
	for i, r := range got {
		want := `{"name":"ap"}`
		if i%2 == 1 {
			want = `{"name":"[redacted]"}`
		}
		if r["name"] != "fruit" || string(mustJSON(t, r["arguments"])) != want || r["outcome"] != "ok" || r["protocol"] != eras[i/2].version {
			t.Errorf("completion record %d: %v", i, r)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
