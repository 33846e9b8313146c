package tracing_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/observe/tracing"
)

// TestStart: tracing is off unless --traces or an OTLP endpoint variable
// turns it on, and OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none turn it
// off; what mcpdecl cannot do (gRPC, other exporters, unknown samplers)
// is an error naming the variable.
func TestStart(t *testing.T) {
	const endpoint = "http://127.0.0.1:4318"
	for _, c := range []struct {
		name  string
		on    bool
		env   map[string]string
		want  bool   // a provider
		error string // part of the error, "" for none
	}{
		{name: "default off"},
		{name: "flag", on: true, want: true},
		{name: "endpoint", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": endpoint}, want: true},
		{name: "traces endpoint", env: map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": endpoint + "/v1/traces"}, want: true},
		{name: "disabled", on: true, env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": endpoint, "OTEL_SDK_DISABLED": "true"}},
		{name: "exporter none", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": endpoint, "OTEL_TRACES_EXPORTER": "none"}},
		{name: "exporter zipkin", on: true, env: map[string]string{"OTEL_TRACES_EXPORTER": "zipkin"}, error: `OTEL_TRACES_EXPORTER="zipkin"`},
		{name: "grpc", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": endpoint, "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}, error: "OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf"},
		{name: "traces grpc", on: true, env: map[string]string{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "grpc"}, error: "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http/protobuf"},
		{name: "json", on: true, env: map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"}, error: `"http/json" is not supported`},
		{name: "protobuf", on: true, env: map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf"}, want: true},
		{name: "ratio", on: true, env: map[string]string{"OTEL_TRACES_SAMPLER": "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0.25"}, want: true},
		{name: "bad ratio", on: true, env: map[string]string{"OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "2"}, error: "OTEL_TRACES_SAMPLER_ARG"},
		{name: "batching", on: true, env: map[string]string{"OTEL_BSP_SCHEDULE_DELAY": "100", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "64"}, want: true},
		{name: "bad batching", on: true, env: map[string]string{"OTEL_BSP_MAX_QUEUE_SIZE": "lots"}, error: `OTEL_BSP_MAX_QUEUE_SIZE="lots"`},
		{name: "unknown sampler", on: true, env: map[string]string{"OTEL_TRACES_SAMPLER": "jaeger_remote"}, error: `OTEL_TRACES_SAMPLER="jaeger_remote"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			getenv := func(k string) string { return c.env[k] }
			p, err := tracing.Start(context.Background(), getenv, tracing.Settings{On: c.on, Version: "test"})
			switch {
			case c.error != "" && (err == nil || !strings.Contains(err.Error(), c.error)):
				t.Fatalf("error %v, want one with %q", err, c.error)
			case c.error == "" && err != nil:
				t.Fatal(err)
			case (p != nil) != c.want:
				t.Fatalf("provider %v, want one: %v", p, c.want)
			}
			if p != nil {
				if err := p.Shutdown(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
