package main

import (
	"context"
	"log/slog"
	"os"
	"time"

	"github.com/mcpdecl/mcpdecl/observe/tracing"
	"github.com/mcpdecl/mcpdecl/server"
)

// traceFlags turn on OpenTelemetry traces. Off (no flag, no OTLP endpoint
// variable), no span is made and a call costs nothing more.
type traceFlags struct {
	Traces bool `help:"Export OpenTelemetry traces over OTLP/HTTP even without OTEL_EXPORTER_OTLP_ENDPOINT (then to http://localhost:4318). Setting OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT turns traces on too; OTEL_SDK_DISABLED=true turns them off."`

	traces *tracing.Provider // nil when traces are off
}

// traceShutdownTimeout bounds the export of the last spans at exit.
const traceShutdownTimeout = 5 * time.Second

// startTraces makes the span exporter the flag and the environment ask
// for; export failures are logged as warnings.
func (f *traceFlags) startTraces(ctx context.Context, log *slog.Logger) error {
	p, err := tracing.Start(ctx, os.Getenv, tracing.Settings{On: f.Traces, Version: buildVersion()})
	if err != nil || p == nil {
		return err
	}
	tracing.LogTo(log)
	f.traces = p
	return nil
}

// stopTraces exports the spans still buffered, once every call has ended.
func (f *traceFlags) stopTraces(log *slog.Logger) {
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
func (f *traceFlags) tracer() server.Tracer {
	if f.traces == nil {
		return nil
	}
	return f.traces.Tracer()
}

// onBackendCall counts backend calls, by the hook that also makes their
// spans; nil when metrics are off.
func (m *metricsFlags) onBackendCall() server.BackendCallFunc {
	if m.reg == nil {
		return nil
	}
	return m.reg.BackendCalls().Ended
}
