package server

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/observe/logs"
	"github.com/mcpdecl/mcpdecl/table"
	"github.com/mcpdecl/mcpdecl/tasks"
)

// A tool with a task block runs as a task for clients that can poll (see
// package tasks): the runner keeps the task and answers the tasks/*
// methods; the server hands it each call to run (taskCall) and forwards
// the methods to it.

// taskRunner is what the server needs of the task runner (*tasks.Runner).
type taskRunner interface {
	// Start answers a tools/call with a task that call runs.
	Start(ctx context.Context, req *mcp.Request, p *mcp.CallToolParams, tool *table.Tool, call tasks.Call) (*mcp.CallToolResult, error)
	mcp.TaskHandler
	mcp.TaskWatcher
	// Drain stops taking tasks and ends those running (see DrainTasks).
	Drain(ctx context.Context) (int, error)
	Draining() bool
}

var (
	_ taskRunner      = (*tasks.Runner)(nil)
	_ mcp.TaskHandler = (*Server)(nil)
	_ mcp.TaskWatcher = (*Server)(nil)
	_ tasks.Call      = (*taskCall)(nil)
)

// newTaskRunner returns the runner of the server's tasks; log is the
// server's logger.
func newTaskRunner(opts *Options, log *slog.Logger) taskRunner {
	identity := opts.Identity
	if identity == nil {
		identity = tokenSubject // the verified token's, with an auth block
	}
	return tasks.New(tasks.Options{Store: opts.TaskStore, Lease: opts.TaskLease, Max: opts.MaxTasks, MaxPerOwner: opts.MaxTasksPerOwner,
		Identity: identity, Observer: taskObserver(opts.Observer), Logger: log})
}

// taskObserver is the server's Observer as a tasks.Observer, or nil.
func taskObserver(o Observer) tasks.Observer {
	t, _ := o.(tasks.Observer)
	return t
}

// callAsTask answers a tools/call with a task.
func (s *Server) callAsTask(ctx context.Context, req *mcp.Request, p *mcp.CallToolParams, tool *table.Tool) (*mcp.CallToolResult, error) {
	return s.tasks.Start(ctx, req, p, tool, &taskCall{s: s, st: s.acquire(), req: req, p: p})
}

// taskCall is a call run as a task, on the generation that was served
// when it began (held until Release).
type taskCall struct {
	s   *Server
	st  *state
	req *mcp.Request
	p   *mcp.CallToolParams
}

func (c *taskCall) Run(ctx context.Context, progress func(progress, total float64, message string), log func(level string, data any), ask dispatch.Asker) (*dispatch.ToolResult, error) {
	in := c.s.callInput(ctx, c.st, c.req, c.p.Arguments, c.p.MRTR)
	in.Progress, in.Log, in.Ask, in.Client = progress, log, ask, nil // the task reaches the client its own way
	return dispatch.CallTool(ctx, c.st.table, c.p.Name, in)
}

func (c *taskCall) AskFirst(ctx context.Context, a *dispatch.Asking) (map[string]json.RawMessage, error) {
	return c.s.askQuestions(ctx, c.req, a, c.p.MRTR)
}

func (c *taskCall) AskInTask(ctx context.Context, a *dispatch.Asking, post tasks.Post) (map[string]json.RawMessage, error) {
	return askInTask(ctx, c.req, a, post)
}

func (c *taskCall) Result(res *dispatch.ToolResult, err error) (*mcp.CallToolResult, error) {
	if err != nil {
		var more *needInput
		if errors.As(err, &more) {
			return &mcp.CallToolResult{InputRequired: more.input}, nil
		}
		return nil, c.st.protocolError(err)
	}
	return toolResult(res), nil
}

func (c *taskCall) Release() { c.st.release() }

// GetTask implements mcp.TaskHandler.
func (s *Server) GetTask(ctx context.Context, req *mcp.Request, id string) (*mcp.Task, error) {
	if st := s.state.Load(); st.hooks != nil && st.hooks.audit != nil {
		start := time.Now()
		t, err := s.tasks.GetTask(ctx, req, id)
		if err != nil || handsOutResult(req, t) {
			s.auditTaskRead(ctx, req, id, t, err, start)
		}
		return t, err
	}
	return s.tasks.GetTask(ctx, req, id)
}

// UpdateTask implements mcp.TaskHandler.
func (s *Server) UpdateTask(ctx context.Context, req *mcp.Request, id string, inputResponses json.RawMessage) error {
	return s.tasks.UpdateTask(ctx, req, id, inputResponses)
}

// CancelTask implements mcp.TaskHandler.
func (s *Server) CancelTask(ctx context.Context, req *mcp.Request, id string) (*mcp.Task, error) {
	if st := s.state.Load(); st.hooks != nil && st.hooks.audit != nil {
		start := time.Now()
		t, err := s.tasks.CancelTask(ctx, req, id)
		s.auditTask(logs.WithRequest(ctx, traceparent(req)), req, id, err, start)
		return t, err
	}
	return s.tasks.CancelTask(ctx, req, id)
}

// ListTasks implements mcp.TaskHandler.
func (s *Server) ListTasks(ctx context.Context, req *mcp.Request, cursor string) ([]mcp.Task, string, error) {
	return s.tasks.ListTasks(ctx, req, cursor)
}

// AwaitTask implements mcp.TaskHandler.
func (s *Server) AwaitTask(ctx context.Context, req *mcp.Request, id string) (*mcp.Task, error) {
	if st := s.state.Load(); st.hooks != nil && st.hooks.audit != nil {
		start := time.Now()
		t, err := s.tasks.AwaitTask(ctx, req, id)
		s.auditTaskRead(ctx, req, id, t, err, start)
		return t, err
	}
	return s.tasks.AwaitTask(ctx, req, id)
}

// WatchTask implements mcp.TaskWatcher.
func (s *Server) WatchTask(ctx context.Context, req *mcp.Request, id string, notify func(*mcp.Task)) (func(), error) {
	return s.tasks.WatchTask(ctx, req, id, notify)
}

// DrainTasks stops taking new tasks and waits for this replica's running
// tasks to end, until ctx ends; those still running then are stopped and
// recorded as failed ("server shutting down"), so that no task is left
// "working" in the store by a rolling update. It returns how many tasks
// it had to stop.
func (s *Server) DrainTasks(ctx context.Context) (int, error) { return s.tasks.Drain(ctx) }

// Draining reports whether DrainTasks has begun.
func (s *Server) Draining() bool { return s.tasks.Draining() }
