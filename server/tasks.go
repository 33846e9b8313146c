package server

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/table"
	"github.com/mcpdecl/mcpdecl/taskstore"
)

// Tasks: a tool with a task block runs as a task for clients that can
// poll. The task is kept in a store (taskstore) that every replica shares;
// the replica that created a task runs it, renewing a lease on it, and any
// replica answers tasks/get, tasks/update and tasks/cancel from the store.
// A cancellation or an answer reaches the running replica through the
// store's change signals.

// DefaultTaskLease is how long a task stays "working" without its replica
// renewing it; after that a reader marks it failed.
const DefaultTaskLease = 15 * time.Second

// DefaultMaxTasks is how many tasks may run at once on one server.
const DefaultMaxTasks = 256

// DefaultMaxTasksPerOwner is how many of them one caller (a token's
// subject, a 2025 session, the stdio client) may run at once, so that no
// caller takes every slot from the others.
const DefaultMaxTasksPerOwner = 32

// Identity returns who is calling, for binding tasks to their creator: an
// authenticated subject ("" when the request carries none).
type Identity func(ctx context.Context, req *mcp.Request) string

// taskRunner runs this replica's tasks.
type taskRunner struct {
	store    taskstore.Store
	replica  string
	lease    time.Duration
	identity Identity
	max      int64
	active   atomic.Int64 // tasks started and not ended
	// perOwner bounds an owner's running tasks (0: none); owned counts
	// them, under mu. Callers known to nobody share only max: they cannot
	// be told apart.
	perOwner int
	owned    map[string]int
	obs      TaskObserver // nil when nobody counts tasks
	health   *storeHealth // whether the store answers; logs its outages

	mu       sync.Mutex
	running  map[string]*taskRun
	wg       sync.WaitGroup
	draining atomic.Bool
	// idle hands a task to a worker goroutine waiting for one; a worker
	// keeps the stack a call grew, so the next task does not grow it again.
	idle chan func()
}

// workerIdle is how long a worker waits for another task before it ends.
const workerIdle = 10 * time.Second

// spawn runs fn on an idle worker, or on a new one.
func (r *taskRunner) spawn(fn func()) {
	select {
	case r.idle <- fn:
	default:
		go r.worker(fn)
	}
}

func (r *taskRunner) worker(fn func()) {
	wait := time.NewTimer(workerIdle)
	defer wait.Stop()
	for {
		fn()
		wait.Reset(workerIdle)
		select {
		case fn = <-r.idle:
		case <-wait.C:
			return
		}
	}
}

func newTaskRunner(opts *Options) *taskRunner {
	r := &taskRunner{store: opts.TaskStore, replica: randomID(9), lease: opts.TaskLease, identity: opts.Identity, running: map[string]*taskRun{}, idle: make(chan func()), obs: taskObserver(opts.Observer)}
	if r.identity == nil {
		r.identity = tokenSubject // the verified token's, with an auth block
	}
	if r.store == nil {
		r.store = taskstore.NewMemory()
	}
	r.health = &storeHealth{log: slog.New(slog.DiscardHandler)}
	r.store = &watchedStore{Store: r.store, health: r.health}
	if r.lease <= 0 {
		r.lease = DefaultTaskLease
	}
	switch {
	case opts.MaxTasks > 0:
		r.max = int64(opts.MaxTasks)
	case opts.MaxTasks == 0:
		r.max = DefaultMaxTasks
	}
	switch {
	case opts.MaxTasksPerOwner > 0:
		r.perOwner = opts.MaxTasksPerOwner
	case opts.MaxTasksPerOwner == 0:
		r.perOwner = DefaultMaxTasksPerOwner
	}
	r.owned = map[string]int{}
	return r
}

// admit counts a new task of owner in, within the server's bound and the
// owner's; leave counts it out when it ends.
func (r *taskRunner) admit(owner string) error {
	if n := r.active.Add(1); r.max > 0 && n > r.max {
		r.active.Add(-1)
		return mcp.Errorf(mcp.CodeInternalError, "%d tasks are running on this server, the most it runs at once; wait for one to end (or cancel one) and call again", r.max)
	}
	if owner == anonymous || r.perOwner <= 0 {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.owned[owner] >= r.perOwner {
		r.active.Add(-1)
		return mcp.Errorf(mcp.CodeInternalError, "you have %d tasks running, the most one caller may run at once on this server; wait for one to end (or cancel one) and call again", r.perOwner)
	}
	r.owned[owner]++
	return nil
}

func (r *taskRunner) leave(owner string) {
	r.active.Add(-1)
	if owner == anonymous || r.perOwner <= 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.owned[owner]--; r.owned[owner] <= 0 {
		delete(r.owned, owner)
	}
}

// randomID returns n random bytes, base64url: unguessable.
func randomID(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// owner names who may see a task created by req. It is the one place
// that decides, so that every task method applies the same rule:
//   - an authenticated caller (auth block over HTTP, or Options.Identity):
//     "sub:" and the token's issuer and subject;
//   - over stdio (no HTTP header): this process's one client;
//   - a 2025 client in a session (signed ids, or --legacy-sessions): the
//     session's own 128 random bits (Request.Session), never the id's
//     other contents;
//   - else "" (an anonymous 2026-07-28 client, a 2025 client without a
//     session): nobody; the task id alone is the key (a bearer
//     capability), and tasks/list never shows such a task to anyone.
func (r *taskRunner) owner(ctx context.Context, req *mcp.Request) string {
	if r.identity != nil {
		if sub := r.identity(ctx, req); sub != "" {
			return "sub:" + sub
		}
	}
	if req.Header == nil {
		return "stdio:" + r.replica
	}
	if req.Session != "" {
		return "session:" + req.Session
	}
	return anonymous
}

// anonymous is the owner of tasks created by nobody in particular.
const anonymous = ""

// mayRead reports whether the caller whose owner is caller may see t: its
// creator, or anyone holding the id of a task nobody owns.
func mayRead(t *taskstore.Task, caller string) bool {
	return t.Owner == anonymous || t.Owner == caller
}

// taskIDBytes is the randomness of a task id: 128 bits, base64url.
const taskIDBytes = 16

// validTaskID checks a task id's shape before any store sees it: ids are
// base64url (those this server mints are 22 characters; a few more are
// allowed so that ids of another build still resolve), never long, never
// holding characters that could reach a store key as something else.
func validTaskID(id string) bool {
	if len(id) < 16 || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// wantsTask decides whether a call of a tool with a task block becomes a
// task: a 2026-07-28 client that declared the extension, a 2025-11-25 one
// that asked with params.task. A tool that requires a task refuses other
// clients.
func wantsTask(req *mcp.Request, p *mcp.CallToolParams, spec *table.TaskSpec) (bool, error) {
	if req.Era == mcp.EraModern {
		if req.DeclaresTasks() {
			return true, nil
		}
		if spec.Mode == table.TaskRequired {
			return false, mcp.MissingTasksExtension()
		}
		return false, nil
	}
	if p.Task != nil {
		return true, nil
	}
	if spec.Mode == table.TaskRequired {
		return false, mcp.Errorf(mcp.CodeMethodNotFound,
			"the tool %q runs only as a task: call it with params.task (MCP 2025-11-25 tasks), or from a client speaking MCP 2026-07-28 with the tasks extension", p.Name)
	}
	return false, nil
}

// callAsTask answers a tools/call with a task. With ask_first (and always
// for 2025 clients, who cannot be asked from a running task) the tool's
// questions are asked with this request, and the task is created once
// they are answered.
func (s *Server) callAsTask(ctx context.Context, req *mcp.Request, p *mcp.CallToolParams, tool *table.Tool) (*mcp.CallToolResult, error) {
	r := s.tasks
	if r.draining.Load() {
		return nil, mcp.Errorf(mcp.CodeInternalError, "the server is shutting down; call the tool again")
	}
	owner := r.owner(ctx, req)
	if err := r.admit(owner); err != nil {
		return nil, err
	}
	started := false
	defer func() {
		if !started {
			r.leave(owner)
		}
	}()
	now := time.Now()
	spec := tool.Task
	rec := &taskstore.Task{ID: randomID(taskIDBytes), Owner: owner, Tool: tool.Name, Status: taskstore.Working,
		CreatedAt: now, UpdatedAt: now, TTL: spec.TTL, PollInterval: spec.PollInterval, Runner: r.replica, LeaseUntil: now.Add(r.lease)}
	if p.Task != nil && p.Task.TTL > 0 && p.Task.TTL < spec.TTL {
		rec.TTL = max(p.Task.TTL, time.Second)
	}
	run := &taskRun{r: r, s: s, st: s.acquire(), id: rec.ID, owner: owner, tool: tool, req: taskRequest(req)}
	runCtx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	run.cancel = cancel
	askFirst := len(tool.Questions) > 0 && (spec.AskFirst || req.Era != mcp.EraModern)
	if !askFirst {
		if err := r.store.Create(ctx, rec); err != nil {
			run.st.release()
			cancel(nil)
			return nil, storeError(err)
		}
		started = true
		run.moved(taskstore.Working)
		run.start(runCtx, nil, p, nil)
		return &mcp.CallToolResult{Task: wireTask(rec)}, nil
	}
	started = true
	outcome := make(chan askFirstOutcome, 1)
	ask := func(_ context.Context, a *dispatch.Asking) (map[string]json.RawMessage, error) {
		answers, err := s.askQuestions(ctx, req, a, p.MRTR)
		if err != nil {
			return nil, err
		}
		rec.UpdatedAt = time.Now()
		if err := r.store.Create(ctx, rec); err != nil {
			return nil, storeError(err)
		}
		run.moved(taskstore.Working)
		outcome <- askFirstOutcome{task: rec}
		return answers, nil
	}
	run.start(runCtx, ask, p, outcome)
	o := <-outcome
	if o.task != nil {
		return &mcp.CallToolResult{Task: wireTask(o.task)}, nil
	}
	var more *needInput
	if errors.As(o.err, &more) {
		return &mcp.CallToolResult{InputRequired: more.input}, nil
	}
	if o.err != nil {
		return nil, run.st.protocolError(o.err)
	}
	return toolResult(o.res), nil
}

// askFirstOutcome is what an ask-first call gives its request: the task
// once created, or the call's own end when no task came to be (a
// question still open, a declined answer, invalid arguments).
type askFirstOutcome struct {
	task *taskstore.Task
	res  *dispatch.ToolResult
	err  error
}

// taskRequest is the creating request as the running task keeps it: its
// notifier reaches nobody (the request has been answered).
func taskRequest(req *mcp.Request) *mcp.Request {
	c := *req
	c.Notifier = silent{}
	return &c
}

// silent is the Notifier of a running task: progress and logs go to the
// task's status message instead, and questions through the store.
type silent struct{}

func (silent) Progress(context.Context, float64, float64, string) error { return nil }
func (silent) Log(context.Context, string, string, any) error           { return nil }
func (silent) Request(context.Context, string, any) (json.RawMessage, error) {
	return nil, mcp.ErrNoBackChannel
}
