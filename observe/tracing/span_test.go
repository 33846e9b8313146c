package tracing

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// recordingProvider is a provider whose ended spans a Recorder keeps.
func recordingProvider(sampler Sampler) (*Provider, *Recorder) {
	rec := &Recorder{}
	return NewProvider(rec, ProviderOptions{Sampler: sampler}), rec
}

// TestSpanRecordsAsTheAPISays: attributes of one key keep the last value,
// an attribute without a key is left out, the count past the limit is
// kept, status Error is kept over Unset and Ok over Error, and nothing
// changes an ended span, which reaches the processor once.
func TestSpanRecordsAsTheAPISays(t *testing.T) {
	p, rec := recordingProvider(nil)
	_, s := p.API().Tracer("t").Start(context.Background(), "one", trace.WithAttributes(attribute.String("a", "1")))
	s.SetAttributes(attribute.String("b", "2"), attribute.String("a", "3"), attribute.KeyValue{}, attribute.String("b", "4"))
	s.SetStatus(codes.Error, "broken")
	s.SetStatus(codes.Unset, "ignored")
	s.SetName("renamed")
	if !s.IsRecording() {
		t.Fatal("a started span does not record")
	}
	s.End()
	s.End()
	s.SetAttributes(attribute.String("late", "x"))
	s.SetStatus(codes.Ok, "")
	s.AddEvent("late")
	if got := len(rec.Ended()); got != 1 {
		t.Fatalf("the processor got %d spans, want 1", got)
	}
	got := rec.Ended()[0]
	if s.IsRecording() || got.Name() != "renamed" || got.EndTime().IsZero() || got.EndTime().Before(got.StartTime()) {
		t.Errorf("span %q recording %v, %v to %v", got.Name(), s.IsRecording(), got.StartTime(), got.EndTime())
	}
	if want := "a=3 b=4"; attrText(got.Attributes()) != want {
		t.Errorf("attributes %s, want %s", attrText(got.Attributes()), want)
	}
	if got.Status() != (Status{Code: codes.Error, Description: "broken"}) || len(got.Events()) != 0 {
		t.Errorf("status %+v, events %v", got.Status(), got.Events())
	}

	_, s = p.API().Tracer("t").Start(context.Background(), "ok")
	s.SetStatus(codes.Ok, "no description for ok")
	s.SetStatus(codes.Error, "too late")
	for i := range maxSpanAttributes + 3 {
		s.SetAttributes(attribute.Int(fmt.Sprint("k", i), i))
	}
	s.SetAttributes(attribute.Int("k0", -1)) // a key already there is set, even at the limit
	s.RecordError(errors.New("boom"))
	s.End()
	got = rec.Ended()[1]
	if got.Status() != (Status{Code: codes.Ok}) || len(got.Attributes()) != maxSpanAttributes || got.DroppedAttributes() != 3 || got.Attributes()[0].Value.AsInt64() != -1 {
		t.Errorf("status %+v, %d attributes (%d dropped), first %v", got.Status(), len(got.Attributes()), got.DroppedAttributes(), got.Attributes()[0])
	}
	if ev := got.Events(); len(ev) != 1 || ev[0].Name != "exception" || attrText(ev[0].Attributes) != "exception.type=*errors.errorString exception.message=boom" {
		t.Errorf("events %+v", ev)
	}
}

func attrText(kvs []attribute.KeyValue) string {
	var parts []string
	for _, kv := range kvs {
		parts = append(parts, string(kv.Key)+"="+kv.Value.Emit())
	}
	return strings.Join(parts, " ")
}

// TestSpanParents: a child keeps its parent's trace and trace state and
// names its parent; a new root starts a trace; a span that is not
// sampled still carries the trace on (its own span id, not sampled)
// and reaches no processor.
func TestSpanParents(t *testing.T) {
	p, rec := recordingProvider(nil)
	tr := p.API().Tracer("t")
	ts, _ := trace.ParseTraceState("vendor=1")
	remote := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1}, SpanID: trace.SpanID{2},
		TraceFlags: trace.FlagsSampled, TraceState: ts, Remote: true})
	ctx, call := tr.Start(trace.ContextWithRemoteSpanContext(context.Background(), remote), "call")
	_, backend := tr.Start(ctx, "backend")
	_, root := tr.Start(ctx, "root", trace.WithNewRoot())
	for _, s := range []trace.Span{backend, root, call} {
		s.End()
	}
	spans := rec.Ended()
	b, r, c := spans[0], spans[1], spans[2]
	switch {
	case c.SpanContext().TraceID() != remote.TraceID() || !c.Parent().Equal(remote) || c.SpanContext().TraceState().String() != "vendor=1":
		t.Errorf("call %v, parent %v", c.SpanContext(), c.Parent())
	case !b.Parent().Equal(c.SpanContext()) || b.Parent().IsRemote() || b.SpanContext().TraceID() != remote.TraceID():
		t.Errorf("backend's parent %v, want the call %v", b.Parent(), c.SpanContext())
	case r.Parent().IsValid() || r.SpanContext().TraceID() == remote.TraceID() || !r.SpanContext().IsSampled():
		t.Errorf("new root %v, parent %v", r.SpanContext(), r.Parent())
	case c.SpanKind() != trace.SpanKindInternal:
		t.Errorf("kind %v, want internal when none is given", c.SpanKind())
	}

	// Not sampled: the parent said so.
	rec.Reset()
	unsampled := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{3}, SpanID: trace.SpanID{4}, Remote: true})
	ctx, s := tr.Start(trace.ContextWithRemoteSpanContext(context.Background(), unsampled), "dropped")
	sc := trace.SpanContextFromContext(ctx)
	s.SetAttributes(attribute.String("a", "b"))
	s.End()
	if s.IsRecording() || sc.TraceID() != unsampled.TraceID() || sc.SpanID() == unsampled.SpanID() || !sc.SpanID().IsValid() || sc.IsSampled() {
		t.Errorf("unsampled child %v of %v, recording %v", sc, unsampled, s.IsRecording())
	}
	if n := len(rec.Ended()); n != 0 {
		t.Errorf("%d unsampled spans reached the processor", n)
	}
}

// TestSamplersDecideAsTheSDKs: each sampler serve offers decides as the
// OpenTelemetry SDK's of the same name, for parents sampled and not,
// remote and local, and none; trace id ratio with the same trace ids
// (services sampling at one ratio keep the same traces).
func TestSamplersDecideAsTheSDKs(t *testing.T) {
	for _, name := range []string{"always_on", "always_off", "parentbased_always_on", "parentbased_always_off", "traceidratio", "parentbased_traceidratio"} {
		for _, ratio := range []string{"0", "0.001", "0.25", "0.5", "0.999", "1"} {
			if !strings.Contains(name, "ratio") && ratio != "0.5" {
				continue
			}
			env := map[string]string{"OTEL_TRACES_SAMPLER": name, "OTEL_TRACES_SAMPLER_ARG": ratio}
			ours, err := samplerFrom(func(k string) string { return env[k] })
			if err != nil {
				t.Fatal(err)
			}
			theirs := sdkSampler(t, name, ratio)
			rng := rand.New(rand.NewPCG(1, 2))
			differ := 0
			for i := range 20000 {
				var id trace.TraceID
				binary.BigEndian.PutUint64(id[:8], rng.Uint64())
				binary.BigEndian.PutUint64(id[8:], rng.Uint64())
				var parent trace.SpanContext
				if i%4 != 0 {
					parent = trace.NewSpanContext(trace.SpanContextConfig{TraceID: id, SpanID: trace.SpanID{1},
						TraceFlags: trace.TraceFlags(i % 2), Remote: i%3 == 0})
				}
				want := theirs.ShouldSample(sdktrace.SamplingParameters{
					ParentContext: trace.ContextWithSpanContext(context.Background(), parent), TraceID: id, Name: "x",
				}).Decision == sdktrace.RecordAndSample
				if ours(parent, id) != want {
					differ++
				}
			}
			if differ > 0 {
				t.Errorf("%s %s: %d of 20000 decisions differ from the SDK's", name, ratio, differ)
			}
		}
	}
}

func sdkSampler(t *testing.T, name, ratio string) sdktrace.Sampler {
	var r float64
	if _, err := fmt.Sscan(ratio, &r); err != nil {
		t.Fatal(err)
	}
	switch name {
	case "always_on":
		return sdktrace.AlwaysSample()
	case "always_off":
		return sdktrace.NeverSample()
	case "parentbased_always_on":
		return sdktrace.ParentBased(sdktrace.AlwaysSample())
	case "parentbased_always_off":
		return sdktrace.ParentBased(sdktrace.NeverSample())
	case "traceidratio":
		return sdktrace.TraceIDRatioBased(r)
	}
	return sdktrace.ParentBased(sdktrace.TraceIDRatioBased(r))
}

// TestSpanSharedAcrossGoroutines: a span set from many goroutines while
// it ends reaches the processor once (run with -race).
func TestSpanSharedAcrossGoroutines(t *testing.T) {
	p, rec := recordingProvider(nil)
	for range 20 {
		_, s := p.API().Tracer("t").Start(context.Background(), "shared")
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Go(func() {
				for i := range 50 {
					s.SetAttributes(attribute.Int(fmt.Sprint("g", g), i))
					s.AddEvent("e")
					_ = s.IsRecording()
				}
				s.End(trace.WithTimestamp(time.Now()))
			})
		}
		wg.Wait()
	}
	if n := len(rec.Ended()); n != 20 {
		t.Errorf("%d spans ended, want 20", n)
	}
}

// TestResourceFromEnvironment: serve's resource names mcpdecl, its
// version and this package as the implementation; OTEL_RESOURCE_ATTRIBUTES
// adds percent-decoded values and OTEL_SERVICE_NAME wins over its
// service.name; a pair that is not key=value is an error naming it.
func TestResourceFromEnvironment(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
		err  string
	}{
		{want: "service.name=mcpdecl service.version=1.2 telemetry.sdk.language=go telemetry.sdk.name=github.com/mcpdecl/mcpdecl/observe/tracing telemetry.sdk.version=1.2"},
		{env: map[string]string{"OTEL_RESOURCE_ATTRIBUTES": " deployment.environment.name = prod , team=a%2Cb%3Dc, ,service.name=from-attrs"},
			want: "deployment.environment.name=prod service.name=from-attrs service.version=1.2 team=a,b=c"},
		{env: map[string]string{"OTEL_RESOURCE_ATTRIBUTES": "service.name=from-attrs", "OTEL_SERVICE_NAME": "orders-mcp"},
			want: "service.name=orders-mcp service.version=1.2"},
		{env: map[string]string{"OTEL_RESOURCE_ATTRIBUTES": "a=1,justakey"}, err: `OTEL_RESOURCE_ATTRIBUTES: "justakey" is not key=value`},
		{env: map[string]string{"OTEL_RESOURCE_ATTRIBUTES": "a=%zz"}, err: "the value of a"},
	} {
		res, err := resourceFrom(func(k string) string { return c.env[k] }, "1.2")
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: error %v, want %q", c.env, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got := attrText(res.Attributes())
		for _, kv := range strings.Fields(c.want) {
			if !strings.Contains(" "+got+" ", " "+kv+" ") {
				t.Errorf("%v: resource %s lacks %s", c.env, got, kv)
			}
		}
	}
}
