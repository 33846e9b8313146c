package tasks

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/table"
)

// DefaultLease is how long a task stays "working" without its replica
// renewing it; after that a reader marks it failed.
const DefaultLease = 15 * time.Second

// DefaultMax is how many tasks may run at once on one server.
const DefaultMax = 256

// DefaultMaxPerOwner is how many of them one caller (a token's
// subject, a 2025 session, the stdio client) may run at once, so that no
// caller takes every slot from the others.
const DefaultMaxPerOwner = 32

// Identity returns who is calling, for binding tasks to their creator: an
// authenticated subject ("" when the request carries none).
type Identity func(ctx context.Context, req *mcp.Request) string

// Options configure a Runner.
type Options struct {
	// Store keeps the tasks; replicas behind one load balancer need one
	// shared store (Redis). Nil means an in-memory store for this
	// process.
	Store Store
	// Lease is how long a running task counts as alive without its
	// replica renewing it (DefaultLease when zero).
	Lease time.Duration
	// Max bounds the tasks running at once (DefaultMax when zero, no
	// bound when negative).
	Max int
	// MaxPerOwner bounds the tasks one caller runs at once
	// (DefaultMaxPerOwner when zero, no bound when negative).
	MaxPerOwner int
	// Identity names the authenticated caller, to whom tasks are bound
	// (nil: nobody is authenticated).
	Identity Identity
	// Observer, when set, is told of the tasks this replica runs.
	Observer Observer
	// Logger receives the store's outages and the ends of tasks that
	// could not be stored. Nil discards them.
	Logger *slog.Logger
}

// Runner runs this replica's tasks and answers the tasks/* methods.
type Runner struct {
	store    Store
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
	obs      Observer     // nil when nobody counts tasks
	health   *storeHealth // whether the store answers; logs its outages
	log      *slog.Logger

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
func (r *Runner) spawn(fn func()) {
	select {
	case r.idle <- fn:
	default:
		go r.worker(fn)
	}
}

func (r *Runner) worker(fn func()) {
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

// New returns a Runner with no task running.
func New(opts Options) *Runner {
	r := &Runner{store: opts.Store, replica: randomID(9), lease: opts.Lease, identity: opts.Identity, running: map[string]*taskRun{}, idle: make(chan func()), obs: opts.Observer, log: opts.Logger}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	if r.store == nil {
		r.store = NewMemory()
	}
	r.health = &storeHealth{log: r.log}
	r.store = &watchedStore{Store: r.store, health: r.health}
	if r.lease <= 0 {
		r.lease = DefaultLease
	}
	switch {
	case opts.Max > 0:
		r.max = int64(opts.Max)
	case opts.Max == 0:
		r.max = DefaultMax
	}
	switch {
	case opts.MaxPerOwner > 0:
		r.perOwner = opts.MaxPerOwner
	case opts.MaxPerOwner == 0:
		r.perOwner = DefaultMaxPerOwner
	}
	r.owned = map[string]int{}
	return r
}

// admit counts a new task of owner in, within the server's bound and the
// owner's; leave counts it out when it ends.
func (r *Runner) admit(owner string) error {
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

func (r *Runner) leave(owner string) {
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
func (r *Runner) owner(ctx context.Context, req *mcp.Request) string {
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
func mayRead(t *Task, caller string) bool {
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

// Wanted decides whether a call of a tool with a task block becomes a
// task: a 2026-07-28 client that declared the extension, a 2025-11-25 one
// that asked with params.task. A tool that requires a task refuses other
// clients.
func Wanted(req *mcp.Request, p *mcp.CallToolParams, spec *table.TaskSpec) (bool, error) {
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

// Call is what the runner needs of the server for one tools/call that
// becomes a task: the server runs the call and asks its questions; the
// runner keeps the task.
type Call interface {
	// Run runs the call. Its progress and log lines go to progress and
	// log, its questions to ask.
	Run(ctx context.Context, progress func(progress, total float64, message string), log func(level string, data any), ask dispatch.Asker) (*dispatch.ToolResult, error)
	// AskFirst asks the call's questions with the request that creates
	// the task, before the task exists.
	AskFirst(ctx context.Context, a *dispatch.Asking) (map[string]json.RawMessage, error)
	// AskInTask asks the questions of a running task, a round at a
	// time: post puts a round's input requests on the task and returns
	// their answers.
	AskInTask(ctx context.Context, a *dispatch.Asking, post Post) (map[string]json.RawMessage, error)
	// Result is the protocol's answer to a call that ended with res or
	// err: a result, an input_required result (with no error) when err
	// asks the client for input, or a protocol error.
	Result(res *dispatch.ToolResult, err error) (*mcp.CallToolResult, error)
	// Release tells the server the runner is done with the call: the
	// task ended, or was never created.
	Release()
}

// Post puts a round of input requests (encoded mcp.InputRequest, by
// key) on a running task and returns the answers once every one has come
// in (by tasks/update, on any replica).
type Post func(ctx context.Context, requests map[string]json.RawMessage) (map[string]json.RawMessage, error)

// Start answers a tools/call of tool with a task, which call runs. With
// ask_first (and always for 2025 clients, who cannot be asked from a
// running task) the tool's questions are asked with this request, and
// the task is created once they are answered.
func (r *Runner) Start(ctx context.Context, req *mcp.Request, p *mcp.CallToolParams, tool *table.Tool, call Call) (*mcp.CallToolResult, error) {
	if r.draining.Load() {
		call.Release()
		return nil, mcp.Errorf(mcp.CodeInternalError, "the server is shutting down; call the tool again")
	}
	owner := r.owner(ctx, req)
	if err := r.admit(owner); err != nil {
		call.Release()
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
	rec := &Task{ID: randomID(taskIDBytes), Owner: owner, Tool: tool.Name, Status: Working,
		CreatedAt: now, UpdatedAt: now, TTL: spec.TTL, PollInterval: spec.PollInterval, Runner: r.replica, LeaseUntil: now.Add(r.lease)}
	if p.Task != nil && p.Task.TTL > 0 && p.Task.TTL < spec.TTL {
		rec.TTL = max(p.Task.TTL, time.Second)
	}
	run := &taskRun{r: r, call: call, id: rec.ID, owner: owner, tool: tool, req: taskRequest(req)}
	runCtx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	run.cancel = cancel
	askFirst := len(tool.Questions) > 0 && (spec.AskFirst || req.Era != mcp.EraModern)
	if !askFirst {
		if err := r.store.Create(ctx, rec); err != nil {
			call.Release()
			cancel(nil)
			return nil, storeError(err)
		}
		started = true
		run.moved(Working)
		run.start(runCtx, nil, nil)
		return &mcp.CallToolResult{Task: wireTask(rec)}, nil
	}
	started = true
	outcome := make(chan askFirstOutcome, 1)
	ask := func(_ context.Context, a *dispatch.Asking) (map[string]json.RawMessage, error) {
		answers, err := call.AskFirst(ctx, a)
		if err != nil {
			return nil, err
		}
		rec.UpdatedAt = time.Now()
		if err := r.store.Create(ctx, rec); err != nil {
			return nil, storeError(err)
		}
		run.moved(Working)
		outcome <- askFirstOutcome{task: rec}
		return answers, nil
	}
	run.start(runCtx, ask, outcome)
	o := <-outcome
	if o.task != nil {
		return &mcp.CallToolResult{Task: wireTask(o.task)}, nil
	}
	return call.Result(o.res, o.err)
}

// askFirstOutcome is what an ask-first call gives its request: the task
// once created, or the call's own end when no task came to be (a
// question still open, a declined answer, invalid arguments).
type askFirstOutcome struct {
	task *Task
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
