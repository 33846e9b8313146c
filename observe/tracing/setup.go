package tracing

import (
	"context"
	"fmt"
	stdlog "log"
	"log/slog"
	"strconv"
	"strings"
	"sync/atomic"
)

// Settings say how a served configuration is traced.
type Settings struct {
	// On turns tracing on even when no OTLP endpoint variable is set
	// (serve --traces): spans then go to the default endpoint,
	// http://localhost:4318/v1/traces.
	On bool
	// Version is the service.version of the spans' resource.
	Version string
}

// Start makes the provider the environment asks for, or nil when tracing
// is off. It is on when s.On is set or OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is, unless OTEL_SDK_DISABLED=true or
// OTEL_TRACES_EXPORTER=none. The exporter (otlpExporter) reads the other
// OTEL_EXPORTER_OTLP_* variables (headers, timeout, compression,
// certificates, insecure) through getenv, and the resource
// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (see resourceFrom); the
// batching (see Batcher) is OTEL_BSP_*, the sampler OTEL_TRACES_SAMPLER(_ARG).
func Start(ctx context.Context, getenv func(string) string, s Settings) (*Provider, error) {
	on, err := wanted(getenv, s.On)
	if !on || err != nil {
		return nil, err
	}
	if err := checkProtocol(getenv); err != nil {
		return nil, err
	}
	sampler, err := samplerFrom(getenv)
	if err != nil {
		return nil, err
	}
	batching, err := batchOptionsFrom(getenv)
	if err != nil {
		return nil, err
	}
	exp, err := newOTLPExporter(getenv, s.Version)
	if err != nil {
		return nil, err
	}
	res, err := resourceFrom(getenv, s.Version)
	if err != nil {
		return nil, err
	}
	return NewProvider(NewBatcher(exp, batching), ProviderOptions{Sampler: sampler, Resource: res}), nil
}

// wanted says whether the environment (and --traces) turn tracing on.
func wanted(getenv func(string) string, on bool) (bool, error) {
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return false, nil
	}
	switch exp := strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER")); exp {
	case "none":
		return false, nil
	case "", "otlp":
	default:
		return false, fmt.Errorf("traces: OTEL_TRACES_EXPORTER=%q is not supported: mcpdecl exports traces over OTLP (otlp) or not at all (none)", exp)
	}
	return on || getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "", nil
}

// checkProtocol refuses an OTLP protocol other than http/protobuf: a
// gRPC exporter would add a gRPC stack to the binary for what any
// collector also takes over HTTP.
func checkProtocol(getenv func(string) string) error {
	name, proto := "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
	if proto == "" {
		name, proto = "OTEL_EXPORTER_OTLP_PROTOCOL", getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
	}
	switch strings.TrimSpace(proto) {
	case "", "http/protobuf":
		return nil
	case "grpc":
		return fmt.Errorf("traces: %s=grpc is not supported: mcpdecl sends OTLP over HTTP; set %s=http/protobuf and point the endpoint at the collector's OTLP/HTTP port (4318 by default)", name, name)
	}
	return fmt.Errorf("traces: %s=%q is not supported: mcpdecl sends OTLP over HTTP with protobuf; set %s=http/protobuf", name, proto, name)
}

// samplerFrom is the sampler of OTEL_TRACES_SAMPLER and
// OTEL_TRACES_SAMPLER_ARG, the SDK's default (parentbased_always_on)
// when unset; an unknown name or a bad ratio is an error rather than a
// silent default.
func samplerFrom(getenv func(string) string) (Sampler, error) {
	name := strings.ToLower(strings.TrimSpace(getenv("OTEL_TRACES_SAMPLER")))
	ratio := func() (float64, error) {
		arg := strings.TrimSpace(getenv("OTEL_TRACES_SAMPLER_ARG"))
		if arg == "" {
			return 1, nil
		}
		r, err := strconv.ParseFloat(arg, 64)
		if err != nil || r < 0 || r > 1 {
			return 0, fmt.Errorf("traces: OTEL_TRACES_SAMPLER_ARG=%q: write the share of traces to keep, a number from 0 to 1", arg)
		}
		return r, nil
	}
	switch name {
	case "", "parentbased_always_on":
		return ParentBased(AlwaysOn), nil
	case "always_on":
		return AlwaysOn, nil
	case "always_off":
		return AlwaysOff, nil
	case "parentbased_always_off":
		return ParentBased(AlwaysOff), nil
	case "traceidratio", "parentbased_traceidratio":
		r, err := ratio()
		if err != nil {
			return nil, err
		}
		if name == "traceidratio" {
			return TraceIDRatio(r), nil
		}
		return ParentBased(TraceIDRatio(r)), nil
	}
	return nil, fmt.Errorf("traces: OTEL_TRACES_SAMPLER=%q is not supported; use always_on, always_off, traceidratio or their parentbased_ forms", name)
}

// exportErrors is told of failed exports and dropped spans when a
// Batcher is given no OnError: the standard logger's until LogTo.
var exportErrors atomic.Pointer[func(error)]

func reportExportError(err error) {
	if f := exportErrors.Load(); f != nil {
		(*f)(err)
		return
	}
	stdlog.Print("exporting traces: ", err)
}

// LogTo sends the errors of exporting traces to log as warnings, so that
// with JSON logs every line of stderr is one JSON object. It returns
// what puts the previous destination back.
func LogTo(log *slog.Logger) (restore func()) {
	f := func(err error) { log.Warn("exporting traces", "error", err) }
	old := exportErrors.Swap(&f)
	return func() { exportErrors.Store(old) }
}
