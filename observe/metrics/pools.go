package metrics

import (
	"database/sql"

	"github.com/prometheus/client_golang/prometheus"
)

// Pool is the connection pool of one backend, by the backend block's name.
type Pool struct {
	Backend string
	Stats   sql.DBStats
}

// poolCollector reads the pools of the backends served now at each
// scrape: no goroutine polls them. After a reload the counters start again
// from the new pools (Prometheus's rate() takes a counter reset in its
// stride).
type poolCollector struct {
	pools func() []Pool
}

var (
	poolMaxOpen = prometheus.NewDesc("mcpdecl_sql_pool_max_open_connections",
		"Connections the backend's pool may open at most (max_open_conns).", []string{"backend"}, nil)
	poolOpen = prometheus.NewDesc("mcpdecl_sql_pool_open_connections",
		"Connections the backend's pool holds open, in use or idle.", []string{"backend"}, nil)
	poolInUse = prometheus.NewDesc("mcpdecl_sql_pool_in_use_connections",
		"Connections of the backend's pool running a statement now.", []string{"backend"}, nil)
	poolIdle = prometheus.NewDesc("mcpdecl_sql_pool_idle_connections",
		"Idle connections of the backend's pool.", []string{"backend"}, nil)
	poolWaits = prometheus.NewDesc("mcpdecl_sql_pool_waits_total",
		"Calls that waited for a connection of the backend's pool (all in use).", []string{"backend"}, nil)
	poolWaitSeconds = prometheus.NewDesc("mcpdecl_sql_pool_wait_seconds_total",
		"Time calls spent waiting for a connection of the backend's pool.", []string{"backend"}, nil)
)

func (c poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{poolMaxOpen, poolOpen, poolInUse, poolIdle, poolWaits, poolWaitSeconds} {
		ch <- d
	}
}

func (c poolCollector) Collect(ch chan<- prometheus.Metric) {
	for _, p := range c.pools() {
		s := p.Stats
		ch <- prometheus.MustNewConstMetric(poolMaxOpen, prometheus.GaugeValue, float64(s.MaxOpenConnections), p.Backend)
		ch <- prometheus.MustNewConstMetric(poolOpen, prometheus.GaugeValue, float64(s.OpenConnections), p.Backend)
		ch <- prometheus.MustNewConstMetric(poolInUse, prometheus.GaugeValue, float64(s.InUse), p.Backend)
		ch <- prometheus.MustNewConstMetric(poolIdle, prometheus.GaugeValue, float64(s.Idle), p.Backend)
		ch <- prometheus.MustNewConstMetric(poolWaits, prometheus.CounterValue, float64(s.WaitCount), p.Backend)
		ch <- prometheus.MustNewConstMetric(poolWaitSeconds, prometheus.CounterValue, s.WaitDuration.Seconds(), p.Backend)
	}
}

// WatchPools reports the connection pools that pools lists at each
// scrape: those of the backends served then, each under its backend
// block's name (a name appears once). Call it once.
func (r *Registry) WatchPools(pools func() []Pool) {
	r.reg.MustRegister(poolCollector{pools: pools})
}
