package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/taskstore"
)

// taskFlags choose where tasks are kept and how a shutdown ends them.
type taskFlags struct {
	TaskStore    string        `name:"task-store" env:"MCPDECL_TASK_STORE" default:"memory" placeholder:"URL" help:"Where tasks (long calls of tools with a task block) are kept: 'memory' (this process only) or a Redis URL such as redis://127.0.0.1:6379/0, which replicas behind one load balancer must share."`
	TaskLease    time.Duration `default:"15s" help:"How long a running task counts as alive without its replica renewing it; a task whose replica died is reported failed after this."`
	MaxTasks     int           `default:"256" help:"Tasks running at once on this server at most; a call beyond it is refused until one ends (0: no limit)."`
	DrainTimeout time.Duration `default:"30s" help:"On SIGTERM: how long calls and tasks in flight may take to finish; tasks still running then are stopped and recorded as failed."`
}

// sharedTasks reports a task store outside this process.
func (f *taskFlags) sharedTasks() bool { return f.TaskStore != "" && f.TaskStore != "memory" }

// openTaskStore opens the store the flags name.
func (f *taskFlags) openTaskStore(ctx context.Context) (taskstore.Store, error) {
	openCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return taskstore.Open(openCtx, f.TaskStore)
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
