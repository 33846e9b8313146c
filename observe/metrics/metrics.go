// Package metrics counts what a served configuration does, in Prometheus
// form: calls by kind, name and outcome with their latency, protocol
// requests by era and method, calls in flight, and configuration reloads.
//
// It keeps its own registry, so a process may hold several (tests do) and
// nothing registered globally by a library leaks into /metrics. Its
// methods take plain strings: the server and the protocol layer report to
// it through small hooks of their own and never import Prometheus. Every
// label value comes from the configuration or from a fixed set chosen by
// the caller, never from a request's arguments or URIs.
package metrics

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/mcpdecl/mcpdecl/internal/memo"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Registry holds the metrics of one served configuration.
type Registry struct {
	reg        *prometheus.Registry
	tasks      *taskMetrics // tasks.go
	open       *openMetrics // streams.go
	limits     *limitMetrics
	calls      *prometheus.CounterVec
	latency    *prometheus.HistogramVec
	inFlight   *prometheus.GaugeVec
	requests   *prometheus.CounterVec
	reloads    *prometheus.CounterVec
	generation prometheus.Gauge
	series     callSeries
}

// callSeries are the series a call counts in, kept by label values: the
// vector's own lookup hashes and checks every label value (UTF-8) on each
// use, which costs more than counting.
type callSeries struct {
	inFlight *memo.Memo[string, prometheus.Gauge]
	calls    *memo.Memo[labels3, prometheus.Counter]
	latency  *memo.Memo[labels2, prometheus.Observer]
	requests *memo.Memo[labels2, prometheus.Counter]
}

// labels2 and labels3 are the label values of a series, in the order
// of the vector's labels.
type (
	labels2 struct{ a, b string }
	labels3 struct{ a, b, c string }
)

func (r *Registry) keepSeries() {
	r.series = callSeries{
		inFlight: memo.New(func(kind string) prometheus.Gauge { return r.inFlight.WithLabelValues(kind) }),
		calls:    memo.New(func(k labels3) prometheus.Counter { return r.calls.WithLabelValues(k.a, k.b, k.c) }),
		latency:  memo.New(func(k labels2) prometheus.Observer { return r.latency.WithLabelValues(k.a, k.b) }),
		requests: memo.New(func(k labels2) prometheus.Counter { return r.requests.WithLabelValues(k.a, k.b) }),
	}
}

// latencyBuckets span a cached lookup (a millisecond) to a long backend
// call (a minute): tools wrap HTTP APIs, databases and commands.
var latencyBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}

// New returns a Registry with every metric registered, the Go runtime's
// and the process's included.
func New() *Registry {
	r := &Registry{
		reg: prometheus.NewRegistry(),
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mcpdecl_calls_total",
			Help: "Calls of tools, resources, prompts and completions by kind, configured name and outcome (ok, tool_error, protocol_error, timeout, cancelled).",
		}, []string{"kind", "name", "outcome"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "mcpdecl_call_duration_seconds",
			Help:    "Time from a call's dispatch to its answer, by kind and configured name.",
			Buckets: latencyBuckets,
		}, []string{"kind", "name"}),
		inFlight: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "mcpdecl_calls_in_flight",
			Help: "Calls running now, by kind.",
		}, []string{"kind"}),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mcpdecl_requests_total",
			Help: "JSON-RPC messages received, by protocol era (modern, legacy) and method (other for methods the server does not know).",
		}, []string{"era", "method"}),
		reloads: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mcpdecl_config_reloads_total",
			Help: "Configuration reloads (SIGHUP) by result (ok, failed).",
		}, []string{"result"}),
		generation: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "mcpdecl_config_generation",
			Help: "The configuration being served: 1 for the one loaded at start, plus one per successful reload.",
		}),
	}
	r.reg.MustRegister(r.calls, r.latency, r.inFlight, r.requests, r.reloads, r.generation,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	r.generation.Set(1)
	r.keepSeries()
	// Both results show from the start, so a rate() of failures exists
	// before the first one.
	r.reloads.WithLabelValues("ok")
	r.reloads.WithLabelValues("failed")
	r.tasks, r.open = newTaskMetrics(), newOpenMetrics()
	r.reg.MustRegister(r.tasks.collectors()...)
	r.reg.MustRegister(r.open.collectors()...)
	r.limits = newLimitMetrics()
	r.reg.MustRegister(r.limits.refused)
	return r
}

// Handler serves the exposition of r (the text format, or protobuf to a
// scraper that asks for it).
func (r *Registry) Handler() http.Handler {
	return promhttp.HandlerFor(r.reg, promhttp.HandlerOpts{})
}

// CallStarted counts a call of kind in flight until CallEnded.
func (r *Registry) CallStarted(kind string) {
	r.series.inFlight.Get(kind).Inc()
}

// CallEnded records a call of kind that CallStarted counted: its outcome
// and how long it took, under the configured name (or "unknown").
func (r *Registry) CallEnded(kind, name, outcome string, took time.Duration) {
	r.series.inFlight.Get(kind).Dec()
	r.series.calls.Get(labels3{kind, name, outcome}).Inc()
	r.series.latency.Get(labels2{kind, name}).Observe(took.Seconds())
}

// Request counts one JSON-RPC message of era and method.
func (r *Registry) Request(era, method string) {
	r.series.requests.Get(labels2{era, method}).Inc()
}

// Reloaded records a reload: on success generation is the configuration
// now served.
func (r *Registry) Reloaded(generation uint64, err error) {
	if err != nil {
		r.reloads.WithLabelValues("failed").Inc()
		return
	}
	r.reloads.WithLabelValues("ok").Inc()
	r.generation.Set(float64(generation))
}
