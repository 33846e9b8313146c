package server_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	runtimemetrics "runtime/metrics"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/observe/metrics"
	"github.com/mcpdecl/mcpdecl/observe/tracing"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
)

// sqlGreet is greet answered by SQLite, so that a call makes one backend
// call (and, traced, one backend span).
const sqlGreet = `
backend "sql" "db" {
  driver = "sqlite"
  dsn    = "file:%s"
}
tool "greet" {
  description = "Greet someone by name."
  arg "name" {
    type = string
  }
  sql "db" {
    query = "SELECT 'Hello ' || ${args.name} AS greeting"
  }
}
`

// discard is a span exporter that drops what it is given, so that the
// benchmark measures making and batching spans, not a network.
type discard struct{}

func (discard) ExportSpans(context.Context, []*tracing.Span) error { return nil }
func (discard) Shutdown(context.Context) error                     { return nil }

// BenchmarkToolsCallTracing is a 2026-07-28 tools/call of greet, answered
// by its result block (static) and by SQLite (sql: one backend call),
// with metrics and traces off (what serve runs without --metrics and
// without an OTLP endpoint), metrics only, traces only (every span
// sampled, batched as serve batches them to an exporter that drops them),
// both, and traces as serve exports them (otlp: tracing.Start's provider
// and OTLP/HTTP exporter, to a collector on loopback in the same process
// that reads each request and drops it, its CPU time counted too), in one run;
// the lines other than off report what they add per call, in wall time
// and in the process's CPU time (the span exporter's goroutine and the
// garbage collector included), and in that CPU time without the
// collector's idle marking (busy-cpu): the collector also marks on a
// processor that has nothing else to run, here the benchmark's second
// core, which a loaded server would not leave idle, so busy-cpu is what a
// call costs a server with no core to spare:
//
//	go test ./server/ -run '^$' -bench ToolsCallTracing -benchmem
func BenchmarkToolsCallTracing(b *testing.B) {
	tables := map[string]*table.Table{"static": compileFile(b, interopConfig), "sql": sqliteGreet(b)}
	for _, kind := range []string{"static", "sql"} {
		var base [4]float64
		for _, mode := range []string{"off", "metrics", "traces", "both", "otlp"} {
			h := tracedHandler(b, tables[kind], mode)
			b.Run(kind+"/"+mode, func(b *testing.B) {
				before, idleBefore := cpuNow(), idleGCNow()
				ns, bytes := measureCalls(b, kind+" "+mode, h, "modern")
				cpu := float64(cpuNow()-before) / float64(b.N)
				busy := cpu - float64(idleGCNow()-idleBefore)/float64(b.N)
				b.ReportMetric(cpu, "cpu-ns/op")
				b.ReportMetric(busy, "busy-cpu-ns/op")
				if mode == "off" {
					base = [4]float64{ns, bytes, cpu, busy}
				} else if base[0] > 0 {
					b.ReportMetric(ns-base[0], "extra-ns/op")
					b.ReportMetric(bytes-base[1], "extra-B/op")
					b.ReportMetric(cpu-base[2], "extra-cpu-ns/op")
					b.ReportMetric(busy-base[3], "extra-busy-cpu-ns/op")
				}
			})
		}
	}
}

func tracedHandler(b *testing.B, tbl *table.Table, mode string) http.Handler {
	opts, mopts := &server.Options{}, &mcp.Options{}
	if mode == "metrics" || mode == "both" {
		reg := metrics.New()
		opts.Observer, opts.OnBackendCall, mopts.OnRequest = reg, reg.BackendCalls().Ended, reg.Request
	}
	if mode == "traces" || mode == "both" {
		tp := tracing.NewProvider(tracing.NewBatcher(discard{}, tracing.BatchOptions{}), tracing.ProviderOptions{Sampler: tracing.AlwaysOn})
		b.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
		opts.Tracer = tp.Tracer()
	}
	if mode == "otlp" {
		collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
		}))
		b.Cleanup(collector.Close)
		env := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": collector.URL, "OTEL_TRACES_SAMPLER": "always_on"}
		p, err := tracing.Start(context.Background(), func(k string) string { return env[k] }, tracing.Settings{Version: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = p.Shutdown(context.Background()) })
		opts.Tracer = p.Tracer()
	}
	srv, err := server.Open(context.Background(), tbl, opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(srv.Close)
	return mcp.NewServer(srv, mopts).HTTPHandler(nil)
}

func sqliteGreet(b *testing.B) *table.Table {
	db := filepath.Join(b.TempDir(), "greet.db")
	if err := os.WriteFile(db, nil, 0o600); err != nil {
		b.Fatal(err)
	}
	cfg, diags := lang.LoadSource("greet.hcl", fmt.Appendf(nil, sqlGreet, db))
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	return tbl
}

// idleGCNow is the CPU time the garbage collector has spent marking on
// idle processors, as the runtime estimates it.
func idleGCNow() time.Duration {
	sample := []runtimemetrics.Sample{{Name: "/cpu/classes/gc/mark/idle:cpu-seconds"}}
	runtimemetrics.Read(sample)
	if sample[0].Value.Kind() != runtimemetrics.KindFloat64 {
		return 0
	}
	return time.Duration(sample[0].Value.Float64() * float64(time.Second))
}
