package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/tasks"
)

// taskFlags choose where tasks are kept and how a shutdown ends them.
type taskFlags struct {
	TaskStore         string        `name:"task-store" env:"MCPDECL_TASK_STORE" default:"memory" placeholder:"URL" help:"Where tasks (long calls of tools with a task block) are kept: 'memory' (this process only) or a Redis URL such as redis://127.0.0.1:6379/0, which replicas behind one load balancer must share."`
	TaskLease         time.Duration `default:"15s" help:"How long a running task counts as alive without its replica renewing it; a task whose replica died is reported failed after this."`
	MaxTasks          int           `default:"256" help:"Tasks running at once on this server at most; a call beyond it is refused until one ends (0: no limit)."`
	MaxTasksPerCaller int           `default:"32" help:"Tasks one caller (token subject, 2025 session, the stdio client) runs at once at most, so that no caller takes every slot; callers with neither share only --max-tasks (0: no limit)."`
	DrainTimeout      time.Duration `default:"30s" help:"On SIGTERM: how long calls and tasks in flight may take to finish; tasks still running then are stopped and recorded as failed."`

	// Finished tasks are kept until their TTL ends, within these bounds:
	// past one, the oldest finished tasks are forgotten.
	TaskResultsPerOwner    int   `default:"100" help:"Finished tasks kept per caller (token subject, 2025 session); past it the caller's oldest are forgotten (0: no limit)."`
	TaskResultsAnonymous   int   `default:"1000" help:"Finished tasks kept of callers with neither a token nor a session, all together (0: no limit)."`
	TaskResultsTotal       int   `default:"10000" help:"Finished tasks kept in all, every caller together (0: no limit)."`
	TaskResultMibPerOwner  int64 `name:"task-result-mib-per-owner" default:"64" help:"MiB of finished tasks' results kept per caller (0: no limit)."`
	TaskResultMibAnonymous int64 `name:"task-result-mib-anonymous" default:"128" help:"MiB of finished tasks' results kept of callers with neither a token nor a session, all together (0: no limit)."`
	TaskResultMibTotal     int64 `name:"task-result-mib-total" default:"1024" help:"MiB of finished tasks' results kept in all (0: no limit)."`
}

// taskLimits are the bounds the flags set, checked.
func (f *taskFlags) taskLimits() (tasks.Limits, error) {
	for name, v := range map[string]int64{"--task-results-per-owner": int64(f.TaskResultsPerOwner), "--task-results-anonymous": int64(f.TaskResultsAnonymous),
		"--task-results-total": int64(f.TaskResultsTotal), "--task-result-mib-per-owner": f.TaskResultMibPerOwner, "--task-result-mib-anonymous": f.TaskResultMibAnonymous, "--task-result-mib-total": f.TaskResultMibTotal} {
		if v < 0 {
			return tasks.Limits{}, fmt.Errorf("%s is %d: use 0 for no limit, or a positive number", name, v)
		}
		if v > 1<<40 {
			return tasks.Limits{}, fmt.Errorf("%s is %d: too large", name, v)
		}
	}
	return tasks.Limits{PerOwner: f.TaskResultsPerOwner, Anonymous: f.TaskResultsAnonymous, Total: f.TaskResultsTotal,
		PerOwnerBytes: f.TaskResultMibPerOwner << 20, AnonymousBytes: f.TaskResultMibAnonymous << 20, TotalBytes: f.TaskResultMibTotal << 20}, nil
}

// sharedTasks reports a task store outside this process.
func (f *taskFlags) sharedTasks() bool { return f.TaskStore != "" && f.TaskStore != "memory" }

// openTaskStore opens the store the flags name.
func (f *taskFlags) openTaskStore(ctx context.Context) (tasks.Store, error) {
	limits, err := f.taskLimits()
	if err != nil {
		return nil, err
	}
	openCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	store, err := tasks.Open(openCtx, f.TaskStore)
	if err != nil {
		return nil, err
	}
	store.SetLimits(limits)
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
