package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"github.com/mcpdecl/mcpdecl/mcp"
)

var _ mcp.TaskHandler = (*Runner)(nil)

// lookupTask returns the caller's task, or InvalidParams for an unknown,
// expired or foreign id (indistinguishable on purpose). An id of the
// wrong shape never reaches the store.
func (r *Runner) lookupTask(ctx context.Context, req *mcp.Request, id string) (*Task, error) {
	if !validTaskID(id) {
		return nil, mcp.InvalidParams("unknown task: %s is not a task id this server issues", quoteShort(id))
	}
	t, err := Reap(ctx, r.store, id, time.Now())
	if errors.Is(err, ErrNotFound) || err == nil && !mayRead(t, r.owner(ctx, req)) {
		return nil, mcp.InvalidParams("unknown task %q: it may have expired, or belong to another client", id)
	}
	if err != nil {
		return nil, storeError(err)
	}
	return t, nil
}

// quoteShort quotes what a client sent, cut to a length fit for an error.
func quoteShort(s string) string {
	const most = 64
	if len(s) > most {
		return strconv.Quote(s[:most]) + "..."
	}
	return strconv.Quote(s)
}

// GetTask implements mcp.TaskHandler.
func (r *Runner) GetTask(ctx context.Context, req *mcp.Request, id string) (*mcp.Task, error) {
	t, err := r.lookupTask(ctx, req, id)
	if err != nil {
		return nil, err
	}
	return wireTask(t), nil
}

// UpdateTask implements mcp.TaskHandler: answers to keys the task waits
// on are kept for its replica to take; others are ignored.
func (r *Runner) UpdateTask(ctx context.Context, req *mcp.Request, id string, inputResponses json.RawMessage) error {
	if _, err := r.lookupTask(ctx, req, id); err != nil {
		return err
	}
	var responses map[string]json.RawMessage
	if err := json.Unmarshal(inputResponses, &responses); err != nil {
		return mcp.InvalidParams("inputResponses is not an object: %s", err)
	}
	_, err := r.store.Update(ctx, id, func(t *Task) error {
		changed := false
		for k, v := range responses {
			if _, waiting := t.InputRequests[k]; !waiting {
				continue
			}
			if t.InputResponses == nil {
				t.InputResponses = map[string]json.RawMessage{}
			}
			t.InputResponses[k] = v
			delete(t.InputRequests, k)
			changed = true
		}
		if !changed {
			return ErrUnchanged
		}
		if len(t.InputRequests) == 0 && t.Status == InputRequired {
			t.Status, t.StatusMessage = Working, "Answers received; working."
		}
		t.UpdatedAt = time.Now()
		return nil
	})
	if err != nil && !errors.Is(err, ErrNotFound) {
		return storeError(err)
	}
	return nil
}

// CancelTask implements mcp.TaskHandler: the task is cancelled at once in
// the store, and the replica running it stops its call (the command is
// ended, the query cancelled). A task that has ended stays as it is;
// 2025-11-25 clients are told so with -32602, as that revision requires.
func (r *Runner) CancelTask(ctx context.Context, req *mcp.Request, id string) (*mcp.Task, error) {
	prev, err := r.lookupTask(ctx, req, id)
	if err != nil {
		return nil, err
	}
	if prev.Terminal() && req.Era == mcp.EraLegacy {
		return nil, mcp.InvalidParams("task %s has already ended (%s) and cannot be cancelled", id, prev.Status)
	}
	t, err := r.store.Update(ctx, id, func(t *Task) error {
		if t.Terminal() {
			return ErrUnchanged
		}
		t.Status, t.StatusMessage, t.UpdatedAt = Cancelled, "Cancelled by the client.", time.Now()
		t.CancelRequested, t.InputRequests, t.InputResponses = true, nil, nil
		return nil
	})
	if err != nil {
		return nil, storeError(err)
	}
	r.mu.Lock()
	run := r.running[id]
	r.mu.Unlock()
	if run != nil {
		run.cancel(errCancelled)
	}
	return wireTask(t), nil
}

// listPage is the number of tasks in one tasks/list page.
const listPage = 50

// ListTasks implements mcp.TaskHandler (2025-11-25 tasks/list): the
// caller's tasks, oldest first.
func (r *Runner) ListTasks(ctx context.Context, req *mcp.Request, cursor string) ([]mcp.Task, string, error) {
	owner := r.owner(ctx, req)
	if owner == anonymous {
		// Nobody in particular is calling: a task of nobody is known
		// only to whoever holds its id, and is listed to no one.
		return []mcp.Task{}, "", nil
	}
	tasks, next, err := r.store.List(ctx, owner, cursor, listPage)
	if errors.Is(err, ErrBadCursor) {
		return nil, "", mcp.InvalidParams("invalid cursor: %s", err)
	}
	if err != nil {
		return nil, "", storeError(err)
	}
	out := make([]mcp.Task, 0, len(tasks))
	now := time.Now()
	for _, t := range tasks {
		if t.Abandoned(now) {
			if reaped, err := Reap(ctx, r.store, t.ID, now); err == nil {
				t = reaped
			}
		}
		out = append(out, *wireTask(t))
	}
	return out, next, nil
}

// AwaitTask implements mcp.TaskHandler (2025-11-25 tasks/result).
func (r *Runner) AwaitTask(ctx context.Context, req *mcp.Request, id string) (*mcp.Task, error) {
	changes, stop := Changes(r.store, id)
	defer stop()
	poll := time.NewTicker(time.Second)
	defer poll.Stop()
	for {
		t, err := r.lookupTask(ctx, req, id)
		if err != nil {
			return nil, err
		}
		if t.Terminal() {
			return wireTask(t), nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-changes:
		case <-poll.C:
		}
	}
}
