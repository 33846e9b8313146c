package tasks

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/mcpdecl/mcpdecl/mcp"
)

var _ mcp.TaskWatcher = (*Runner)(nil)

// WatchTask implements mcp.TaskWatcher: the task as it is now, then after
// each change (made on any replica), until stop. Changes that come while
// one is being read are folded into the next read.
func (r *Runner) WatchTask(ctx context.Context, req *mcp.Request, id string, notify func(*mcp.Task)) (func(), error) {
	first, err := r.lookupTask(ctx, req, id)
	if err != nil {
		return nil, err
	}
	w := &taskWatch{r: r, ctx: ctx, req: req, id: id, notify: notify, last: first.UpdatedAt.UnixNano()}
	notify(wireTask(first))
	w.stop = r.store.Watch(id, w.changed)
	return w.end, nil
}

type taskWatch struct {
	r      *Runner
	ctx    context.Context
	req    *mcp.Request
	id     string
	notify func(*mcp.Task)
	stop   func()

	mu      sync.Mutex
	last    int64 // UpdatedAt of the last task sent, to send each state once
	reading atomic.Bool
	again   atomic.Bool
	ended   atomic.Bool
}

// changed reads the task in the background, one read at a time.
func (w *taskWatch) changed() {
	w.again.Store(true)
	if !w.reading.CompareAndSwap(false, true) {
		return
	}
	go func() {
		for {
			for w.again.Swap(false) && !w.ended.Load() {
				w.read()
			}
			w.reading.Store(false)
			// A change signalled after the last read but before the flag
			// dropped found the reader busy: take it over.
			if !w.again.Load() || !w.reading.CompareAndSwap(false, true) {
				return
			}
		}
	}()
}

func (w *taskWatch) read() {
	t, err := w.r.lookupTask(w.ctx, w.req, w.id)
	if err != nil {
		return
	}
	w.mu.Lock()
	fresh := t.UpdatedAt.UnixNano() != w.last
	w.last = t.UpdatedAt.UnixNano()
	w.mu.Unlock()
	if fresh {
		w.notify(wireTask(t))
	}
}

func (w *taskWatch) end() {
	w.ended.Store(true)
	w.stop()
}
