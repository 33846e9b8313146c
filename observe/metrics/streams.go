package metrics

import "github.com/prometheus/client_golang/prometheus"

// The kinds of what clients hold open, as the protocol layer names them.
const (
	openSession   = "session"
	openGetStream = "get_stream"
	openListen    = "listen"
)

// openMetrics count what clients hold open on this replica.
type openMetrics struct {
	sessions prometheus.Gauge
	streams  *prometheus.GaugeVec
}

func newOpenMetrics() *openMetrics {
	m := &openMetrics{
		sessions: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "mcpdecl_sessions_open",
			Help: "Stateful 2025 sessions held over HTTP (--legacy-sessions); signed sessions hold nothing and are not counted.",
		}),
		streams: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "mcpdecl_streams_open",
			Help: "Push streams open, by kind: get (a 2025 session's GET stream), listen (a 2026-07-28 subscriptions/listen stream).",
		}, []string{"kind"}),
	}
	m.streams.WithLabelValues("get")
	m.streams.WithLabelValues("listen")
	return m
}

func (m *openMetrics) collectors() []prometheus.Collector {
	return []prometheus.Collector{m.sessions, m.streams}
}

// Opened records that a session or stream of kind (the protocol layer's
// session, get_stream or listen) began (delta 1) or ended (-1); another
// kind is not counted.
func (r *Registry) Opened(kind string, delta int) {
	m := r.open
	switch kind {
	case openSession:
		m.sessions.Add(float64(delta))
	case openGetStream:
		m.streams.WithLabelValues("get").Add(float64(delta))
	case openListen:
		m.streams.WithLabelValues("listen").Add(float64(delta))
	}
}
