package tracing

import (
	"fmt"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/embedded"
)

// Span is a sampled span: made by a Provider, recorded until it ends,
// then handed to the provider's Processor, which may read it from then
// on without locking (nothing changes an ended span).
//
// mcpdecl makes its own spans rather than the OpenTelemetry SDK's: a
// call makes two (the call's, its backend call's) and the SDK's cost
// about 4-5 µs of CPU each, in options, a copy of the attributes at
// Start, a map to drop duplicate keys and a snapshot at End. A Span is
// one allocation with room for its attributes, written in place. It
// implements trace.Span, so the OpenTelemetry API (the context, the
// propagator, instrumented libraries) sees it as any other.
type Span struct {
	embedded.Span

	provider *Provider
	sc       trace.SpanContext
	parent   trace.SpanContext
	name     string
	kind     trace.SpanKind
	start    time.Time

	mu           sync.Mutex // over what follows: a span may be shared
	end          time.Time  // zero until End
	attrs        []attribute.KeyValue
	droppedAttrs int
	status       Status
	links        []trace.Link
	events       []Event
	droppedEvent int
	room         [12]attribute.KeyValue // attrs' first backing array: a server or backend span's all fit
}

// Status is a span's status.
type Status struct {
	Code        codes.Code
	Description string // only for codes.Error
}

// Event is something that happened during a span (an error recorded).
type Event struct {
	Name       string
	Time       time.Time
	Attributes []attribute.KeyValue
}

// The most attributes and events one span records, as the SDK's default
// limits; more are counted as dropped.
const (
	maxSpanAttributes = 128
	maxSpanEvents     = 128
)

var _ trace.Span = (*Span)(nil)

// The span as it is exported: read only after End.

// Name is the span's name.
func (s *Span) Name() string { return s.name }

// SpanContext implements trace.Span.
func (s *Span) SpanContext() trace.SpanContext { return s.sc }

// Parent is the parent's span context: invalid for a root span.
func (s *Span) Parent() trace.SpanContext { return s.parent }

// SpanKind is the span's kind.
func (s *Span) SpanKind() trace.SpanKind { return s.kind }

// StartTime is when the span started.
func (s *Span) StartTime() time.Time { return s.start }

// EndTime is when it ended, zero before.
func (s *Span) EndTime() time.Time { return s.end }

// Attributes are the span's attributes, each key once.
func (s *Span) Attributes() []attribute.KeyValue { return s.attrs }

// DroppedAttributes counts the attributes past the limit.
func (s *Span) DroppedAttributes() int { return s.droppedAttrs }

// Links are the spans this one is linked to.
func (s *Span) Links() []trace.Link { return s.links }

// Events are the span's events.
func (s *Span) Events() []Event { return s.events }

// DroppedEvents counts the events past the limit.
func (s *Span) DroppedEvents() int { return s.droppedEvent }

// Status is the span's status.
func (s *Span) Status() Status { return s.status }

// The span as it is recorded: trace.Span's methods, safe for concurrent
// use, each a no-op once the span has ended.

// IsRecording implements trace.Span: true until End.
func (s *Span) IsRecording() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.end.IsZero()
}

// SetAttributes implements trace.Span: a key already set gets the new
// value; an attribute without a key is left out.
func (s *Span) SetAttributes(kvs ...attribute.KeyValue) {
	s.mu.Lock()
	if s.end.IsZero() {
		s.setAttributes(kvs)
	}
	s.mu.Unlock()
}

// setAttributes is SetAttributes with s.mu held.
func (s *Span) setAttributes(kvs []attribute.KeyValue) {
next:
	for _, kv := range kvs {
		if !kv.Valid() {
			continue
		}
		for i := range s.attrs {
			if s.attrs[i].Key == kv.Key {
				s.attrs[i] = kv
				continue next
			}
		}
		if len(s.attrs) >= maxSpanAttributes {
			s.droppedAttrs++
			continue
		}
		s.attrs = append(s.attrs, kv)
	}
}

// SetStatus implements trace.Span: Error over Unset, Ok over both (and
// final); a description is kept for Error only.
func (s *Span) SetStatus(code codes.Code, description string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.end.IsZero() || s.status.Code > code {
		return
	}
	s.status = Status{Code: code}
	if code == codes.Error {
		s.status.Description = description
	}
}

// SetName implements trace.Span.
func (s *Span) SetName(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.end.IsZero() {
		s.name = name
	}
}

// AddLink implements trace.Span; a link to an invalid span context is
// left out.
func (s *Span) AddLink(l trace.Link) {
	if !l.SpanContext.IsValid() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.end.IsZero() {
		s.links = append(s.links, l)
	}
}

// AddEvent implements trace.Span.
func (s *Span) AddEvent(name string, opts ...trace.EventOption) {
	cfg := trace.NewEventConfig(opts...)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.end.IsZero() {
		return
	}
	if len(s.events) >= maxSpanEvents {
		s.droppedEvent++
		return
	}
	s.events = append(s.events, Event{Name: name, Time: cfg.Timestamp(), Attributes: cfg.Attributes()})
}

// RecordError implements trace.Span: an "exception" event with the
// error's type and message (the OpenTelemetry conventions; no stack).
func (s *Span) RecordError(err error, opts ...trace.EventOption) {
	if err == nil {
		return
	}
	opts = append(opts, trace.WithAttributes(
		attribute.String("exception.type", fmt.Sprintf("%T", err)),
		attribute.String("exception.message", err.Error())))
	s.AddEvent("exception", opts...)
}

// End implements trace.Span: the span is handed to its provider's
// processor, once.
func (s *Span) End(opts ...trace.SpanEndOption) {
	now := time.Now()
	if len(opts) > 0 {
		cfg := trace.NewSpanEndConfig(opts...)
		if ts := cfg.Timestamp(); !ts.IsZero() {
			now = ts
		}
	}
	s.mu.Lock()
	if !s.end.IsZero() {
		s.mu.Unlock()
		return
	}
	s.end = now
	s.mu.Unlock()
	s.provider.proc.OnEnd(s)
}

// TracerProvider implements trace.Span: a provider making spans of the
// same pipeline.
func (s *Span) TracerProvider() trace.TracerProvider { return s.provider.API() }
