package server_test

import (
	"context"
	"encoding/json"
	"syscall"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/internal/testenv"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
	"github.com/mcpdecl/mcpdecl/tasks"
)

type silentNotifier struct{}

func (silentNotifier) Progress(context.Context, float64, float64, string) error { return nil }
func (silentNotifier) Log(context.Context, string, string, any) error           { return nil }
func (silentNotifier) Request(context.Context, string, any) (json.RawMessage, error) {
	return nil, mcp.ErrNoBackChannel
}

// BenchmarkTaskOverhead: one call of a tool that answers at once, plain
// (the client cannot poll) against the same call as a task, created,
// waited for and read back (tasks/get with the result inlined), through
// the in-memory store and through Redis (MCPDECL_TEST_REDIS_URL). cpu-ns/op
// is this process's CPU time (user+system) per call, Redis's own not
// included.
func BenchmarkTaskOverhead(b *testing.B) {
	cfg, diags := lang.LoadSource("tasks.hcl", []byte(taskConfig))
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	stores := map[string]tasks.Store{"memory": tasks.NewMemory()}
	if url := testenv.Redis.Optional(b, "the Redis benchmark"); url != "" {
		r, err := tasks.OpenRedis(context.Background(), url)
		if err != nil {
			b.Fatal(err)
		}
		defer r.Close()
		stores["redis"] = r.WithPrefix("mcpdecl-bench:")
	}
	ctx := context.Background()
	args := &mcp.CallToolParams{Name: "quick", Arguments: json.RawMessage(`{"word":"bench"}`)}
	plainReq := &mcp.Request{Method: "tools/call", Era: mcp.EraModern, ProtocolVersion: mcp.Version20260728, Notifier: silentNotifier{}}
	taskReq := *plainReq
	taskReq.ClientCapabilities.Extensions = map[string]json.RawMessage{mcp.ExtensionTasks: json.RawMessage("{}")}

	b.Run("plain", func(b *testing.B) {
		srv := server.New(tbl, &server.Options{TaskStore: tasks.NewMemory()})
		measure(b, func() {
			if r, err := srv.CallTool(ctx, plainReq, args); err != nil || r.Task != nil {
				b.Fatal(r, err)
			}
		})
	})
	for _, name := range []string{"memory", "redis"} {
		store := stores[name]
		if store == nil {
			continue
		}
		b.Run(name, func(b *testing.B) {
			srv := server.New(tbl, &server.Options{TaskStore: store})
			measure(b, func() {
				r, err := srv.CallTool(ctx, &taskReq, args)
				if err != nil || r.Task == nil {
					b.Fatal(r, err)
				}
				if t := awaitTask(b, srv, store, &taskReq, r.Task.TaskID); t.Status != mcp.TaskCompleted || len(t.Result) == 0 {
					b.Fatal(t)
				}
			})
		})
	}
}

// awaitTask waits for the task's end (woken by the store) and reads it as
// tasks/get does.
func awaitTask(b *testing.B, srv *server.Server, store tasks.Store, req *mcp.Request, id string) *mcp.Task {
	changes, stop := tasks.Changes(store, id)
	defer stop()
	for {
		t, err := srv.GetTask(context.Background(), req, id)
		if err != nil {
			b.Fatal(err)
		}
		if t.Status == mcp.TaskCompleted || t.Status == mcp.TaskFailed {
			return t
		}
		select {
		case <-changes:
		case <-time.After(time.Second):
		}
	}
}

// measure runs op b.N times and reports this process's CPU time per op.
func measure(b *testing.B, op func()) {
	b.ReportAllocs()
	before := cpuNow()
	b.ResetTimer()
	for b.Loop() {
		op()
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuNow()-before)/float64(b.N), "cpu-ns/op")
}

func cpuNow() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
