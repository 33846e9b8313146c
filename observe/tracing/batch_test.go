package tracing

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// exports records what a Batcher exports, batch by batch; while gate is
// set, an export waits for it to close.
type exports struct {
	mu       sync.Mutex
	batches  [][]string
	shutdown int
	gate     chan struct{}
	calls    chan int // the size of each export, as it starts
	active   int      // exports running now
	overlap  bool     // two exports ran at once
}

func newExports() *exports { return &exports{calls: make(chan int, 100)} }

func (e *exports) ExportSpans(ctx context.Context, spans []*Span) error {
	e.mu.Lock()
	e.active++
	e.overlap = e.overlap || e.active > 1
	gate := e.gate
	e.mu.Unlock()
	defer func() { e.mu.Lock(); e.active--; e.mu.Unlock() }()
	select {
	case e.calls <- len(spans):
	default: // nobody watches
	}
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	names := make([]string, len(spans))
	for i, s := range spans {
		names[i] = s.Name()
	}
	e.mu.Lock()
	e.batches = append(e.batches, names)
	e.mu.Unlock()
	return nil
}

func (e *exports) Shutdown(context.Context) error {
	e.mu.Lock()
	e.shutdown++
	e.mu.Unlock()
	return nil
}

func (e *exports) got() (batches [][]string, shutdown int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([][]string(nil), e.batches...), e.shutdown
}

func (e *exports) spans() []string {
	var all []string
	batches, _ := e.got()
	for _, b := range batches {
		all = append(all, b...)
	}
	return all
}

// batched makes a provider whose spans go through a Batcher to exp.
func batched(t *testing.T, exp Exporter, opts BatchOptions, sampler Sampler) (*Provider, *Batcher) {
	t.Helper()
	b := NewBatcher(exp, opts)
	p := NewProvider(b, ProviderOptions{Sampler: sampler})
	t.Cleanup(func() { _ = p.Shutdown(context.Background()) })
	return p, b
}

func endSpans(p *Provider, from, to int) {
	tr := p.API().Tracer("test")
	for i := from; i < to; i++ {
		_, s := tr.Start(context.Background(), fmt.Sprint("s", i))
		s.End()
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestBatcherFullBatches: with a delay too long to matter, spans leave in
// batches of MaxBatch as soon as one is full, in the order they ended;
// the rest wait until a flush.
func TestBatcherFullBatches(t *testing.T) {
	exp := newExports()
	tp, b := batched(t, exp, BatchOptions{Delay: time.Hour, MaxBatch: 4}, AlwaysOn)
	endSpans(tp, 0, 10)
	waitFor(t, "two batches", func() bool { batches, _ := exp.got(); return len(batches) == 2 })
	batches, _ := exp.got()
	if fmt.Sprint(batches) != "[[s0 s1 s2 s3] [s4 s5 s6 s7]]" {
		t.Errorf("batches %v", batches)
	}
	if err := b.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	batches, _ = exp.got()
	if fmt.Sprint(batches) != "[[s0 s1 s2 s3] [s4 s5 s6 s7] [s8 s9]]" {
		t.Errorf("after the flush, batches %v", batches)
	}
}

// TestBatcherDelay: a span that fills no batch is exported once the delay
// has passed, without a flush.
func TestBatcherDelay(t *testing.T) {
	exp := newExports()
	tp, _ := batched(t, exp, BatchOptions{Delay: 20 * time.Millisecond}, AlwaysOn)
	endSpans(tp, 0, 1)
	waitFor(t, "the span", func() bool { return len(exp.spans()) == 1 })
}

// TestBatcherShutdown: Shutdown exports what waits and shuts the exporter
// down once; spans ended after it are not exported.
func TestBatcherShutdown(t *testing.T) {
	exp := newExports()
	tp, b := batched(t, exp, BatchOptions{Delay: time.Hour}, AlwaysOn)
	endSpans(tp, 0, 3)
	if err := b.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	endSpans(tp, 3, 5)
	if err := b.Shutdown(context.Background()); err != nil {
		t.Errorf("second Shutdown: %v", err)
	}
	if err := b.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got, shutdown := exp.spans(), exp.shutdown; fmt.Sprint(got) != "[s0 s1 s2]" || shutdown != 1 {
		t.Errorf("exported %v, exporter shut down %d times", got, shutdown)
	}
}

// TestBatcherDropsWhenFull: while the exporter is stuck, no more than
// MaxQueue spans wait; the rest are dropped, and the drop is reported.
func TestBatcherDropsWhenFull(t *testing.T) {
	exp := newExports()
	exp.gate = make(chan struct{})
	var reported []error
	var mu sync.Mutex
	onError := func(err error) { mu.Lock(); reported = append(reported, err); mu.Unlock() }
	tp, b := batched(t, exp, BatchOptions{Delay: time.Hour, MaxBatch: 2, MaxQueue: 4, OnError: onError}, AlwaysOn)
	endSpans(tp, 0, 2) // a full batch: the exporter takes it and waits
	if n := <-exp.calls; n != 2 {
		t.Fatalf("first export of %d spans", n)
	}
	endSpans(tp, 2, 10) // 4 wait, 4 are dropped
	close(exp.gate)
	if err := b.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := exp.spans(); fmt.Sprint(got) != "[s0 s1 s2 s3 s4 s5]" {
		t.Errorf("exported %v", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reported) != 1 || reported[0].Error() != "4 spans dropped: more than 4 waited for export (OTEL_BSP_MAX_QUEUE_SIZE)" {
		t.Errorf("reported %v", reported)
	}
}

// TestBatcherExportTimeout: an export that outlasts ExportTimeout is
// cancelled, and the error reaches ForceFlush.
func TestBatcherExportTimeout(t *testing.T) {
	exp := newExports()
	exp.gate = make(chan struct{}) // never opens
	tp, b := batched(t, exp, BatchOptions{Delay: time.Hour, ExportTimeout: 20 * time.Millisecond, OnError: func(error) {}}, AlwaysOn)
	endSpans(tp, 0, 1)
	if err := b.ForceFlush(context.Background()); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("ForceFlush: %v", err)
	}
}

// TestBatcherSkipsUnsampled: spans the sampler does not keep are not
// exported.
func TestBatcherSkipsUnsampled(t *testing.T) {
	exp := newExports()
	tp, b := batched(t, exp, BatchOptions{}, AlwaysOff)
	endSpans(tp, 0, 3)
	if err := b.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := exp.spans(); len(got) != 0 {
		t.Errorf("exported %v", got)
	}
}

// TestBatcherConcurrent: spans ended from many goroutines at once are all
// exported, exactly once, and never by two exports at a time (run with
// -race).
func TestBatcherConcurrent(t *testing.T) {
	exp := &memoryExporter{}
	counting := newExports()
	tp, b := batched(t, teeExporter{exp, counting}, BatchOptions{Delay: time.Millisecond, MaxBatch: 7}, AlwaysOn)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() { endSpans(tp, g*100, g*100+100) })
	}
	wg.Go(func() {
		for range 20 {
			_ = b.ForceFlush(context.Background())
		}
	})
	wg.Wait()
	if err := b.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, s := range exp.stubs() {
		seen[s.Name]++
	}
	if len(seen) != 800 {
		t.Errorf("%d distinct spans exported, want 800", len(seen))
	}
	for name, n := range seen {
		if n != 1 {
			t.Errorf("%s exported %d times", name, n)
		}
	}
	if counting.overlap {
		t.Error("two exports ran at once")
	}
}

type teeExporter struct{ a, b Exporter }

func (t teeExporter) ExportSpans(ctx context.Context, s []*Span) error {
	if err := t.a.ExportSpans(ctx, s); err != nil {
		return err
	}
	return t.b.ExportSpans(ctx, s)
}

func (t teeExporter) Shutdown(ctx context.Context) error { return t.a.Shutdown(ctx) }

func TestBatchOptionsFromEnvironment(t *testing.T) {
	env := map[string]string{"OTEL_BSP_SCHEDULE_DELAY": "250", "OTEL_BSP_EXPORT_TIMEOUT": " 1000 ",
		"OTEL_BSP_MAX_QUEUE_SIZE": "100", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "500"}
	o, err := batchOptionsFrom(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	o = o.withDefaults()
	o.OnError = nil
	want := BatchOptions{Delay: 250 * time.Millisecond, ExportTimeout: time.Second, MaxQueue: 100, MaxBatch: 100}
	if fmt.Sprintf("%+v", o) != fmt.Sprintf("%+v", want) {
		t.Errorf("options %+v, want %+v (a batch no larger than the queue)", o, want)
	}
	o, _ = batchOptionsFrom(func(string) string { return "" })
	o = o.withDefaults()
	o.OnError = nil
	if fmt.Sprintf("%+v", o) != fmt.Sprintf("%+v", BatchOptions{Delay: 5 * time.Second, ExportTimeout: 30 * time.Second, MaxQueue: 2048, MaxBatch: 512}) {
		t.Errorf("defaults %+v", o)
	}
	for _, bad := range []string{"-1", "0", "5s", "1e3"} {
		_, err := batchOptionsFrom(func(k string) string {
			if k == "OTEL_BSP_SCHEDULE_DELAY" {
				return bad
			}
			return ""
		})
		if err == nil || err.Error() != fmt.Sprintf("traces: OTEL_BSP_SCHEDULE_DELAY=%q: write a positive whole number", bad) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
