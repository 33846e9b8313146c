package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/table"
)

// fakeCall is a Call without a server: run is the call.
type fakeCall struct {
	run      func(ctx context.Context) (*dispatch.ToolResult, error)
	released atomic.Int32
}

func (c *fakeCall) Run(ctx context.Context, progress func(float64, float64, string), log func(string, any), ask dispatch.Asker) (*dispatch.ToolResult, error) {
	progress(1, 2, "")
	return c.run(ctx)
}

func (c *fakeCall) AskFirst(context.Context, *dispatch.Asking) (map[string]json.RawMessage, error) {
	return nil, errors.New("no questions")
}

func (c *fakeCall) AskInTask(context.Context, *dispatch.Asking, Post) (map[string]json.RawMessage, error) {
	return nil, errors.New("no questions")
}

func (c *fakeCall) Result(res *dispatch.ToolResult, err error) (*mcp.CallToolResult, error) {
	if err != nil {
		return nil, err
	}
	out := &mcp.CallToolResult{IsError: res.IsError}
	for _, b := range res.Content {
		out.Content = append(out.Content, mcp.ContentBlock{Type: b.Kind, Text: b.Text})
	}
	return out, nil
}

func (c *fakeCall) Release() { c.released.Add(1) }

var fakeTool = &table.Tool{Name: "slow", Task: &table.TaskSpec{Mode: table.TaskOptional, TTL: time.Minute, PollInterval: time.Second, MaxResultBytes: 1 << 20}}

// stdioRequest is a tools/call of the one stdio client.
func stdioRequest() *mcp.Request {
	return &mcp.Request{Method: "tools/call", Era: mcp.EraModern, ProtocolVersion: mcp.Version20260728}
}

func startFake(t *testing.T, r *Runner, call *fakeCall) string {
	t.Helper()
	res, err := r.Start(context.Background(), stdioRequest(), &mcp.CallToolParams{Name: fakeTool.Name}, fakeTool, call)
	if err != nil || res.Task == nil {
		t.Fatalf("Start: %v %v", res, err)
	}
	return res.Task.TaskID
}

func awaitEnd(t *testing.T, r *Runner, id string) *mcp.Task {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	task, err := r.AwaitTask(ctx, stdioRequest(), id)
	if err != nil {
		t.Fatalf("AwaitTask: %v", err)
	}
	return task
}

// TestRunnerAlone: the runner runs a call as a task without a server,
// keeps its result, and releases the call once.
func TestRunnerAlone(t *testing.T) {
	r := New(Options{})
	call := &fakeCall{run: func(context.Context) (*dispatch.ToolResult, error) {
		return &dispatch.ToolResult{Content: []dispatch.Block{{Kind: "text", Text: "done"}}}, nil
	}}
	id := startFake(t, r, call)
	task := awaitEnd(t, r, id)
	if task.Status != Completed || !strings.Contains(string(task.Result), `"done"`) {
		t.Fatalf("the task ended %s with %s", task.Status, task.Result)
	}
	if _, err := r.Drain(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := call.released.Load(); n != 1 {
		t.Fatalf("the call was released %d times, want 1", n)
	}
}

// TestRunnerCancelAndLimits: tasks/cancel stops the call; a call beyond
// the runner's bound is refused, and released.
func TestRunnerCancelAndLimits(t *testing.T) {
	r := New(Options{Max: 1})
	blocked := &fakeCall{run: func(ctx context.Context) (*dispatch.ToolResult, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	id := startFake(t, r, blocked)
	refused := &fakeCall{}
	if _, err := r.Start(context.Background(), stdioRequest(), &mcp.CallToolParams{Name: fakeTool.Name}, fakeTool, refused); err == nil || !strings.Contains(err.Error(), "the most it runs at once") {
		t.Fatalf("a second task beyond Max 1: %v", err)
	}
	if refused.released.Load() != 1 {
		t.Fatal("the refused call was not released")
	}
	if _, err := r.CancelTask(context.Background(), stdioRequest(), id); err != nil {
		t.Fatal(err)
	}
	if task := awaitEnd(t, r, id); task.Status != Cancelled {
		t.Fatalf("the cancelled task is %s", task.Status)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if n, err := r.Drain(ctx); n != 0 || err != nil {
		t.Fatalf("Drain after the cancelled call ended: %d %v", n, err)
	}
	if blocked.released.Load() != 1 {
		t.Fatal("the cancelled call was not released")
	}
}

// TestRunnerDrainStopsTasks: a drain whose deadline passes stops the
// tasks still running and records them failed.
func TestRunnerDrainStopsTasks(t *testing.T) {
	r := New(Options{})
	call := &fakeCall{run: func(ctx context.Context) (*dispatch.ToolResult, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	id := startFake(t, r, call)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if n, err := r.Drain(ctx); n != 1 || err != nil {
		t.Fatalf("Drain: %d %v, want 1 task stopped", n, err)
	}
	if !r.Draining() {
		t.Fatal("not draining after Drain")
	}
	task := awaitEnd(t, r, id)
	if task.Status != Failed || !strings.Contains(task.StatusMessage, "shut down") {
		t.Fatalf("the stopped task is %s: %s", task.Status, task.StatusMessage)
	}
	if _, err := r.Start(context.Background(), stdioRequest(), &mcp.CallToolParams{Name: fakeTool.Name}, fakeTool, &fakeCall{}); err == nil {
		t.Fatal("a draining runner started a task")
	}
}
