package tracing

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"time"

	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/embedded"
)

// Processor takes the spans of a Provider as they end.
type Processor interface {
	// OnEnd is given each sampled span once it has ended; it must not
	// block.
	OnEnd(*Span)
	// Shutdown flushes and stops; ctx bounds the wait.
	Shutdown(context.Context) error
}

// Exporter sends ended spans out of the process (OTLP), as a Batcher
// hands them on.
type Exporter interface {
	ExportSpans(context.Context, []*Span) error
	Shutdown(context.Context) error
}

// Sampler decides whether a new span, of the trace traceID and child of
// parent (invalid for a root span), is sampled: recorded and exported.
type Sampler func(parent trace.SpanContext, traceID trace.TraceID) bool

// AlwaysOn samples every span.
func AlwaysOn(trace.SpanContext, trace.TraceID) bool { return true }

// AlwaysOff samples none.
func AlwaysOff(trace.SpanContext, trace.TraceID) bool { return false }

// ParentBased follows a parent's decision, and root's for a root span.
func ParentBased(root Sampler) Sampler {
	return func(parent trace.SpanContext, id trace.TraceID) bool {
		if parent.IsValid() {
			return parent.IsSampled()
		}
		return root(parent, id)
	}
}

// TraceIDRatio samples the share ratio (0 to 1) of traces, deciding by
// the trace id's last 63 bits as every OpenTelemetry SDK does, so that
// services sampling at one ratio keep the same traces.
func TraceIDRatio(ratio float64) Sampler {
	if ratio >= 1 {
		return AlwaysOn
	}
	bound := uint64(max(ratio, 0) * (1 << 63))
	return func(_ trace.SpanContext, id trace.TraceID) bool {
		return binary.BigEndian.Uint64(id[8:])>>1 < bound
	}
}

// Provider makes the spans of one pipeline: it samples them, and hands
// the ended ones to its processor with its resource.
type Provider struct {
	proc    Processor
	sampler Sampler
	res     *Resource
	tracer  *Tracer
}

// ProviderOptions complete a Provider; zero fields take defaults.
type ProviderOptions struct {
	// Sampler is ParentBased(AlwaysOn) when nil.
	Sampler Sampler
	// Resource describes the process; none when nil.
	Resource *Resource
}

// NewProvider returns a Provider handing its spans to proc.
func NewProvider(proc Processor, opts ProviderOptions) *Provider {
	p := &Provider{proc: proc, sampler: opts.Sampler, res: opts.Resource}
	if p.sampler == nil {
		p.sampler = ParentBased(AlwaysOn)
	}
	if p.res == nil {
		p.res = NewResource("")
	}
	p.tracer = newTracer(p)
	return p
}

// Tracer is the provider's server.Tracer and adapter.Observer.
func (p *Provider) Tracer() *Tracer { return p.tracer }

// Shutdown exports the spans still buffered and stops the processor;
// ctx bounds the wait.
func (p *Provider) Shutdown(ctx context.Context) error { return p.proc.Shutdown(ctx) }

// newSpan starts a span, the child of parent when parent is valid. A
// sampled one is a *Span; one that is not is only a span context (nil
// Span), its own span id without the sampled flag, which still carries
// the trace on to backends.
func (p *Provider) newSpan(parent trace.SpanContext, name string, kind trace.SpanKind, start time.Time) (*Span, trace.SpanContext) {
	cfg := trace.SpanContextConfig{SpanID: newSpanID()}
	if parent.IsValid() {
		cfg.TraceID, cfg.TraceState = parent.TraceID(), parent.TraceState()
	} else {
		cfg.TraceID = newTraceID()
	}
	if !p.sampler(parent, cfg.TraceID) {
		return nil, trace.NewSpanContext(cfg)
	}
	cfg.TraceFlags = trace.FlagsSampled
	s := &Span{provider: p, sc: trace.NewSpanContext(cfg), parent: parent, name: name, kind: kind, start: start}
	s.attrs = s.room[:0]
	return s, s.sc
}

// startIn is newSpan with the span put in ctx.
func (p *Provider) startIn(ctx context.Context, parent trace.SpanContext, name string, kind trace.SpanKind) (context.Context, *Span) {
	s, sc := p.newSpan(parent, name, kind, time.Now())
	if s == nil {
		return trace.ContextWithSpanContext(ctx, sc), nil
	}
	return trace.ContextWithSpan(ctx, s), s
}

// newTraceID and newSpanID are random and never all zero (invalid).
// The runtime's generator is fast and seeded per thread from the
// system's; ids need to be unique, not secret.
func newTraceID() (id trace.TraceID) {
	for !id.IsValid() {
		binary.BigEndian.PutUint64(id[:8], rand.Uint64())
		binary.BigEndian.PutUint64(id[8:], rand.Uint64())
	}
	return id
}

func newSpanID() (id trace.SpanID) {
	for !id.IsValid() {
		binary.BigEndian.PutUint64(id[:], rand.Uint64())
	}
	return id
}

// API is the provider as OpenTelemetry's API knows one, for libraries
// instrumented with it.
func (p *Provider) API() trace.TracerProvider { return apiProvider{p: p} }

type apiProvider struct {
	embedded.TracerProvider
	p *Provider
}

// Tracer implements trace.TracerProvider; every span is of mcpdecl's
// instrumentation scope, whatever the name.
func (a apiProvider) Tracer(string, ...trace.TracerOption) trace.Tracer { return apiTracer{p: a.p} }

type apiTracer struct {
	embedded.Tracer
	p *Provider
}

// Start implements trace.Tracer.
func (t apiTracer) Start(ctx context.Context, name string, opts ...trace.SpanStartOption) (context.Context, trace.Span) {
	cfg := trace.NewSpanStartConfig(opts...)
	var parent trace.SpanContext
	if !cfg.NewRoot() {
		parent = trace.SpanContextFromContext(ctx)
	}
	start := cfg.Timestamp()
	if start.IsZero() {
		start = time.Now()
	}
	kind := cfg.SpanKind()
	if kind == trace.SpanKindUnspecified {
		kind = trace.SpanKindInternal
	}
	s, sc := t.p.newSpan(parent, name, kind, start)
	if s == nil {
		ctx = trace.ContextWithSpanContext(ctx, sc)
		return ctx, trace.SpanFromContext(ctx)
	}
	s.setAttributes(cfg.Attributes())
	for _, l := range cfg.Links() {
		s.AddLink(l)
	}
	return trace.ContextWithSpan(ctx, s), s
}
