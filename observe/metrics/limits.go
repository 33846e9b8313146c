package metrics

import "github.com/prometheus/client_golang/prometheus"

// limitMetrics count the calls the configuration's limit blocks refused.
type limitMetrics struct {
	refused *prometheus.CounterVec
}

func newLimitMetrics() *limitMetrics {
	return &limitMetrics{refused: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "mcpdecl_limit_refusals_total",
		Help: "tools/call refused by a limit block, by tool (its configured name, or unknown) and the limit's scope (caller, tool, server).",
	}, []string{"tool", "scope"})}
}

// LimitRefused counts a call a limit refused (a server.LimitRefusedFunc).
func (r *Registry) LimitRefused(tool, scope string) {
	r.limits.refused.WithLabelValues(tool, scope).Inc()
}
