package tracing

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// BatchOptions size a Batcher; zero fields take the OpenTelemetry
// defaults, which are also those of the OTEL_BSP_* variables.
type BatchOptions struct {
	// Delay is the longest a span waits before it is exported (5 s).
	Delay time.Duration
	// ExportTimeout bounds one export (30 s).
	ExportTimeout time.Duration
	// MaxQueue is how many ended spans may wait; more are dropped (2048).
	MaxQueue int
	// MaxBatch is the most spans one export carries (512), and the count
	// at which waiting spans are exported before their delay.
	MaxBatch int
	// OnError is told of a failed export and of dropped spans; nil is
	// the package's handler, which serve points at its log (LogTo).
	OnError func(error)
}

func (o BatchOptions) withDefaults() BatchOptions {
	if o.Delay <= 0 {
		o.Delay = 5 * time.Second
	}
	if o.ExportTimeout <= 0 {
		o.ExportTimeout = 30 * time.Second
	}
	if o.MaxQueue <= 0 {
		o.MaxQueue = 2048
	}
	if o.MaxBatch <= 0 {
		o.MaxBatch = 512
	}
	if o.OnError == nil {
		o.OnError = reportExportError
	}
	o.MaxBatch = min(o.MaxBatch, o.MaxQueue)
	return o
}

// Batcher is a span processor that exports ended spans in batches, as
// the SDK's BatchSpanProcessor does, without waking its exporting
// goroutine for every span: a span is appended to a queue under a lock,
// and the goroutine is woken only when a batch is full, when the delay
// has passed or on a flush. The SDK's processor hands each span to its
// goroutine through a channel; on a server with an idle core every span
// then wakes a thread, which cost more CPU than making the span.
type Batcher struct {
	exp  Exporter
	opts BatchOptions

	mu      sync.Mutex
	queue   []*Span
	dropped int
	stopped bool

	full     chan struct{} // a batch is waiting (capacity 1)
	stop     chan struct{}
	done     chan struct{}
	exportMu sync.Mutex // exports one at a time: exporters need not be safe for concurrent calls
	stopOnce sync.Once
}

var _ Processor = (*Batcher)(nil)

// NewBatcher starts a Batcher exporting to exp.
func NewBatcher(exp Exporter, opts BatchOptions) *Batcher {
	b := &Batcher{exp: exp, opts: opts.withDefaults(),
		full: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go b.run()
	return b
}

// OnEnd implements Processor: the span is queued, or dropped when the
// queue is full.
func (b *Batcher) OnEnd(s *Span) {
	b.mu.Lock()
	if b.stopped || len(b.queue) >= b.opts.MaxQueue {
		if !b.stopped {
			b.dropped++
		}
		b.mu.Unlock()
		return
	}
	if b.queue == nil {
		b.queue = make([]*Span, 0, b.opts.MaxBatch)
	}
	b.queue = append(b.queue, s)
	wake := len(b.queue) == b.opts.MaxBatch
	b.mu.Unlock()
	if wake {
		select {
		case b.full <- struct{}{}:
		default: // already woken
		}
	}
}

// run exports what waits: a full batch at once, anything else after the
// delay.
func (b *Batcher) run() {
	defer close(b.done)
	timer := time.NewTimer(b.opts.Delay)
	defer timer.Stop()
	for {
		select {
		case <-b.stop:
			return
		case <-b.full:
			b.export(context.Background(), true)
		case <-timer.C:
			b.export(context.Background(), false)
			timer.Reset(b.opts.Delay)
		}
	}
}

// export exports the queue a batch at a time: only full batches when
// fullOnly (the rest waits for the delay, as with the SDK's processor),
// else everything. It reports the spans dropped since the last export,
// and returns the first error.
func (b *Batcher) export(ctx context.Context, fullOnly bool) error {
	b.exportMu.Lock()
	defer b.exportMu.Unlock()
	var first error
	for {
		batch, dropped := b.take(fullOnly)
		if dropped > 0 {
			b.opts.OnError(fmt.Errorf("%d spans dropped: more than %d waited for export (OTEL_BSP_MAX_QUEUE_SIZE)", dropped, b.opts.MaxQueue))
		}
		if len(batch) == 0 {
			return first
		}
		if err := b.exportBatch(ctx, batch); err != nil && first == nil {
			first = err
		}
	}
}

// take removes the next batch from the queue (none when fullOnly and the
// queue holds less than a batch), with the count of spans dropped since
// the last call.
func (b *Batcher) take(fullOnly bool) (batch []*Span, dropped int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	dropped, b.dropped = b.dropped, 0
	n := min(len(b.queue), b.opts.MaxBatch)
	if fullOnly && n < b.opts.MaxBatch {
		return nil, dropped
	}
	batch = b.queue[:n:n]
	if n == len(b.queue) {
		b.queue = nil
	} else {
		b.queue = append(make([]*Span, 0, b.opts.MaxBatch), b.queue[n:]...)
	}
	return batch, dropped
}

func (b *Batcher) exportBatch(ctx context.Context, batch []*Span) error {
	ctx, cancel := context.WithTimeout(ctx, b.opts.ExportTimeout)
	defer cancel()
	err := b.exp.ExportSpans(ctx, batch)
	if err != nil {
		b.opts.OnError(err)
	}
	return err
}

// ForceFlush exports every queued span before it returns; ctx bounds
// the wait.
func (b *Batcher) ForceFlush(ctx context.Context) error {
	return b.withContext(ctx, func() error { return b.export(ctx, false) })
}

// Shutdown implements Processor: spans ended later are
// dropped, the queued ones exported and the exporter shut down; ctx
// bounds the wait. Calls after the first return nil.
func (b *Batcher) Shutdown(ctx context.Context) error {
	err := error(nil)
	b.stopOnce.Do(func() {
		b.mu.Lock()
		b.stopped = true
		b.mu.Unlock()
		close(b.stop)
		err = b.withContext(ctx, func() error {
			<-b.done
			flushErr := b.export(ctx, false)
			if err := b.exp.Shutdown(ctx); err != nil {
				return err
			}
			return flushErr
		})
	})
	return err
}

// withContext runs f, returning early with ctx's error when ctx ends
// first (f goes on in the background).
func (b *Batcher) withContext(ctx context.Context, f func() error) error {
	result := make(chan error, 1)
	go func() { result <- f() }()
	select {
	case err := <-result:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// batchOptionsFrom reads the OTEL_BSP_* variables (times in
// milliseconds). A value that is not a positive whole number is an
// error: a typo should not pass for the default.
func batchOptionsFrom(getenv func(string) string) (BatchOptions, error) {
	var o BatchOptions
	vars := []struct {
		name string
		set  func(int)
	}{
		{"OTEL_BSP_SCHEDULE_DELAY", func(v int) { o.Delay = time.Duration(v) * time.Millisecond }},
		{"OTEL_BSP_EXPORT_TIMEOUT", func(v int) { o.ExportTimeout = time.Duration(v) * time.Millisecond }},
		{"OTEL_BSP_MAX_QUEUE_SIZE", func(v int) { o.MaxQueue = v }},
		{"OTEL_BSP_MAX_EXPORT_BATCH_SIZE", func(v int) { o.MaxBatch = v }},
	}
	for _, v := range vars {
		text := strings.TrimSpace(getenv(v.name))
		if text == "" {
			continue
		}
		n, err := strconv.Atoi(text)
		if err != nil || n <= 0 {
			return BatchOptions{}, fmt.Errorf("traces: %s=%q: write a positive whole number", v.name, text)
		}
		v.set(n)
	}
	return o, nil
}
