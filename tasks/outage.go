package tasks

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpdecl/mcpdecl/mcp"
)

// When the task store cannot be reached (Redis down), every task method
// answers -32603 "the task store cannot be reached", and the server says
// so in its log once, then again at growing intervals while it lasts,
// then once more when the store answers again: an outage is a few lines,
// not one per request.

// outageFirstRepeat and outageMaxRepeat bound the interval between two
// "still unreachable" lines: it starts at the first and doubles up to
// the second.
const (
	outageFirstRepeat = 10 * time.Second
	outageMaxRepeat   = 10 * time.Minute
)

// storeHealth follows whether the task store answers.
type storeHealth struct {
	log  *slog.Logger
	down atomic.Bool // read on every store call: no lock then

	mu       sync.Mutex
	since    time.Time // when the outage began
	next     time.Time // when the next "still unreachable" line may be written
	repeat   time.Duration
	failures int // failed calls since the last line
	total    int // failed calls in this outage
}

// observe notes the result of one store call.
func (h *storeHealth) observe(err error) {
	switch {
	case errors.Is(err, ErrUnavailable):
		h.failed(err)
	case h.down.Load():
		h.recovered()
	}
}

func (h *storeHealth) failed(err error) {
	now := time.Now()
	h.mu.Lock()
	defer h.mu.Unlock()
	h.failures++
	h.total++
	if !h.down.Load() {
		h.down.Store(true)
		h.since, h.repeat, h.next, h.failures, h.total = now, outageFirstRepeat, now.Add(outageFirstRepeat), 0, 1
		h.log.Error("task store unreachable: task calls fail with -32603 until it answers again", "error", err)
		return
	}
	if now.Before(h.next) {
		return
	}
	h.log.Error("task store still unreachable", "for", now.Sub(h.since).Round(time.Second).String(), "failed_calls", h.failures, "error", err)
	h.failures = 0
	h.repeat = min(2*h.repeat, outageMaxRepeat)
	h.next = now.Add(h.repeat)
}

func (h *storeHealth) recovered() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.down.Load() {
		return
	}
	h.down.Store(false)
	h.log.Info("task store reachable again", "after", time.Since(h.since).Round(time.Millisecond).String(), "failed_calls", h.total)
}

// watchedStore is the task store as the server uses it: every call's
// outcome goes to the health record.
type watchedStore struct {
	Store
	health *storeHealth
}

func (w *watchedStore) Create(ctx context.Context, t *Task) error {
	err := w.Store.Create(ctx, t)
	w.health.observe(err)
	return err
}

func (w *watchedStore) Get(ctx context.Context, id string) (*Task, error) {
	t, err := w.Store.Get(ctx, id)
	w.health.observe(err)
	return t, err
}

func (w *watchedStore) Update(ctx context.Context, id string, fn func(*Task) error) (*Task, error) {
	t, err := w.Store.Update(ctx, id, fn)
	w.health.observe(err)
	return t, err
}

func (w *watchedStore) List(ctx context.Context, owner, after string, limit int) ([]*Task, string, error) {
	ts, next, err := w.Store.List(ctx, owner, after, limit)
	w.health.observe(err)
	return ts, next, err
}

// storeUnreachable is what a client is told while the store is down: the
// request was fine, the server cannot serve it now.
const storeUnreachable = "the task store cannot be reached; try again shortly"

// storeError is the protocol error for a store failure.
func storeError(err error) error {
	if errors.Is(err, ErrUnavailable) {
		return mcp.Errorf(mcp.CodeInternalError, "%s", storeUnreachable)
	}
	return mcp.Errorf(mcp.CodeInternalError, "the task could not be stored: %v", err)
}
