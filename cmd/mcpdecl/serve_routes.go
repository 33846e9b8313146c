package main

import (
	"io"
	"log/slog"
	"net"
	"net/http"

	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/tasks"
)

// routeMux is a ServeMux that remembers the patterns it was given, so
// that every route of a listener can be listed (its tests visit each).
type routeMux struct {
	*http.ServeMux
	patterns []string
}

func newRouteMux() *routeMux { return &routeMux{ServeMux: http.NewServeMux()} }

func (m *routeMux) Handle(pattern string, h http.Handler) {
	m.patterns = append(m.patterns, pattern)
	m.ServeMux.Handle(pattern, h)
}

func (m *routeMux) HandleFunc(pattern string, f func(http.ResponseWriter, *http.Request)) {
	m.Handle(pattern, http.HandlerFunc(f))
}

// httpRoutes builds the --http listener's routes: the MCP endpoint, the
// protected-resource metadata, /metrics with --metrics, and the health
// checks.
func (c *serveCmd) httpRoutes(addr net.Addr, srv *server.Server, proto *mcp.Server, keys *mcp.Keys, ready *readiness) *routeMux {
	mux := newRouteMux()
	mux.Handle(c.Path, proto.HTTPHandler(c.mcpOptions(addr, keys, srv)))
	for _, p := range auth.MetadataPaths(c.Path) {
		mux.Handle(p, srv.Metadata()) // the protected-resource metadata, served without a token
	}
	c.mountMetrics(mux, srv.Guard)
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok\n") })
	mux.Handle("/readyz", ready)
	return mux
}

// mcpOptions are the MCP endpoint's options; their Host and Origin rule
// guards the listener's other routes too (guardHosts).
func (c *serveCmd) mcpOptions(addr net.Addr, keys *mcp.Keys, srv *server.Server) *mcp.HTTPOptions {
	return c.handlerOptions(&mcp.HTTPOptions{
		LegacySessions: c.LegacySessions, AllowedOrigins: c.AllowedOrigins, CORS: c.CORS,
		Loopback: isLoopbackAddr(addr), SessionKeys: keys,
		Guard: srv.Guard, // tokens, with an auth block
		// a 2025 session belongs to the token's subject that started it
		Principal: server.Principal,
	})
}

// guardHosts gives every route of a listener on addr the MCP endpoint's
// Host and Origin rule: a page rebound to a loopback server's address
// would otherwise read /metrics or /readyz under its own DNS name.
func (c *serveCmd) guardHosts(h http.Handler, addr net.Addr, log *slog.Logger) http.Handler {
	return mcp.GuardHosts(h, &mcp.HTTPOptions{AllowedHosts: c.AllowedHosts, AllowedOrigins: c.AllowedOrigins, Loopback: isLoopbackAddr(addr)}, log)
}

// httpHandler is everything the --http listener serves.
func (c *serveCmd) httpHandler(addr net.Addr, log *slog.Logger, srv *server.Server, proto *mcp.Server, keys *mcp.Keys, store tasks.Store) (http.Handler, *routeMux, *readiness) {
	ready := &readiness{store: store}
	ready.srv.Store(srv)
	mux := c.httpRoutes(addr, srv, proto, keys, ready)
	return c.guardHosts(mux, addr, log), mux, ready
}
