package server_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
)

// namesSeen is an Observer that keeps the names of the calls it is told of.
type namesSeen struct {
	mu    sync.Mutex
	names []string
}

func (n *namesSeen) CallStarted(string) {}
func (n *namesSeen) CallEnded(kind, name, outcome string, _ time.Duration) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.names = append(n.names, kind+" "+name+" "+outcome)
}
func (n *namesSeen) Reloaded(uint64, error) {}

// TestCallToolIsTheDirectCall: a call through the meta-tool call_tool is
// observed (metrics, traces) under the real tool's name, a call of a tool
// outside the toolset as a call of an unknown name, a search under the
// meta-tool's name; and a tool that
// runs only as a task becomes a task through it as directly, or is
// refused the same way.
func TestCallToolIsTheDirectCall(t *testing.T) {
	cfg, diags := lang.LoadSource("tasks.hcl", []byte(taskConfig+`
toolset "work" {
  tools   = ["quick", "must_task"]
  dynamic = true
}
`))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	seen := &namesSeen{}
	srv := server.New(tbl, &server.Options{Observer: seen})
	defer srv.Close()
	view := srv.View([]string{"work"}, false)
	ctx := context.Background()
	call := func(name, args string, task bool) (*mcp.CallToolResult, error) {
		p := &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)}
		if task {
			p.Task = &mcp.TaskRequest{}
		}
		return view.CallTool(ctx, &mcp.Request{Method: "tools/call", Era: mcp.EraLegacy}, p)
	}
	listed, _ := view.ListTools(ctx, &mcp.Request{Method: "tools/list", Era: mcp.EraLegacy})
	if len(listed) != 3 || listed[2].Name != "call_tool" || listed[2].TaskSupport != "optional" || listed[0].TaskSupport != "" {
		t.Errorf("the meta-tools of a toolset with task tools: %+v", listed)
	}
	res, err := call("call_tool", `{"name":"quick","arguments":{"word":"hi"}}`, false)
	if err != nil || res.IsError || res.Content[0].Text != "echo: hi" {
		t.Fatalf("call_tool quick: %+v %v", res, err)
	}
	seen.mu.Lock()
	got := append([]string(nil), seen.names...)
	seen.mu.Unlock()
	if len(got) != 1 || got[0] != "tool quick ok" {
		t.Errorf("observed %v; want [tool quick ok]", got)
	}
	if _, err := call("sleeper", `{"seconds":1}`, false); err == nil {
		t.Error("a tool outside the toolset was called")
	}
	if _, err := call("search_tools", `{"query":"answers"}`, false); err != nil {
		t.Error(err)
	}
	if res, err := call("call_tool", `{"name":"sleeper"}`, false); err != nil || !res.IsError {
		t.Errorf("call_tool of a tool outside the toolset: %+v %v", res, err)
	}
	seen.mu.Lock()
	got = append([]string(nil), seen.names[1:]...)
	seen.mu.Unlock()
	if len(got) != 3 || got[0] != "tool unknown protocol_error" || got[1] != "tool search_tools ok" || got[2] != "tool call_tool tool_error" {
		t.Errorf("observed %v; want the outside tool as unknown, then search_tools, then call_tool", got)
	}
	_, direct := call("must_task", `{}`, false)
	_, meta := call("call_tool", `{"name":"must_task"}`, false)
	if direct == nil || meta == nil || direct.Error() != meta.Error() {
		t.Errorf("must_task without a task: direct %v, through call_tool %v; want the same refusal", direct, meta)
	}
	for _, c := range []struct{ name, args string }{{"must_task", `{}`}, {"call_tool", `{"name":"must_task"}`}} {
		res, err := call(c.name, c.args, true)
		if err != nil || res.Task == nil || res.Task.TaskID == "" {
			t.Errorf("%s as a task: %+v %v; want a task", c.name, res, err)
		}
	}
}
