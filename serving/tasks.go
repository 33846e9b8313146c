package serving

import (
	"context"
	"log/slog"
	"time"

	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/tasks"
)

// sharedTasks reports a task store outside this process.
func (f *Instance) sharedTasks() bool { return f.opts.TaskStore != "" && f.opts.TaskStore != "memory" }

// openTaskStore opens the store Options.TaskStore names.
func (f *Instance) openTaskStore(ctx context.Context) (tasks.Store, error) {
	openCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	store, err := tasks.Open(openCtx, f.opts.TaskStore)
	if err != nil {
		return nil, err
	}
	store.SetLimits(f.opts.TaskLimits)
	return store, nil
}

// drain ends the tasks of this replica within the bound left in ctx.
func drain(ctx context.Context, srv *server.Server, log *slog.Logger) {
	n, err := srv.DrainTasks(ctx)
	if n > 0 {
		log.Warn("tasks still running at the end of the drain were stopped and recorded as failed", "tasks", n)
	}
	if err != nil {
		log.Error("draining tasks", "error", err)
	}
}
