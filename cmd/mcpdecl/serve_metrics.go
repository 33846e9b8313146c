package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/observe/metrics"
	"github.com/mcpdecl/mcpdecl/server"
)

// metricsFlags turn on Prometheus metrics. Off, nothing is counted and
// there is no /metrics.
type metricsFlags struct {
	Metrics     bool   `help:"Serve Prometheus metrics at /metrics on the --http listener (with an auth block, only to a valid token, e.g. a static token of the scraper)."`
	MetricsAddr string `name:"metrics-addr" placeholder:"ADDR" help:"Serve Prometheus metrics at /metrics on a listener of their own (e.g. 127.0.0.1:9090); works with stdio too."`

	reg *metrics.Registry // nil when metrics are off
	// addrRoutes are the routes of the --metrics-addr listener.
	addrRoutes *routeMux
}

// startMetrics makes the registry when metrics are on and serves it on
// --metrics-addr until ctx ends, every request checked by guard (the
// Host and Origin rule of a listener on that address).
func (m *metricsFlags) startMetrics(ctx context.Context, log *slog.Logger, httpAddr string, guard func(http.Handler, net.Addr) http.Handler) error {
	if m.Metrics && httpAddr == "" {
		return errors.New("--metrics serves /metrics on the --http listener; over stdio use --metrics-addr ADDR")
	}
	if !m.Metrics && m.MetricsAddr == "" {
		return nil
	}
	m.reg = metrics.New()
	if m.MetricsAddr == "" {
		return nil
	}
	ln, err := net.Listen("tcp", m.MetricsAddr)
	if err != nil {
		return fmt.Errorf("listen on %s for --metrics-addr: %w", m.MetricsAddr, err)
	}
	m.addrRoutes = newRouteMux()
	m.addrRoutes.Handle("/metrics", m.reg.Handler())
	hs := &http.Server{Handler: guard(m.addrRoutes, ln.Addr()), ReadHeaderTimeout: 10 * time.Second, WriteTimeout: 30 * time.Second, IdleTimeout: time.Minute}
	go func() { _ = hs.Serve(ln) }()
	go func() { <-ctx.Done(); _ = hs.Close() }()
	url := fmt.Sprintf("http://%s/metrics", ln.Addr())
	log.Info("metrics on "+url, "url", url)
	return nil
}

// mountMetrics adds /metrics to the --http listener's mux with --metrics.
// guard is the MCP endpoint's token check: with an auth block, the
// listener serves nothing that names the configuration's tools without a
// token (a scraper sends a static token); without one it lets all pass.
func (m *metricsFlags) mountMetrics(mux *routeMux, guard mcp.HTTPGuard) {
	if !m.Metrics {
		return
	}
	h := m.reg.Handler()
	mux.Handle("/metrics", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r = guard(w, r); r != nil {
			h.ServeHTTP(w, r)
		}
	}))
}

// observer is the server's call observer: nil (not a nil registry in an
// interface) when metrics are off, so calls skip it.
func (m *metricsFlags) observer() server.Observer {
	if m.reg == nil {
		return nil
	}
	return m.reg
}

// onRequest is the protocol layer's request hook, nil when metrics are off.
func (m *metricsFlags) onRequest() func(era, method string) {
	if m.reg == nil {
		return nil
	}
	return m.reg.Request
}

// reloadFailed counts a reload whose configuration did not compile (the
// server never saw it; it counts the reloads it was given itself).
func (m *metricsFlags) reloadFailed(err error) {
	if m.reg != nil {
		m.reg.Reloaded(0, err)
	}
}
