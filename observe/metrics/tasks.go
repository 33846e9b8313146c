package metrics

import "github.com/prometheus/client_golang/prometheus"

// Task states as the task store names them: running ones, and ends.
var (
	runningTaskStates = []string{"working", "input_required"}
	endedTaskStates   = []string{"completed", "failed", "cancelled"}
)

// taskMetrics count the tasks this replica runs. With a task store shared
// by replicas each counts only the tasks it runs (no scan of the store):
// sum them over the replicas for the whole.
type taskMetrics struct {
	running *prometheus.GaugeVec
	ended   *prometheus.CounterVec
}

func newTaskMetrics() *taskMetrics {
	m := &taskMetrics{
		running: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "mcpdecl_tasks",
			Help: "Tasks this replica is running, by state (working, input_required).",
		}, []string{"state"}),
		ended: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mcpdecl_tasks_ended_total",
			Help: "Tasks this replica ran that ended, by the state they ended in (completed, failed, cancelled).",
		}, []string{"state"}),
	}
	// Every state shows from the start, so that a rate() or a sum exists
	// before the first task.
	for _, s := range runningTaskStates {
		m.running.WithLabelValues(s)
	}
	for _, s := range endedTaskStates {
		m.ended.WithLabelValues(s)
	}
	return m
}

func (m *taskMetrics) collectors() []prometheus.Collector {
	return []prometheus.Collector{m.running, m.ended}
}

// TaskMoved records a task of this replica changing state: from "" when
// it is created, to an ended state when it ends. A state outside the
// known ones is not counted, so labels stay the fixed set.
func (r *Registry) TaskMoved(from, to string) {
	m := r.tasks
	if isOneOf(from, runningTaskStates) {
		m.running.WithLabelValues(from).Dec()
	}
	switch {
	case isOneOf(to, runningTaskStates):
		m.running.WithLabelValues(to).Inc()
	case isOneOf(to, endedTaskStates):
		m.ended.WithLabelValues(to).Inc()
	}
}

func isOneOf(s string, set []string) bool {
	for _, x := range set {
		if s == x {
			return true
		}
	}
	return false
}
