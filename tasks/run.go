package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/table"
)

// A task's life on the replica that runs it: the call on a worker, the
// store's change signals and the lease while it runs, its end recorded.

// taskRun is one task running on this replica.
type taskRun struct {
	r      *Runner
	call   Call // released when the task ends
	id     string
	owner  string // counted in the runner's per-owner bound until the task ends
	tool   *table.Tool
	req    *mcp.Request
	cancel context.CancelCauseFunc

	// While the task runs here: the store's change signals and the lease
	// renewal timer (no goroutine waits on either).
	mu        sync.Mutex
	stopWatch func() // nil until the watch starts
	renewal   *time.Timer
	done      bool // unfollowed
	checking  atomic.Bool
	state     string // as last told to the task observer
}

// watchDelay is how long a task runs before its replica watches the store
// for a cancellation: a task that ends sooner costs no subscription. A
// cancellation made meanwhile is read when the watch starts.
const watchDelay = 100 * time.Millisecond

// errCancelled and errShutdown are the causes a task's context ends with.
var (
	errCancelled = errors.New("cancelled by the client")
	errShutdown  = errors.New("server shutting down")
)

// start runs the call in the background. With ask set (ask first), the
// outcome goes to started until the task exists.
func (run *taskRun) start(ctx context.Context, ask dispatch.Asker, started chan<- askFirstOutcome) {
	r := run.r
	r.wg.Add(1)
	created := ask == nil
	r.spawn(func() {
		defer r.wg.Done()
		defer r.leave(run.owner)
		defer run.call.Release()
		defer run.cancel(nil)
		asker := run.askInTask
		if ask != nil {
			asker = func(actx context.Context, a *dispatch.Asking) (map[string]json.RawMessage, error) {
				answers, err := ask(actx, a)
				if err == nil {
					created = true
					run.follow(ctx)
				}
				return answers, err
			}
		} else {
			run.follow(ctx)
		}
		res, err := run.call.Run(ctx, run.progress, run.log, asker)
		if !created {
			started <- askFirstOutcome{res: res, err: err}
			return
		}
		run.finish(ctx, res, err)
	})
}

// follow registers the task as running here, watches the store for a
// cancellation (made on any replica) and renews the lease a third of its
// length before it runs out, until unfollow.
func (run *taskRun) follow(ctx context.Context) {
	r := run.r
	r.mu.Lock()
	r.running[run.id] = run
	r.mu.Unlock()
	run.mu.Lock()
	defer run.mu.Unlock()
	run.renewal = time.AfterFunc(min(watchDelay, r.lease/3), func() { run.tick(ctx) })
}

// tick starts the watch the first time, then renews the lease; it arms
// the next tick.
func (run *taskRun) tick(ctx context.Context) {
	run.mu.Lock()
	if run.done {
		run.mu.Unlock()
		return
	}
	first := run.stopWatch == nil
	if first {
		run.stopWatch = run.r.store.Watch(run.id, func() { run.recheck(ctx) })
	}
	run.mu.Unlock()
	if first {
		run.recheck(ctx)
	} else {
		run.renew(ctx)
	}
	run.mu.Lock()
	if !run.done {
		run.renewal.Reset(run.r.lease / 3)
	}
	run.mu.Unlock()
}

// unfollow stops what follow started.
func (run *taskRun) unfollow() {
	r := run.r
	r.mu.Lock()
	delete(r.running, run.id)
	r.mu.Unlock()
	run.mu.Lock()
	defer run.mu.Unlock()
	if run.done {
		return
	}
	run.done = true
	if run.renewal != nil {
		run.renewal.Stop()
	}
	if run.stopWatch != nil {
		run.stopWatch()
	}
}

// recheck reads the task after a change signal, one reader at a time, and
// stops it when it was cancelled.
func (run *taskRun) recheck(ctx context.Context) {
	if !run.checking.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer run.checking.Store(false)
		if t, err := run.r.store.Get(ctx, run.id); err == nil && (t.CancelRequested || t.Terminal()) {
			run.cancel(errCancelled)
		}
	}()
}

// renew extends the lease; a task cancelled meanwhile is stopped.
func (run *taskRun) renew(ctx context.Context) {
	if ctx.Err() != nil {
		return
	}
	t, err := run.r.store.Update(ctx, run.id, func(t *Task) error {
		if t.Terminal() || t.CancelRequested {
			return ErrUnchanged
		}
		t.LeaseUntil = time.Now().Add(run.r.lease)
		return nil
	})
	if errors.Is(err, ErrNotFound) || err == nil && (t.CancelRequested || t.Terminal()) {
		run.cancel(errCancelled)
	}
}

// progress and log become the task's status message.
func (run *taskRun) progress(progress, total float64, message string) {
	if message == "" {
		message = progressText(progress, total)
	}
	run.setMessage(message)
}

func (run *taskRun) log(level string, data any) {
	if s, ok := data.(string); ok {
		run.setMessage(s)
		return
	}
	run.setMessage(string(mustJSON(data)))
}

func (run *taskRun) setMessage(msg string) {
	_, _ = run.r.store.Update(context.Background(), run.id, func(t *Task) error {
		if t.Terminal() {
			return ErrUnchanged
		}
		t.StatusMessage, t.UpdatedAt = msg, time.Now()
		return nil
	})
}

// finish stores the task's end: its result, or the protocol error that
// ended it, unless it was cancelled (then it stays cancelled) or the
// server is shutting down (then it failed, saying so).
func (run *taskRun) finish(ctx context.Context, res *dispatch.ToolResult, callErr error) {
	r := run.r
	run.unfollow()
	status, msg, result, wireErr := run.outcome(ctx, res, callErr)
	stored, err := r.store.Update(context.Background(), run.id, func(t *Task) error {
		if t.Terminal() {
			return ErrUnchanged
		}
		t.Status, t.StatusMessage, t.UpdatedAt = status, msg, time.Now()
		t.Result, t.Error, t.InputRequests, t.InputResponses = result, wireErr, nil, nil
		if status == Cancelled {
			t.Result = nil
		}
		return nil
	})
	if err != nil && !errors.Is(err, ErrUnavailable) { // an outage has its own lines
		r.log.Error("storing the end of a task failed", "task", run.id, "tool", run.tool.Name, "error", err)
	}
	if err == nil && stored.Terminal() {
		status = stored.Status // ended already (a cancellation): as it stays
	}
	run.moved(status)
}

func (run *taskRun) outcome(ctx context.Context, res *dispatch.ToolResult, callErr error) (status, msg string, result, wireErr json.RawMessage) {
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, errCancelled):
		return Cancelled, "Cancelled by the client.", nil, nil
	case errors.Is(cause, errShutdown):
		return Failed, shutdownMessage, nil, mcp.EncodeError(run.req, mcp.Errorf(mcp.CodeInternalError, "%s", shutdownMessage))
	}
	if callErr != nil {
		_, perr := run.call.Result(nil, callErr)
		if perr == nil { // it asked for input: a running task cannot
			perr = mcp.Errorf(mcp.CodeInternalError, "the task needed input it could not ask for")
		}
		e := mcp.EncodeError(run.req, perr)
		return Failed, "The call failed: " + errorMessage(e), nil, e
	}
	wire, _ := run.call.Result(res, nil)
	b, err := mcp.EncodeToolResult(run.req, wire)
	if err != nil {
		return Failed, "The result could not be encoded.", nil, mcp.EncodeError(run.req, err)
	}
	if len(b) > run.tool.Task.MaxResultBytes {
		e := mcp.Errorf(mcp.CodeInternalError, "the result is %d bytes, more than the %d this tool's tasks keep (task.max_result_bytes); ask for less", len(b), run.tool.Task.MaxResultBytes)
		return Failed, e.Message, nil, mcp.EncodeError(run.req, e)
	}
	msg = "Done."
	if res.IsError {
		msg = "The tool reported an error."
	}
	return Completed, msg, b, nil
}

const shutdownMessage = "The server shut down before the task finished. Call the tool again."

func errorMessage(wire json.RawMessage) string {
	var e struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(wire, &e)
	return e.Message
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic("tasks: cannot encode: " + err.Error())
	}
	return b
}
