package serving

import (
	"net/http"
	"time"

	"github.com/mcpdecl/mcpdecl/mcp"
)

// HTTPLimits bound what one HTTP client can hold: time, connections,
// requests, sessions, and the Host names accepted (the serve flags of the
// same names).
type HTTPLimits struct {
	AllowedHosts       []string
	HeaderTimeout      time.Duration
	BodyTimeout        time.Duration
	WriteTimeout       time.Duration
	IdleTimeout        time.Duration
	MaxInFlight        int
	MaxStreams         int
	MaxSessions        int
	SessionIdleTimeout time.Duration
}

// handlerOptions are the limits as the MCP handler takes them: there a
// zero means "the default", so a limit set to 0 becomes "off" (-1).
func (l *HTTPLimits) handlerOptions(o *mcp.HTTPOptions) *mcp.HTTPOptions {
	o.AllowedHosts = l.AllowedHosts
	o.BodyTimeout = offIfZero(l.BodyTimeout)
	o.WriteTimeout = offIfZero(l.WriteTimeout)
	o.ServerWriteTimeout = l.WriteTimeout // server's http.Server sets it
	o.MaxInFlight = offIfZero(l.MaxInFlight)
	o.MaxStreams = offIfZero(l.MaxStreams)
	o.MaxSessions = offIfZero(l.MaxSessions)
	o.SessionIdleTimeout = offIfZero(l.SessionIdleTimeout)
	return o
}

func offIfZero[T int | time.Duration](v T) T {
	if v == 0 {
		return -1
	}
	return v
}

// server is the http.Server with the connection-level limits. WriteTimeout
// covers the paths outside the MCP handler; the handler renews the write
// deadline per write, so its streams outlive it. h bounds the time to
// receive a body itself (bodyDeadline, or the MCP handler's BodyTimeout).
func (l *HTTPLimits) server(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: l.HeaderTimeout,
		WriteTimeout:      l.WriteTimeout,
		IdleTimeout:       l.IdleTimeout,
	}
}

// bodyDeadline bounds the time to receive a request body on every path,
// also those that never read it (net/http drains an unread body before
// reusing the connection). The MCP handler lifts the deadline once its body
// is in.
func bodyDeadline(next http.Handler, d time.Duration) http.Handler {
	if d <= 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(d))
		}
		next.ServeHTTP(w, r)
	})
}
