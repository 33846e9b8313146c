package serving

import (
	"context"
	"log/slog"
	"os"
	"time"

	"github.com/mcpdecl/mcpdecl/observe/tracing"
	"github.com/mcpdecl/mcpdecl/server"
)

// traceState is the OpenTelemetry traces Options.Traces or an OTLP
// endpoint variable turn on. Off, no span is made and a call costs nothing
// more.
type traceState struct {
	traces *tracing.Provider // nil when traces are off
}

// traceShutdownTimeout bounds the export of the last spans at exit.
const traceShutdownTimeout = 5 * time.Second

// startTraces makes the span exporter the flag and the environment ask
// for; export failures are logged as warnings.
func (f *Instance) startTraces(ctx context.Context, log *slog.Logger) error {
	getenv := f.opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	p, err := tracing.Start(ctx, getenv, tracing.Settings{On: f.opts.Traces, Version: f.opts.Version})
	if err != nil || p == nil {
		return err
	}
	tracing.LogTo(log)
	f.traces = p
	return nil
}

// stopTraces exports the spans still buffered, once every call has ended.
func (f *traceState) stopTraces(log *slog.Logger) {
	if f.traces == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), traceShutdownTimeout)
	defer cancel()
	if err := f.traces.Shutdown(ctx); err != nil {
		log.Warn("exporting the last traces", "error", err)
	}
}

// tracer is the server's tracer: nil (not a nil pointer in an interface)
// when traces are off, so calls skip it.
func (f *traceState) tracer() server.Tracer {
	if f.traces == nil {
		return nil
	}
	return f.traces.Tracer()
}

// onLimitRefused counts refused calls; nil when metrics are off.
func (m *metricsState) onLimitRefused() server.LimitRefusedFunc {
	if m.reg == nil {
		return nil
	}
	return m.reg.LimitRefused
}

// onBackendCall counts backend calls, by the hook that also makes their
// spans; nil when metrics are off.
func (m *metricsState) onBackendCall() server.BackendCallFunc {
	if m.reg == nil {
		return nil
	}
	return m.reg.BackendCalls().Ended
}
