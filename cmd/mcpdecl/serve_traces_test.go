package main

import (
	"compress/gzip"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
)

// otlpReceiver is an OTLP/HTTP trace receiver on loopback: it decodes
// each POST /v1/traces and keeps the resource spans.
type otlpReceiver struct {
	*httptest.Server
	mu    sync.Mutex
	spans []*tracepb.ResourceSpans
	bad   []string
}

func newOTLPReceiver(t *testing.T) *otlpReceiver {
	r := &otlpReceiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method != http.MethodPost || req.URL.Path != "/v1/traces" || req.Header.Get("Content-Type") != "application/x-protobuf" {
			r.fail(req.Method + " " + req.URL.Path + " " + req.Header.Get("Content-Type"))
			http.Error(w, "not an OTLP/HTTP protobuf export", http.StatusBadRequest)
			return
		}
		var body io.Reader = req.Body
		if req.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(req.Body)
			if err != nil {
				r.fail(err.Error())
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			body = zr
		}
		raw, err := io.ReadAll(body)
		var export coltracepb.ExportTraceServiceRequest
		if err == nil {
			err = proto.Unmarshal(raw, &export)
		}
		if err != nil {
			r.fail(err.Error())
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.mu.Lock()
		r.spans = append(r.spans, export.ResourceSpans...)
		r.mu.Unlock()
		out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		_, _ = w.Write(out)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *otlpReceiver) fail(s string) {
	r.mu.Lock()
	r.bad = append(r.bad, s)
	r.mu.Unlock()
}

// received is every span with its resource's attributes.
func (r *otlpReceiver) received() (spans []*tracepb.Span, resources [][]*commonpb.KeyValue, all string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var sb strings.Builder
	for _, rs := range r.spans {
		sb.WriteString(prototext.Format(rs))
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				spans = append(spans, s)
				resources = append(resources, rs.GetResource().GetAttributes())
			}
		}
	}
	return spans, resources, sb.String()
}

const tracesConfig = `
tool "echo" {
  description = "Echoes the text."
  arg "text" {
    type = string
  }
  shell {
    command = ["echo", args.text]
  }
}
`

// TestServeTraces runs `serve --http` with OTEL_EXPORTER_OTLP_ENDPOINT
// set to a receiver on loopback and a batch delay longer than the test:
// the spans of the calls arrive when SIGTERM shuts the server down, with
// the resource the environment names, the backend span under the call's,
// and no argument value.
func TestServeTraces(t *testing.T) {
	bin := buildBinary(t)
	rcv := newOTLPReceiver(t)
	config := filepath.Join(t.TempDir(), "traces.hcl")
	writeFile(t, config, tracesConfig)
	cmd := exec.Command(bin, "serve", "--http", "127.0.0.1:0", "--log-format", "json", "--log-level", "debug", config)
	cmd.Env = append(cleanOTELEnv(),
		"OTEL_EXPORTER_OTLP_ENDPOINT="+rcv.URL,
		"OTEL_SERVICE_NAME=traces-e2e",
		"OTEL_RESOURCE_ATTRIBUTES=deployment.environment.name=test",
		"OTEL_BSP_SCHEDULE_DELAY=600000", // only the shutdown exports
	)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	mcpURL := waitListening(t, stderr) + "/mcp"

	if res := callModern(t, mcpURL, "echo", `"arguments":{"text":"`+secretArgument+`"}`, `{}`); !strings.Contains(string(res), secretArgument) {
		t.Fatalf("echo: %s", res)
	}
	callModern(t, mcpURL, "echo", `"arguments":{"text":"again"}`, `{}`)
	if spans, _, _ := rcv.received(); len(spans) != 0 {
		t.Fatalf("%d spans exported before the shutdown", len(spans))
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve after SIGTERM: %v\n%s", err, stderr)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("serve did not stop after SIGTERM:\n%s", stderr)
	}

	spans, resources, all := rcv.received()
	if len(rcv.bad) > 0 {
		t.Fatalf("bad exports: %v", rcv.bad)
	}
	if strings.Contains(all, secretArgument) {
		t.Errorf("an argument value was exported:\n%s", all)
	}
	var calls, echoes []*tracepb.Span
	for i, s := range spans {
		if got := stringAttr(resources[i], "service.name"); got != "traces-e2e" {
			t.Errorf("span %q: service.name %q", s.Name, got)
		}
		if got := stringAttr(resources[i], "deployment.environment.name"); got != "test" {
			t.Errorf("span %q: deployment.environment.name %q", s.Name, got)
		}
		switch s.Name {
		case "tools/call echo":
			calls = append(calls, s)
			if s.Kind != tracepb.Span_SPAN_KIND_SERVER || stringAttr(s.Attributes, "gen_ai.tool.name") != "echo" || stringAttr(s.Attributes, "mcpdecl.outcome") != "ok" {
				t.Errorf("call span: %v", prototext.Format(s))
			}
		case "echo":
			echoes = append(echoes, s)
		}
	}
	if len(calls) != 2 || len(echoes) != 2 {
		t.Fatalf("%d call spans and %d command spans:\n%s", len(calls), len(echoes), all)
	}
	for _, e := range echoes {
		parent := false
		for _, c := range calls {
			parent = parent || (string(e.ParentSpanId) == string(c.SpanId) && string(e.TraceId) == string(c.TraceId))
		}
		if !parent || e.Kind != tracepb.Span_SPAN_KIND_CLIENT {
			t.Errorf("command span %s is not a client span under a call span", prototext.Format(e))
		}
	}
	// The log line of each call (debug: its backend call) carries the
	// ids of its span, though the client sent no trace context.
	for _, c := range calls {
		ids := `"trace_id":"` + hex.EncodeToString(c.TraceId) + `","span_id":"` + hex.EncodeToString(c.SpanId) + `"`
		if !strings.Contains(stderr.String(), ids) {
			t.Errorf("no log line with %s:\n%s", ids, stderr)
		}
	}
}

// TestServeTracesGRPC: a gRPC protocol is refused with what to set.
func TestServeTracesGRPC(t *testing.T) {
	bin := buildBinary(t)
	config := filepath.Join(t.TempDir(), "traces.hcl")
	writeFile(t, config, tracesConfig)
	cmd := exec.Command(bin, "serve", "--http", "127.0.0.1:0", config)
	cmd.Env = append(cleanOTELEnv(), "OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4317", "OTEL_EXPORTER_OTLP_PROTOCOL=grpc")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf") {
		t.Errorf("serve with OTLP over gRPC: %v\n%s", err, out)
	}
}

// cleanOTELEnv is the test's environment without OTEL_* variables.
func cleanOTELEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OTEL_") {
			env = append(env, kv)
		}
	}
	return env
}

func stringAttr(kvs []*commonpb.KeyValue, key string) string {
	for _, kv := range kvs {
		if kv.Key == key {
			return kv.GetValue().GetStringValue()
		}
	}
	return ""
}
