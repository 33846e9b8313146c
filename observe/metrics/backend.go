package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/mcpdecl/mcpdecl/internal/memo"
)

// BackendCalls counts the calls the served configuration makes to its
// backends (an HTTP request with its retries, an SQL statement, a
// command), by backend and kind, with their latency.
type BackendCalls struct {
	calls   *prometheus.CounterVec
	latency *prometheus.HistogramVec
	counts  *memo.Memo[labels3, prometheus.Counter]
	times   *memo.Memo[labels2, prometheus.Observer]
}

// BackendCalls registers the backend-call metrics in r and returns them;
// call it once per Registry.
func (r *Registry) BackendCalls() *BackendCalls {
	b := &BackendCalls{
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mcpdecl_backend_calls_total",
			Help: "Calls to backends by configured backend name (empty for a command without one), kind (http, sql, shell) and outcome (ok, failure, error, timeout, cancelled).",
		}, []string{"backend", "kind", "outcome"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "mcpdecl_backend_call_duration_seconds",
			Help:    "Time of one backend call (retries included), by configured backend name and kind.",
			Buckets: latencyBuckets,
		}, []string{"backend", "kind"}),
	}
	r.reg.MustRegister(b.calls, b.latency)
	b.counts = memo.New(func(k labels3) prometheus.Counter { return b.calls.WithLabelValues(k.a, k.b, k.c) })
	b.times = memo.New(func(k labels2) prometheus.Observer { return b.latency.WithLabelValues(k.a, k.b) })
	return b
}

// Ended records a backend call of kind to backend: how it ended and how
// long it took.
func (b *BackendCalls) Ended(backend, kind, outcome string, took time.Duration) {
	b.counts.Get(labels3{backend, kind, outcome}).Inc()
	b.times.Get(labels2{backend, kind}).Observe(took.Seconds())
}
