package tracing

import (
	"context"
	"sync"

	otelscope "go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// The tests read spans as the OpenTelemetry SDK's test package shows
// them (tracetest.SpanStub), and hand them to the SDK's own OTLP
// exporter as the reference of what goes on the wire.

// Stub is s as the SDK's tests show a span.
func Stub(s *Span) tracetest.SpanStub {
	events := make([]sdktrace.Event, len(s.events))
	for i, e := range s.events {
		events[i] = sdktrace.Event{Name: e.Name, Time: e.Time, Attributes: e.Attributes}
	}
	links := make([]sdktrace.Link, len(s.links))
	for i, l := range s.links {
		links[i] = sdktrace.Link{SpanContext: l.SpanContext, Attributes: l.Attributes}
	}
	return tracetest.SpanStub{
		Name: s.name, SpanContext: s.sc, Parent: s.parent, SpanKind: s.kind,
		StartTime: s.start, EndTime: s.end,
		Attributes: s.attrs, DroppedAttributes: s.droppedAttrs,
		Events: events, DroppedEvents: s.droppedEvent, Links: links,
		Status:               sdktrace.Status{Code: s.status.Code, Description: s.status.Description},
		Resource:             resource.NewWithAttributes(s.provider.res.schemaURL, s.provider.res.Attributes()...),
		InstrumentationScope: otelscope.Scope{Name: instrumentation},
	}
}

// Stubs is spans as stubs.
func Stubs(spans []*Span) tracetest.SpanStubs {
	out := make(tracetest.SpanStubs, len(spans))
	for i, s := range spans {
		out[i] = Stub(s)
	}
	return out
}

// Snapshots is spans as the SDK's exporters take them.
func Snapshots(spans []*Span) []sdktrace.ReadOnlySpan {
	return Stubs(spans).Snapshots()
}

// memoryExporter keeps what it is given.
type memoryExporter struct {
	mu    sync.Mutex
	spans []*Span
}

func (m *memoryExporter) ExportSpans(_ context.Context, spans []*Span) error {
	m.mu.Lock()
	m.spans = append(m.spans, spans...)
	m.mu.Unlock()
	return nil
}

func (m *memoryExporter) Shutdown(context.Context) error { return nil }

func (m *memoryExporter) stubs() tracetest.SpanStubs {
	m.mu.Lock()
	defer m.mu.Unlock()
	return Stubs(m.spans)
}
