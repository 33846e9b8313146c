package main

import (
	"sort"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/observe/metrics"
	"github.com/mcpdecl/mcpdecl/server"
)

// onOpen is the protocol layer's hook for sessions and streams held open,
// nil when metrics are off.
func (m *metricsFlags) onOpen() func(kind string, delta int) {
	if m.reg == nil {
		return nil
	}
	return m.reg.Opened
}

// watchPools reports, at each scrape, the connection pools of the
// backends srv serves then (after a reload, the new configuration's).
func (m *metricsFlags) watchPools(srv *server.Server) {
	if m.reg == nil {
		return
	}
	m.reg.WatchPools(func() []metrics.Pool {
		backends := srv.Table().Backends
		out := make([]metrics.Pool, 0, len(backends))
		for name, b := range backends {
			if p, ok := b.(adapter.Pooled); ok {
				if stats, open := p.PoolStats(); open {
					out = append(out, metrics.Pool{Backend: name, Stats: stats})
				}
			}
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Backend < out[j].Backend })
		return out
	})
}
