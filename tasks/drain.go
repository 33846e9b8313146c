package tasks

import (
	"context"
	"fmt"
	"time"
)

// drainGrace is how long tasks stopped by a drain get to record their end
// before the drain records it for them.
const drainGrace = 5 * time.Second

// Drain stops taking new tasks and waits for this replica's running
// tasks to end, until ctx ends; those still running then are stopped and
// recorded as failed ("server shutting down"), so that no task is left
// "working" in the store by a rolling update. It returns how many tasks
// it had to stop.
func (r *Runner) Drain(ctx context.Context) (int, error) {
	r.draining.Store(true)
	done := make(chan struct{})
	go func() { r.wg.Wait(); close(done) }()
	select {
	case <-done:
		return 0, nil
	case <-ctx.Done():
	}
	r.mu.Lock()
	runs := make([]*taskRun, 0, len(r.running))
	for _, run := range r.running {
		runs = append(runs, run)
	}
	r.mu.Unlock()
	for _, run := range runs {
		run.cancel(errShutdown)
	}
	select {
	case <-done:
		return len(runs), nil
	case <-time.After(drainGrace):
	}
	var firstErr error
	for _, run := range runs {
		_, err := r.store.Update(context.Background(), run.id, func(t *Task) error {
			if t.Terminal() {
				return ErrUnchanged
			}
			t.Status, t.StatusMessage, t.UpdatedAt = Failed, shutdownMessage, time.Now()
			t.Error = shutdownError
			t.InputRequests, t.InputResponses = nil, nil
			return nil
		})
		if err != nil && firstErr == nil {
			firstErr = fmt.Errorf("recording task %s as failed: %w", run.id, err)
		}
	}
	return len(runs), firstErr
}

var shutdownError = mustJSON(map[string]any{"code": -32603, "message": shutdownMessage})

// Draining reports whether Drain has begun.
func (r *Runner) Draining() bool { return r.draining.Load() }
