package tracing

import (
	"context"
	"sync"
)

// Recorder is a Processor that keeps every span it is given, in the
// order they ended: for tests, which read spans as soon as a call has
// answered.
type Recorder struct {
	mu    sync.Mutex
	spans []*Span
}

var _ Processor = (*Recorder)(nil)

// OnEnd implements Processor.
func (r *Recorder) OnEnd(s *Span) {
	r.mu.Lock()
	r.spans = append(r.spans, s)
	r.mu.Unlock()
}

// Ended returns the spans ended so far.
func (r *Recorder) Ended() []*Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*Span(nil), r.spans...)
}

// Reset forgets the spans ended so far.
func (r *Recorder) Reset() {
	r.mu.Lock()
	r.spans = nil
	r.mu.Unlock()
}

// Shutdown implements Processor.
func (*Recorder) Shutdown(context.Context) error { return nil }
