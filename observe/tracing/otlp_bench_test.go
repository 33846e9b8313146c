package tracing

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/trace"
)

// BenchmarkOTLPExport exports a full batch (512 spans: 256 tools/call
// server spans, each with a SQL client span under it, with the
// attributes mcpdecl sets) to a collector on loopback that reads and
// drops the request, with this package's exporter (ours) and the SDK's
// otlptracehttp (sdk); per span: wall time, the process's CPU time (the
// collector's reading included, the same for both) and allocations:
//
//	go test ./observe/tracing/ -run '^$' -bench OTLPExport -benchmem
func BenchmarkOTLPExport(b *testing.B) {
	spans := benchSpans(b, 256)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
	}))
	b.Cleanup(srv.Close)
	ours, err := newOTLPExporter(func(k string) string {
		return map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": srv.URL}[k]
	}, "bench")
	if err != nil {
		b.Fatal(err)
	}
	sdk, err := otlptracehttp.New(context.Background(), otlptracehttp.WithEndpointURL(srv.URL+"/v1/traces"))
	if err != nil {
		b.Fatal(err)
	}
	snapshots := Snapshots(spans) // made once: the SDK's spans are snapshots already
	for _, c := range []struct {
		name   string
		export func(context.Context) error
	}{
		{"ours", func(ctx context.Context) error { return ours.ExportSpans(ctx, spans) }},
		{"sdk", func(ctx context.Context) error { return sdk.ExportSpans(ctx, snapshots) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := processCPU()
			for b.Loop() {
				if err := c.export(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
			n := float64(b.N * len(spans))
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/span")
			b.ReportMetric(float64(processCPU()-cpu)/n, "cpu-ns/span")
		})
	}
}

func benchSpans(b *testing.B, calls int) []*Span {
	mem := &Recorder{}
	res := NewResource("", attribute.String("service.name", "mcpdecl"), attribute.String("service.version", "1.0.0"),
		attribute.String("telemetry.sdk.language", "go"), attribute.String("telemetry.sdk.name", "opentelemetry"))
	tr := NewProvider(mem, ProviderOptions{Resource: res}).API().Tracer("github.com/mcpdecl/mcpdecl")
	for i := range calls {
		ctx, call := tr.Start(context.Background(), "tools/call search", trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(
			attribute.String("mcp.method.name", "tools/call"), attribute.String("mcp.protocol.version", "2026-07-28"),
			attribute.Int("jsonrpc.request.id", i), attribute.String("gen_ai.tool.name", "search"),
			attribute.String("gen_ai.operation.name", "execute_tool"), attribute.String("network.transport", "tcp"),
			attribute.String("mcpdecl.outcome", "ok")))
		_, sql := tr.Start(ctx, "SELECT orders", trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(
			attribute.String("db.system.name", "postgresql"), attribute.String("db.operation.name", "SELECT"),
			attribute.String("mcpdecl.backend.kind", "sql"), attribute.String("mcpdecl.backend.name", "orders"),
			attribute.String("mcpdecl.outcome", "ok")))
		if i%10 == 0 {
			sql.SetStatus(codes.Error, "")
			sql.SetAttributes(attribute.String("error.type", "timeout"))
		}
		sql.End()
		call.End()
	}
	return mem.Ended()
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
