package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	mcpgoclient "github.com/mark3labs/mcp-go/client"
	mcpgotransport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/internal/testenv"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
	"github.com/mcpdecl/mcpdecl/tasks"
	"github.com/mcpdecl/mcpdecl/testkit/wiretest"
)

// toolsetTasksConfig serves taskConfig's tools that run as tasks through
// the meta-tools of the dynamic toolset "work": "noted" may run as a task
// (and keeps its result for the task's default time to live, so polling
// under load finds it), must_task runs only as one, sleeper is cancelled.
const toolsetTasksConfig = taskConfig + `
tool "noted" {
  description = "Answers with the word, from a task if asked."
  arg "word" {
    type = string
  }
  result {
    structured = "{'word': args.word}"
    text       = "'noted: ' + args.word"
  }
  task {
    poll_interval = "50ms"
  }
}

toolset "work" {
  tools   = ["noted", "must_task", "sleeper"]
  dynamic = true
}
`

// startToolsetTasks serves the toolset "work" of toolsetTasksConfig over
// HTTP in process, every server message validated into the returned log.
func startToolsetTasks(t *testing.T) (string, *wireLog) {
	t.Helper()
	cfg, diags := lang.LoadSource("toolset-tasks.hcl", []byte(toolsetTasksConfig))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	srv, err := server.Open(context.Background(), tbl, &server.Options{TaskStore: tasks.NewMemory()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = srv.DrainTasks(ctx)
		srv.Close()
	})
	log := &wireLog{}
	u, _ := startHTTPInProcess(t, log, srv.View([]string{"work"}, false))
	return u, log
}

// TestToolsetTasksMCPGo: mcp-go 1.2.1, a real 2025-11-25 client, asks
// call_tool for a task of a tool that may run as one and of a tool that
// runs only as one, polls them with tasks/get, fetches their results with
// tasks/result (equal to the direct task call's), and cancels a running
// one with tasks/cancel; over HTTP in process, over the binary's HTTP
// listener at /mcp/toolsets/work, and over stdio with serve --toolset.
// mcp-go's CallTool cannot decode a CreateTaskResult (it wants content),
// so the task-augmented tools/call is sent through the client's own
// transport and session; every other request is the client's.
func TestToolsetTasksMCPGo(t *testing.T) {
	requireSchemas(t)
	config := filepath.Join(t.TempDir(), "toolset-tasks.hcl")
	if err := os.WriteFile(config, []byte(toolsetTasksConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	httpClient := func(t *testing.T, u string) mcpgotransport.Interface {
		tr, err := mcpgotransport.NewStreamableHTTP(u)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	for name, start := range map[string]func(t *testing.T) (mcpgotransport.Interface, *wireLog){
		"http": func(t *testing.T) (mcpgotransport.Interface, *wireLog) {
			u, log := startToolsetTasks(t)
			return httpClient(t, u), log
		},
		"http-binary": func(t *testing.T) (mcpgotransport.Interface, *wireLog) {
			log := &wireLog{}
			return httpClient(t, startHTTPBinary(t, log, config)+"/toolsets/work"), log
		},
		"stdio": func(t *testing.T) (mcpgotransport.Interface, *wireLog) {
			log := &wireLog{}
			p := startStdio(t, log, "--toolset", "work", config)
			return mcpgotransport.NewIO(p.stdout, p.stdin, io.NopCloser(strings.NewReader(""))), log
		},
	} {
		t.Run(name, func(t *testing.T) {
			tr, log := start(t)
			mcpgoTasksScenario(t, tr)
			v := mcp.Version20251125
			log.verify(t, v+" tools/call", v+" tasks/get", v+" tasks/result", v+" tasks/cancel")
		})
	}
}

func mcpgoTasksScenario(t *testing.T, tr mcpgotransport.Interface) {
	c, version := wiretest.StartMCPGo(t, tr, mcp.Version20251125, "toolset-tasks-mcp-go")
	defer c.Close()
	if version != mcp.Version20251125 {
		t.Fatalf("negotiated %s", version)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	listed, err := c.ListTools(ctx, mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(listed.Tools); n != 3 || listed.Tools[2].Name != "call_tool" || listed.Tools[2].Execution == nil || listed.Tools[2].Execution.TaskSupport != mcpgo.TaskSupportOptional {
		t.Fatalf("the meta-tools: %+v; want call_tool with taskSupport optional", listed.Tools)
	}

	for _, c2 := range []struct{ tool, args string }{
		{"noted", `{"word":"later"}`},
		{"must_task", `{}`},
	} {
		direct := mcpgoTask(t, ctx, c, c2.tool, c2.args)
		meta := mcpgoTask(t, ctx, c, "call_tool", `{"name":"`+c2.tool+`","arguments":`+c2.args+`}`)
		for _, id := range []string{direct, meta} {
			got, err := c.WaitForTask(ctx, mcpgo.GetTaskRequest{Params: mcpgo.GetTaskParams{TaskId: id}}, 50*time.Millisecond)
			if err != nil || got.Status != mcpgo.TaskStatusCompleted {
				t.Fatalf("%s: tasks/get of %s: %+v %v", c2.tool, id, got, err)
			}
		}
		dr, err := c.TaskResult(ctx, mcpgo.TaskResultRequest{Params: mcpgo.TaskResultParams{TaskId: direct}})
		if err != nil {
			t.Fatal(err)
		}
		mr, err := c.TaskResult(ctx, mcpgo.TaskResultRequest{Params: mcpgo.TaskResultParams{TaskId: meta}})
		if err != nil {
			t.Fatal(err)
		}
		if len(mr.Content) == 0 || !reflect.DeepEqual(dr.Content, mr.Content) || !reflect.DeepEqual(dr.StructuredContent, mr.StructuredContent) || dr.IsError != mr.IsError {
			t.Errorf("%s: the task's result through call_tool %+v; the direct task's %+v", c2.tool, mr, dr)
		}
	}

	secs := uniqueSeconds()
	id := mcpgoTask(t, ctx, c, "call_tool", `{"name":"sleeper","arguments":{"seconds":`+secs+`}}`)
	waitSleepers(t, secs, 1)
	if got, err := c.GetTask(ctx, mcpgo.GetTaskRequest{Params: mcpgo.GetTaskParams{TaskId: id}}); err != nil || got.Status != mcpgo.TaskStatusWorking {
		t.Fatalf("tasks/get of the running task: %+v %v", got, err)
	}
	if got, err := c.CancelTask(ctx, mcpgo.CancelTaskRequest{Params: mcpgo.CancelTaskParams{TaskId: id}}); err != nil || got.Status != mcpgo.TaskStatusCancelled {
		t.Fatalf("tasks/cancel: %+v %v", got, err)
	}
	waitSleepers(t, secs, 0)
	if got, err := c.GetTask(ctx, mcpgo.GetTaskRequest{Params: mcpgo.GetTaskParams{TaskId: id}}); err != nil || got.Status != mcpgo.TaskStatusCancelled {
		t.Errorf("tasks/get after the cancel: %+v %v", got, err)
	}
}

// mcpgoTask sends a task-augmented tools/call through c's transport and
// returns the task's id.
func mcpgoTask(t *testing.T, ctx context.Context, c *mcpgoclient.Client, name, args string) string {
	t.Helper()
	params := json.RawMessage(`{"name":"` + name + `","arguments":` + args + `,"task":{"ttl":60000}}`)
	resp, err := c.GetTransport().SendRequest(ctx, mcpgotransport.JSONRPCRequest{
		JSONRPC: mcpgo.JSONRPC_VERSION, ID: mcpgo.NewRequestId(fmt.Sprintf("task-%s-%d", name, time.Now().UnixNano())),
		Method: "tools/call", Params: params,
	})
	if err != nil || resp.Error != nil {
		t.Fatalf("tools/call %s %s as a task: %v %+v", name, args, err, resp)
	}
	var created mcpgo.CreateTaskResult
	if err := json.Unmarshal(resp.Result, &created); err != nil || created.Task.TaskId == "" || created.Task.Status != mcpgo.TaskStatusWorking {
		t.Fatalf("tools/call %s %s as a task: %s %v", name, args, resp.Result, err)
	}
	return created.Task.TaskId
}

// TestToolsetTasksModern: the 2026-07-28 tasks extension through
// call_tool. No real client drives it: go-sdk 1.8.0 has no tasks, mcp-go
// 1.2.1 knows only the 2025-11-25 shapes (its CallTool refuses a result
// without content, its GetTask drops the inlined result), the TypeScript
// SDK 1.32.2 speaks 2025-11-25 only, and the TypeScript client 2.4.0
// refuses a tools/call answered with resultType "task"
// (UNSUPPORTED_RESULT_TYPE) and tasks/get on this revision
// (METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION), even with the extension
// declared. So the wire is driven by hand in that revision, every server
// message schema-checked: a call becomes a task through call_tool as
// directly, tasks/get inlines the same result, and tasks/cancel ends a
// running one.
func TestToolsetTasksModern(t *testing.T) {
	requireSchemas(t)
	u, log := startToolsetTasks(t)
	r := &replica{url: u, log: log}
	for _, c := range []struct{ tool, args string }{
		{"noted", `{"word":"later"}`},
		{"must_task", `{}`},
	} {
		direct := r.rpc(t, "tools/call", `"name":"`+c.tool+`","arguments":`+c.args)
		meta := r.rpc(t, "tools/call", `"name":"call_tool","arguments":{"name":"`+c.tool+`","arguments":`+c.args+`}`)
		var results []any
		for _, created := range []map[string]any{direct, meta} {
			id, _ := created["taskId"].(string)
			if created["resultType"] != "task" || id == "" {
				t.Fatalf("%s: not a task: %v", c.tool, created)
			}
			done := r.waitFor(t, id, "completed", status(mcp.TaskCompleted))
			results = append(results, done["result"])
		}
		if results[0] == nil || !reflect.DeepEqual(results[0], results[1]) {
			t.Errorf("%s: the result through call_tool %v; the direct task's %v", c.tool, results[1], results[0])
		}
	}
	// Without the extension, a tool that runs only as a task is refused
	// through call_tool as directly.
	_, direct := r.try(t, `{}`, "tools/call", `"name":"must_task","arguments":{}`)
	_, meta := r.try(t, `{}`, "tools/call", `"name":"call_tool","arguments":{"name":"must_task","arguments":{}}`)
	if direct == nil || !reflect.DeepEqual(direct, meta) {
		t.Errorf("must_task without the tasks extension: directly %v, through call_tool %v", direct, meta)
	}

	secs := uniqueSeconds()
	created := r.rpc(t, "tools/call", `"name":"call_tool","arguments":{"name":"sleeper","arguments":{"seconds":`+secs+`}}`)
	id, _ := created["taskId"].(string)
	waitSleepers(t, secs, 1)
	if ack := r.rpc(t, "tasks/cancel", `"taskId":"`+id+`"`); ack["resultType"] != "complete" || ack["taskId"] != nil {
		t.Fatalf("tasks/cancel: %v; want the bare acknowledgement", ack)
	}
	waitSleepers(t, secs, 0)
	r.waitFor(t, id, "cancelled", status(mcp.TaskCancelled))
	v := mcp.Version20260728
	log.verify(t, v+" tools/call", v+" tasks/get", v+" tasks/cancel")
}

// TestToolsetTasksTypeScript: the TypeScript SDK 1.32.2, a real
// 2025-11-25 client with tasks (client.experimental.tasks), asks call_tool
// for tasks with callToolStream, which polls tasks/get to the end; their
// results, and tasks/result's, equal the direct task calls'; a running
// task is cancelled with tasks/cancel and its command ends
// (testdata/toolset-tasks.mjs). Every server message is schema-checked.
func TestToolsetTasksTypeScript(t *testing.T) {
	requireSchemas(t)
	node, modules := typeScriptClients(t)
	u, log := startToolsetTasks(t)
	secs := uniqueSeconds()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join("testdata", "toolset-tasks.mjs"))
	cmd.Env = append(os.Environ(), "MCP_URL="+u, "SLEEP_SECONDS="+secs, "SDK_MODULES="+modules)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.HasSuffix(strings.TrimSpace(string(out)), "PASS") {
		t.Errorf("toolset-tasks.mjs: %v\n%s", err, out)
	}
	waitSleepers(t, secs, 0)
	v := mcp.Version20251125
	log.verify(t, v+" tools/call", v+" tasks/get", v+" tasks/result", v+" tasks/cancel")
}

// typeScriptClients finds node and the npm packages ./scripts/ts-clients.sh
// installs, or skips (fails under CI) saying how to install them.
func typeScriptClients(t *testing.T) (node, modules string) {
	t.Helper()
	tools := os.Getenv("MCPDECL_TOOLS_DIR")
	if tools == "" {
		tools, _ = filepath.Abs(filepath.Join("..", ".tools"))
	}
	modules = filepath.Join(tools, "clients", "node_modules")
	var missing []string
	node, err := exec.LookPath("node")
	if err != nil {
		missing = append(missing, "node (on PATH)")
	}
	if _, err := os.Stat(filepath.Join(modules, "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		missing = append(missing, filepath.Join(modules, "@modelcontextprotocol", "sdk"))
	}
	if len(missing) > 0 {
		testenv.Require(t, "node and the TypeScript MCP SDK client (missing: "+strings.Join(missing, ", ")+")", "run ./scripts/ts-clients.sh")
	}
	return node, modules
}
