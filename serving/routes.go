package serving

import (
	"io"
	"net"
	"net/http"

	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
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
func (c *Instance) httpRoutes(addr net.Addr, srv *server.Server, proto *mcp.Server, keys *mcp.Keys, ready *readiness) (*routeMux, http.Handler) {
	mux := newRouteMux()
	// The view's guard: the server's token checks, and the scopes of the
	// toolsets --toolset selected.
	endpoint := proto.HTTPHandler(c.mcpOptions(addr, keys, c.view.Guard))
	mux.Handle(c.opts.Path, endpoint)
	c.mountToolsets(mux, addr)
	for _, p := range auth.MetadataPaths(c.opts.Path) {
		mux.Handle(p, srv.Metadata()) // the protected-resource metadata, served without a token
	}
	c.mountMetrics(mux, srv.Guard)
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok\n") })
	mux.Handle("/readyz", ready)
	return mux, endpoint
}

// mcpOptions are the MCP endpoint's options; their Host and Origin rule
// guards the listener's other routes too (guardHosts).
func (c *Instance) mcpOptions(addr net.Addr, keys *mcp.Keys, guard mcp.HTTPGuard) *mcp.HTTPOptions {
	return c.opts.handlerOptions(&mcp.HTTPOptions{
		LegacySessions: c.opts.LegacySessions, AllowedOrigins: c.opts.AllowedOrigins, CORS: c.opts.CORS,
		Loopback: isLoopbackAddr(addr), SessionKeys: keys,
		Guard: guard, // tokens, with an auth block
		// a 2025 session belongs to the token's subject that started it
		Principal: server.Principal,
	})
}

// guardHosts gives every route of a listener on addr the MCP endpoint's
// Host and Origin rule: a page rebound to a loopback server's address
// would otherwise read /metrics or /readyz under its own DNS name.
func (c *Instance) guardHosts(h http.Handler, addr net.Addr) http.Handler {
	return mcp.GuardHosts(h, &mcp.HTTPOptions{AllowedHosts: c.opts.AllowedHosts, AllowedOrigins: c.opts.AllowedOrigins, Loopback: isLoopbackAddr(addr)}, c.log)
}

// httpHandler is everything the --http listener serves: the routes behind
// the Host and Origin rule and the body deadline (bodyDeadline), except
// the MCP endpoint's own path, which goes straight to its handler (see
// endpointFirst).
func (c *Instance) httpHandler(addr net.Addr) (http.Handler, *routeMux, *readiness) {
	ready := &readiness{store: c.store}
	ready.srv.Store(c.srv)
	mux, endpoint := c.httpRoutes(addr, c.srv, c.proto, c.keys, ready)
	rest := bodyDeadline(c.guardHosts(mux, addr), c.opts.BodyTimeout)
	return &endpointFirst{path: c.opts.Path, endpoint: endpoint, rest: rest}, mux, ready
}

// endpointFirst serves requests for the MCP endpoint's path with its
// handler directly and every other request with rest. The MCP handler
// applies the same Host and Origin rule as guardHosts (the same
// AllowedHosts, AllowedOrigins and Loopback, see mcpOptions) and sets the
// same body deadline as bodyDeadline (HTTPOptions.BodyTimeout) itself, so
// passing it through both would check every call twice; and the mux would
// only find this handler for this exact path anyway (a pattern without a
// method or host matches every request for its path).
type endpointFirst struct {
	path     string
	endpoint http.Handler
	rest     http.Handler
}

func (e *endpointFirst) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == e.path && r.Method != http.MethodConnect {
		e.endpoint.ServeHTTP(w, r)
		return
	}
	e.rest.ServeHTTP(w, r)
}
