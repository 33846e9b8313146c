package serving

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

// metricsState is the Prometheus metrics Options.Metrics and
// Options.MetricsAddr turn on. Off, nothing is counted and there is no
// /metrics.
type metricsState struct {
	reg *metrics.Registry // nil when metrics are off
	// addrRoutes are the routes of the --metrics-addr listener.
	addrRoutes *routeMux
}

// startMetrics makes the registry when metrics are on and serves it on
// --metrics-addr until ctx ends, every request checked by guard (the
// Host and Origin rule of a listener on that address).
func (m *Instance) startMetrics(ctx context.Context, log *slog.Logger, httpAddr string, guard func(http.Handler, net.Addr) http.Handler) error {
	if m.opts.Metrics && httpAddr == "" {
		return errors.New("--metrics serves /metrics on the --http listener; over stdio use --metrics-addr ADDR")
	}
	if !m.opts.Metrics && m.opts.MetricsAddr == "" {
		return nil
	}
	m.reg = metrics.New()
	if m.opts.MetricsAddr == "" {
		return nil
	}
	ln, err := net.Listen("tcp", m.opts.MetricsAddr)
	if err != nil {
		return fmt.Errorf("listen on %s for --metrics-addr: %w", m.opts.MetricsAddr, err)
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
func (m *Instance) mountMetrics(mux *routeMux, guard mcp.HTTPGuard) {
	if !m.opts.Metrics {
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
func (m *metricsState) observer() server.Observer {
	if m.reg == nil {
		return nil
	}
	return m.reg
}

// onRequest is the protocol layer's request hook, nil when metrics are off.
func (m *metricsState) onRequest() func(era, method string) {
	if m.reg == nil {
		return nil
	}
	return m.reg.Request
}

// reloadFailed counts a reload whose configuration did not compile (the
// server never saw it; it counts the reloads it was given itself).
func (m *metricsState) reloadFailed(err error) {
	if m.reg != nil {
		m.reg.Reloaded(0, err)
	}
}
