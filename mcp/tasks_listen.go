package mcp

import "context"

// TaskWatcher is an optional TaskHandler extension: a 2026-07-28
// subscriptions/listen whose filter names taskIds gets notifications/tasks
// with the full task each time one of them changes.
type TaskWatcher interface {
	// WatchTask calls notify with the task as it is after each change,
	// until stop is called or ctx ends. An unknown or foreign id is an
	// error (it is then left out of the acknowledgment). notify must not
	// block.
	WatchTask(ctx context.Context, req *Request, id string, notify func(*Task)) (stop func(), err error)
}

// watchTasks subscribes a listener to the tasks its filter names and
// returns the ids honoured and a function that ends the subscriptions.
func (c *call) watchTasks(ctx context.Context, l *listener, ids []string) ([]string, func()) {
	tw, ok := c.s.h.(TaskWatcher)
	if !ok || len(ids) == 0 || !hasTasksExtension(&c.info.Capabilities) {
		return nil, func() {}
	}
	var honoured []string
	var stops []func()
	for _, id := range ids {
		stop, err := tw.WatchTask(ctx, c.req, id, l.pushTask)
		if err != nil {
			continue
		}
		honoured, stops = append(honoured, id), append(stops, stop)
	}
	return honoured, func() {
		for _, stop := range stops {
			stop()
		}
	}
}

// pushTask queues notifications/tasks for a changed task: the whole
// task, tagged with the subscription.
func (l *listener) pushTask(t *Task) {
	b := append(make([]byte, 0, 512+len(t.Result)), `{"jsonrpc":"2.0","method":"notifications/tasks","params":{`...)
	b, err := appendDetailedTask(b, t)
	if err != nil {
		return
	}
	b = append(b, `,"_meta":{"`+MetaSubscriptionID+`":`...)
	b = append(b, l.subID...)
	b = append(b, "}}}"...)
	l.mu.Lock()
	l.tasks = append(l.tasks, b)
	l.mu.Unlock()
	l.poke()
}
