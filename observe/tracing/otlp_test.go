package tracing

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"
)

// collector is an OTLP/HTTP receiver on loopback that keeps each
// request; answer, when set, answers a request instead of a 200.
type collector struct {
	*httptest.Server
	mu       sync.Mutex
	requests []received
	answer   func(n int, w http.ResponseWriter) bool // true: answered
}

type received struct {
	at      time.Time
	header  http.Header
	body    []byte // uncompressed
	request *coltracepb.ExportTraceServiceRequest
	err     error
}

func newCollector(t *testing.T) *collector { return startCollector(t, false) }

// startCollector starts a collector, over TLS with httptest's
// certificate when tls.
func startCollector(t *testing.T, tls bool) *collector {
	c := &collector{}
	c.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := received{at: time.Now(), header: r.Header.Clone()}
		var body io.Reader = r.Body
		if r.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(r.Body)
			if err != nil {
				rec.err = err
			} else {
				body = zr
			}
		}
		if rec.err == nil {
			rec.body, rec.err = io.ReadAll(body)
		}
		if rec.err == nil {
			rec.request = &coltracepb.ExportTraceServiceRequest{}
			rec.err = proto.Unmarshal(rec.body, rec.request)
		}
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/x-protobuf" {
			rec.err = errors.Join(rec.err, errors.New(r.Method+" "+r.Header.Get("Content-Type")))
		}
		c.mu.Lock()
		c.requests = append(c.requests, rec)
		n, answer := len(c.requests), c.answer
		c.mu.Unlock()
		if answer != nil && answer(n, w) {
			return
		}
		out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		_, _ = w.Write(out)
	}))
	if tls {
		c.StartTLS()
	} else {
		c.Start()
	}
	t.Cleanup(c.Close)
	return c
}

func (c *collector) setAnswer(f func(n int, w http.ResponseWriter) bool) {
	c.mu.Lock()
	c.answer = f
	c.mu.Unlock()
}

func (c *collector) got(t *testing.T) []received {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.requests {
		if r.err != nil {
			t.Fatalf("a request the collector could not read: %v", r.err)
		}
	}
	return slices.Clone(c.requests)
}

// exporterFor is our exporter with env (and the endpoint of c).
func exporterFor(t *testing.T, c *collector, env map[string]string) *otlpExporter {
	t.Helper()
	full := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": c.URL}
	for k, v := range env {
		full[k] = v
	}
	e, err := newOTLPExporter(func(k string) string { return full[k] }, "test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Shutdown(context.Background()) })
	return e
}

// sdkExporterFor is the SDK's otlptracehttp exporter to c, the reference.
func sdkExporterFor(t *testing.T, c *collector) sdkExporter {
	t.Helper()
	e, err := otlptracehttp.New(context.Background(), otlptracehttp.WithEndpointURL(c.URL+"/v1/traces"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Shutdown(context.Background()) })
	return sdkExporter{e}
}

// sdkExporter hands our spans to one of the SDK's exporters.
type sdkExporter struct{ e sdktrace.SpanExporter }

func (s sdkExporter) ExportSpans(ctx context.Context, spans []*Span) error {
	return s.e.ExportSpans(ctx, Snapshots(spans))
}

func (s sdkExporter) Shutdown(ctx context.Context) error { return s.e.Shutdown(ctx) }

// sampleSpans are spans of two resources with every kind of attribute
// value, events, links, statuses, remote and local parents, trace state
// and dropped counts.
func sampleSpans(t *testing.T) []*Span {
	t.Helper()
	mem := &Recorder{}
	res1 := NewResource("https://opentelemetry.io/schemas/1.26.0",
		attribute.String("service.name", "mcpdecl"), attribute.String("service.version", "1.2.3"), attribute.Int("pid", 42))
	res2 := NewResource("", attribute.String("service.name", "other"), attribute.Bool("test", true))
	p1 := NewProvider(mem, ProviderOptions{Resource: res1})
	p2 := NewProvider(mem, ProviderOptions{Resource: res2})
	a := p1.API().Tracer("first")
	b := p1.API().Tracer("second")
	c := p2.API().Tracer("")

	ts, err := trace.ParseTraceState("vendor=abc,other=x")
	if err != nil {
		t.Fatal(err)
	}
	remote := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: trace.TraceID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, SpanID: trace.SpanID{9, 8, 7, 6, 5, 4, 3, 2},
		TraceFlags: trace.FlagsSampled, TraceState: ts, Remote: true,
	})
	link := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: trace.TraceID{0xff, 1}, SpanID: trace.SpanID{0xee, 2}, TraceFlags: trace.FlagsSampled, Remote: true,
	})
	ctx := trace.ContextWithRemoteSpanContext(context.Background(), remote)
	start := time.Date(2026, 7, 28, 10, 0, 0, 123456789, time.UTC)
	ctx, call := a.Start(ctx, "tools/call search", trace.WithSpanKind(trace.SpanKindServer), trace.WithTimestamp(start),
		trace.WithLinks(trace.Link{SpanContext: link, Attributes: []attribute.KeyValue{attribute.String("link.kind", "header")}}),
		trace.WithAttributes(
			attribute.String("s", "text ✓"), attribute.String("empty", ""),
			attribute.Bool("yes", true), attribute.Bool("no", false),
			attribute.Int64("i", -7), attribute.Int64("zero", 0), attribute.Int64("big", 1<<62),
			attribute.Float64("f", 3.25), attribute.Float64("fzero", 0),
			attribute.BoolSlice("bs", []bool{true, false}), attribute.Int64Slice("is", []int64{1, -2, 300}),
			attribute.Float64Slice("fs", []float64{0.5, -1}), attribute.StringSlice("ss", []string{"a", "", strings.Repeat("long ", 40)}),
			attribute.StringSlice("noss", nil),
		))
	call.SetAttributes(attribute.ByteSlice("bytes", []byte{0, 1, 2}),
		attribute.Slice("mixed", attribute.IntValue(1), attribute.StringValue("two"), attribute.BoolSliceValue([]bool{true})),
		attribute.Map("map", attribute.String("k", "v"), attribute.Int("n", 2)),
		attribute.KeyValue{Key: "nothing"})
	for i := range maxSpanAttributes { // the last few are dropped
		call.SetAttributes(attribute.Int(fmt.Sprint("n", i), i))
	}
	call.AddEvent("first", trace.WithTimestamp(start.Add(time.Millisecond)), trace.WithAttributes(attribute.Int("a", 1), attribute.Int("b", 2)))
	call.AddEvent("second", trace.WithTimestamp(start.Add(2*time.Millisecond)))
	call.RecordError(errors.New("boom"), trace.WithTimestamp(start.Add(3*time.Millisecond)))
	for i := range maxSpanEvents { // the last few are dropped
		call.AddEvent(fmt.Sprint("e", i), trace.WithTimestamp(start.Add(4*time.Millisecond)))
	}
	_, backend := a.Start(ctx, "SELECT orders", trace.WithSpanKind(trace.SpanKindClient))
	backend.SetStatus(codes.Error, "timeout")
	backend.End()
	_, other := b.Start(ctx, "internal", trace.WithSpanKind(trace.SpanKindInternal))
	other.SetStatus(codes.Ok, "ignored")
	other.End()
	_, prod := c.Start(context.Background(), "queue", trace.WithSpanKind(trace.SpanKindProducer), trace.WithAttributes(attribute.String("long", strings.Repeat("x", 300))))
	prod.End()
	_, cons := c.Start(context.Background(), "", trace.WithSpanKind(trace.SpanKindConsumer))
	cons.End()
	call.SetStatus(codes.Error, "")
	call.End(trace.WithTimestamp(start.Add(5 * time.Millisecond)))
	_, late := a.Start(ctx, "after the call")
	late.End()

	spans := mem.Ended()
	if len(spans) != 6 {
		t.Fatalf("%d spans", len(spans))
	}
	return spans
}

// resourceSpans are the resource spans of the requests, each request's
// sorted by resource (the SDK's exporter orders them at random).
func resourceSpans(t *testing.T, rs []received) []*tracepb.ResourceSpans {
	var all []*tracepb.ResourceSpans
	for _, r := range rs {
		part := r.request.ResourceSpans
		slices.SortFunc(part, func(a, b *tracepb.ResourceSpans) int {
			return strings.Compare(prototext.Format(a.Resource), prototext.Format(b.Resource))
		})
		all = append(all, part...)
	}
	return all
}

// TestOTLPMatchesTheSDKExporter: the request decodes, with the official
// OTLP types, into exactly what the SDK's otlptracehttp exporter sends
// for the same spans.
func TestOTLPMatchesTheSDKExporter(t *testing.T) {
	spans := sampleSpans(t)
	ours, theirs := newCollector(t), newCollector(t)
	if err := exporterFor(t, ours, nil).ExportSpans(context.Background(), spans); err != nil {
		t.Fatal(err)
	}
	if err := sdkExporterFor(t, theirs).ExportSpans(context.Background(), spans); err != nil {
		t.Fatal(err)
	}
	got, want := resourceSpans(t, ours.got(t)), resourceSpans(t, theirs.got(t))
	if len(got) != 2 || len(want) != 2 {
		t.Fatalf("%d and %d resources, want 2", len(got), len(want))
	}
	for i := range got {
		if !proto.Equal(got[i], want[i]) {
			t.Errorf("resource %d:\n%s\nthe SDK's exporter:\n%s", i, prototext.Format(got[i]), prototext.Format(want[i]))
		}
	}
	// And the spans are the ones sent, not two equal empty requests.
	var names []string
	for _, rs := range got {
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				names = append(names, ss.GetScope().GetName()+": "+s.Name)
			}
		}
	}
	slices.Sort(names)
	if want := []string{"github.com/mcpdecl/mcpdecl: ", "github.com/mcpdecl/mcpdecl: SELECT orders",
		"github.com/mcpdecl/mcpdecl: after the call", "github.com/mcpdecl/mcpdecl: internal",
		"github.com/mcpdecl/mcpdecl: queue", "github.com/mcpdecl/mcpdecl: tools/call search"}; !slices.Equal(names, want) {
		t.Errorf("spans %q, want %q", names, want)
	}
	var call *tracepb.Span
	for _, s := range got[0].ScopeSpans[0].Spans {
		if s.Name == "tools/call search" {
			call = s
		}
	}
	if call == nil {
		t.Fatalf("no call span in %s", prototext.Format(got[0]))
	}
	if got[0].Resource.Attributes[0].Key != "pid" || call.Name != "tools/call search" || len(call.Attributes) != maxSpanAttributes || call.DroppedAttributesCount != 18 ||
		len(call.Events) != maxSpanEvents || call.DroppedEventsCount != 3 || call.Events[2].Name != "exception" || len(call.Links) != 1 || call.Status.Code != tracepb.Status_STATUS_CODE_ERROR ||
		call.Kind != tracepb.Span_SPAN_KIND_SERVER || call.TraceState != "vendor=abc,other=x" || call.Flags != 0x301 ||
		call.ParentSpanId[0] != 9 || call.StartTimeUnixNano != uint64(time.Date(2026, 7, 28, 10, 0, 0, 123456789, time.UTC).UnixNano()) {
		t.Errorf("the call span:\n%s", prototext.Format(call))
	}
}

// TestOTLPBatchOfManySpans: a batch of many spans, each over 128 bytes,
// is the SDK exporter's too.
func TestOTLPBatchOfManySpans(t *testing.T) {
	mem := &Recorder{}
	tr := NewProvider(mem, ProviderOptions{}).API().Tracer("many")
	for i := range 600 {
		_, s := tr.Start(context.Background(), strings.Repeat("n", i), trace.WithAttributes(attribute.Int("i", i)))
		s.End()
	}
	spans := mem.Ended()
	ours, theirs := newCollector(t), newCollector(t)
	if err := exporterFor(t, ours, nil).ExportSpans(context.Background(), spans); err != nil {
		t.Fatal(err)
	}
	if err := sdkExporterFor(t, theirs).ExportSpans(context.Background(), spans); err != nil {
		t.Fatal(err)
	}
	got, want := ours.got(t)[0], theirs.got(t)[0]
	if !proto.Equal(got.request, want.request) {
		t.Error("600 spans differ from the SDK exporter's")
	}
}

func TestOTLPGzip(t *testing.T) {
	spans := sampleSpans(t)
	c := newCollector(t)
	if err := exporterFor(t, c, map[string]string{"OTEL_EXPORTER_OTLP_TRACES_COMPRESSION": "gzip"}).ExportSpans(context.Background(), spans); err != nil {
		t.Fatal(err)
	}
	plain := newCollector(t)
	if err := exporterFor(t, plain, nil).ExportSpans(context.Background(), spans); err != nil {
		t.Fatal(err)
	}
	got, want := c.got(t), plain.got(t)
	if got[0].header.Get("Content-Encoding") != "gzip" || want[0].header.Get("Content-Encoding") != "" {
		t.Errorf("Content-Encoding %q and %q", got[0].header.Get("Content-Encoding"), want[0].header.Get("Content-Encoding"))
	}
	if !bytes.Equal(got[0].body, want[0].body) {
		t.Error("the gzipped request does not decompress to the plain one")
	}
}

func TestOTLPHeaders(t *testing.T) {
	spans := sampleSpans(t)[:1]
	for _, c := range []struct {
		name string
		env  map[string]string
		want map[string]string
	}{
		{"headers", map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "api-key=s3cr%C3%A9t%20value, X-Team = obs "},
			map[string]string{"Api-Key": "s3cr\u00e9t value", "X-Team": "obs", "Content-Type": "application/x-protobuf", "User-Agent": "mcpdecl/test"}},
		{"traces headers win", map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "a=general", "OTEL_EXPORTER_OTLP_TRACES_HEADERS": "b=traces"},
			map[string]string{"A": "", "B": "traces"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			col := newCollector(t)
			if err := exporterFor(t, col, c.env).ExportSpans(context.Background(), spans); err != nil {
				t.Fatal(err)
			}
			h := col.got(t)[0].header
			for k, v := range c.want {
				if h.Get(k) != v {
					t.Errorf("%s: %q, want %q", k, h.Get(k), v)
				}
			}
		})
	}
}

// TestOTLPRetries: a 503 with Retry-After is tried again after that
// many seconds, then succeeds; a 429 too; a 400 is not retried and its
// error reads as the SDK exporter's.
func TestOTLPRetries(t *testing.T) {
	spans := sampleSpans(t)[:1]
	col := newCollector(t)
	col.setAnswer(func(n int, w http.ResponseWriter) bool {
		if n == 1 {
			w.Header().Set("Retry-After", "1")
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return true
		}
		if n == 2 {
			http.Error(w, "slow down", http.StatusTooManyRequests)
			return true
		}
		return false
	})
	e := exporterFor(t, col, nil)
	e.retry = retryPolicy{initial: 10 * time.Millisecond, maxWait: 20 * time.Millisecond, maxElapsed: 10 * time.Second}
	if err := e.ExportSpans(context.Background(), spans); err != nil {
		t.Fatal(err)
	}
	got := col.got(t)
	if len(got) != 3 {
		t.Fatalf("%d requests, want 3", len(got))
	}
	if wait := got[1].at.Sub(got[0].at); wait < time.Second {
		t.Errorf("retried after %v, before the Retry-After second", wait)
	}
	if !bytes.Equal(got[0].body, got[2].body) {
		t.Error("the retry sent another body")
	}

	// Giving up: the error says why, as the SDK exporter's did.
	e.retry.maxElapsed = 50 * time.Millisecond
	col.setAnswer(func(n int, w http.ResponseWriter) bool { http.Error(w, "down", http.StatusBadGateway); return true })
	err := e.ExportSpans(context.Background(), spans)
	if err == nil || !strings.HasPrefix(err.Error(), "traces export: max retry time elapsed: retry-able request failure: body: down") &&
		!strings.HasPrefix(err.Error(), "traces export: max retry time would elapse: retry-able request failure: body: down") {
		t.Errorf("error %v", err)
	}

	col.setAnswer(func(n int, w http.ResponseWriter) bool {
		http.Error(w, "bad spans", http.StatusBadRequest)
		return true
	})
	before := len(col.got(t))
	err = e.ExportSpans(context.Background(), spans)
	sdkErr := sdkExporterFor(t, col).ExportSpans(context.Background(), spans)
	if err == nil || sdkErr == nil || err.Error() != sdkErr.Error() {
		t.Errorf("error %v, the SDK exporter's %v", err, sdkErr)
	}
	if n := len(col.got(t)) - before; n != 2 {
		t.Errorf("%d requests for a 400 from each exporter, want 1 each", n)
	}
}

// TestOTLPPartialSuccess: a collector that rejects spans in a 200 is
// an error.
func TestOTLPPartialSuccess(t *testing.T) {
	col := newCollector(t)
	col.setAnswer(func(n int, w http.ResponseWriter) bool {
		out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{PartialSuccess: &coltracepb.ExportTracePartialSuccess{RejectedSpans: 2, ErrorMessage: "too old"}})
		w.Header().Set("Content-Type", "application/x-protobuf")
		_, _ = w.Write(out)
		return true
	})
	spans := sampleSpans(t)
	err := exporterFor(t, col, nil).ExportSpans(context.Background(), spans)
	sdkErr := sdkExporterFor(t, col).ExportSpans(context.Background(), spans)
	if err == nil || sdkErr == nil || err.Error() != sdkErr.Error() {
		t.Errorf("error %v, the SDK exporter's %v", err, sdkErr)
	}
}

// TestOTLPDeadCollector: with nothing listening, the export fails at
// once with the error the SDK exporter gave, and serve logs it as a
// warning.
func TestOTLPDeadCollector(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String()
	l.Close()
	spans := sampleSpans(t)[:1]
	ours, err := newOTLPExporter(func(k string) string {
		return map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": dead}[k]
	}, "test")
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := otlptracehttp.New(context.Background(), otlptracehttp.WithEndpointURL(dead+"/v1/traces"))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	got, want := ours.ExportSpans(context.Background(), spans), theirs.ExportSpans(context.Background(), Snapshots(spans))
	if got == nil || want == nil || got.Error() != want.Error() {
		t.Errorf("error %v, the SDK exporter's %v", got, want)
	}
	if !strings.Contains(got.Error(), "connection refused") || time.Since(start) > 5*time.Second {
		t.Errorf("error %v after %v", got, time.Since(start))
	}

	// The log line serve writes (LogTo) for a failed export.
	var buf lockedBuffer
	defer LogTo(slog.New(slog.NewJSONHandler(&buf, nil)))()
	b := NewBatcher(ours, BatchOptions{Delay: time.Hour})
	tp := NewProvider(b, ProviderOptions{})
	_, s := tp.API().Tracer("t").Start(context.Background(), "lost")
	s.End()
	if err := tp.Shutdown(context.Background()); err == nil || err.Error() != got.Error() {
		t.Errorf("shutdown: %v", err)
	}
	line := buf.String()
	if !strings.Contains(line, `"level":"WARN","msg":"exporting traces","error":"traces export: Post \"`+dead+`/v1/traces\": dial tcp`) {
		t.Errorf("log: %s", line)
	}
}

// TestOTLPShutdownFlushes: spans still batched are sent by Shutdown.
func TestOTLPShutdownFlushes(t *testing.T) {
	col := newCollector(t)
	env := map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": col.URL + "/custom/path", "OTEL_BSP_SCHEDULE_DELAY": "3600000"}
	p, err := Start(context.Background(), func(k string) string { return env[k] }, Settings{Version: "9.9"})
	if err != nil {
		t.Fatal(err)
	}
	_, s := p.API().Tracer("t").Start(context.Background(), "last")
	s.End()
	if n := len(col.got(t)); n != 0 {
		t.Fatalf("%d requests before the shutdown", n)
	}
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := col.got(t)
	if len(got) != 1 {
		t.Fatalf("%d requests", len(got))
	}
	rs := got[0].request.ResourceSpans[0]
	if rs.ScopeSpans[0].Spans[0].Name != "last" {
		t.Errorf("sent %s", prototext.Format(rs))
	}
	var version string
	for _, kv := range rs.Resource.Attributes {
		if kv.Key == "service.version" {
			version = kv.Value.GetStringValue()
		}
	}
	if version != "9.9" {
		t.Errorf("service.version %q", version)
	}
}

// TestOTLPConfig: where spans go and how, from the variables.
func TestOTLPConfig(t *testing.T) {
	for _, c := range []struct {
		name  string
		env   map[string]string
		url   string
		error string
	}{
		{name: "default", url: "http://localhost:4318/v1/traces"},
		{name: "endpoint", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}, url: "http://collector:4318/v1/traces"},
		{name: "endpoint path", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "https://collector/otlp/"}, url: "https://collector/otlp/v1/traces"},
		{name: "traces endpoint as is", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://a:1", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "https://b:2/spans"}, url: "https://b:2/spans"},
		{name: "traces endpoint no path", env: map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://b:2"}, url: "http://b:2/"},
		{name: "insecure", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "https://c:4318", "OTEL_EXPORTER_OTLP_INSECURE": "true"}, url: "http://c:4318/v1/traces"},
		{name: "traces insecure wins", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_EXPORTER_OTLP_INSECURE": "true", "OTEL_EXPORTER_OTLP_TRACES_INSECURE": "false"}, url: "https://c:4318/v1/traces"},
		{name: "bad endpoint", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "collector:4318"}, error: `OTEL_EXPORTER_OTLP_ENDPOINT="collector:4318"`},
		{name: "bad timeout", env: map[string]string{"OTEL_EXPORTER_OTLP_TRACES_TIMEOUT": "5s"}, error: `OTEL_EXPORTER_OTLP_TRACES_TIMEOUT="5s": write a whole number of milliseconds`},
		{name: "bad compression", env: map[string]string{"OTEL_EXPORTER_OTLP_COMPRESSION": "zstd"}, error: `OTEL_EXPORTER_OTLP_COMPRESSION="zstd" is not supported`},
		{name: "bad header", env: map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "a=1,b"}, error: `OTEL_EXPORTER_OTLP_HEADERS: "b" is not a header`},
		{name: "missing certificate", env: map[string]string{"OTEL_EXPORTER_OTLP_CERTIFICATE": "/nonexistent/ca.pem"}, error: "OTEL_EXPORTER_OTLP_CERTIFICATE: open /nonexistent/ca.pem"},
		{name: "key without certificate", env: map[string]string{"OTEL_EXPORTER_OTLP_CLIENT_KEY": "/k.pem"}, error: "set both or neither"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := otlpConfigFrom(func(k string) string { return c.env[k] }, "v")
			switch {
			case c.error != "":
				if err == nil || !strings.Contains(err.Error(), c.error) {
					t.Errorf("error %v, want one with %q", err, c.error)
				}
			case err != nil:
				t.Error(err)
			case cfg.url != c.url:
				t.Errorf("url %q, want %q", cfg.url, c.url)
			}
		})
	}
	cfg, err := otlpConfigFrom(func(k string) string {
		return map[string]string{"OTEL_EXPORTER_OTLP_TIMEOUT": "2500", "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT": "750"}[k]
	}, "v")
	if err != nil || cfg.timeout != 750*time.Millisecond {
		t.Errorf("timeout %v, %v", cfg.timeout, err)
	}
}

// lockedBuffer is a bytes.Buffer that the batcher's goroutine and the
// test may use at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestOTLPTLS: an https endpoint is verified against
// OTEL_EXPORTER_OTLP_CERTIFICATE, else the system's roots; a
// certificate with an http endpoint stops the start.
func TestOTLPTLS(t *testing.T) {
	col := startCollector(t, true)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: col.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	spans := sampleSpans(t)[:1]
	if err := exporterFor(t, col, map[string]string{"OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE": ca}).ExportSpans(context.Background(), spans); err != nil {
		t.Fatal(err)
	}
	if n := len(col.got(t)); n != 1 {
		t.Fatalf("%d requests", n)
	}
	err := exporterFor(t, col, nil).ExportSpans(context.Background(), spans)
	if err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("without the certificate: %v", err)
	}
	_, err = newOTLPExporter(func(k string) string {
		return map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_EXPORTER_OTLP_CERTIFICATE": ca}[k]
	}, "test")
	if err == nil || err.Error() != "traces: the OTLP exporter: insecure HTTP endpoint cannot use TLS client configuration" {
		t.Errorf("http with a certificate: %v", err)
	}
}
