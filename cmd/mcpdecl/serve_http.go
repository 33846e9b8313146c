package main

import (
	"net/http"
	"time"

	"github.com/mcpdecl/mcpdecl/mcp"
)

// httpLimits are the serve flags that bound what one HTTP client can hold:
// time, connections, requests, sessions, and the Host names accepted.
type httpLimits struct {
	AllowedHosts       []string      `name:"allowed-host" sep:"none" placeholder:"HOST" help:"A Host name the server answers to besides its own address (mcp.example.com, or mcp.example.com:8443 for that port only; repeatable). By default a loopback bind answers to localhost, 127.0.0.1 and [::1], any other bind only to the literal IP a client connected to; every other Host gets 403 (DNS rebinding protection)."`
	HeaderTimeout      time.Duration `default:"10s" help:"Time a client has to send the request headers."`
	BodyTimeout        time.Duration `default:"30s" help:"Time a client has to send a request body; a slower one gets 408 (0: no limit)."`
	WriteTimeout       time.Duration `default:"60s" help:"Time each write of an answer may take; renewed per event on streams, so only a client that stops reading is cut off (0: no limit)."`
	IdleTimeout        time.Duration `default:"30s" help:"How long an idle keep-alive connection stays open."`
	MaxInFlight        int           `default:"64" help:"Requests doing work at once (a call streaming its progress included, open listen and GET streams not); beyond it a request gets 503 with Retry-After (0: no limit)."`
	MaxStreams         int           `default:"4096" help:"Open streams that wait to push (subscriptions/listen, a session's GET stream, tasks/result waiting for its task); beyond it a new one gets 503 with Retry-After (0: no limit)."`
	MaxSessions        int           `default:"1000" help:"With --legacy-sessions: live sessions at most; at the cap initialize ends the least recently used idle session, and gets 503 only when every session is busy (0: no limit)."`
	SessionIdleTimeout time.Duration `default:"30m" help:"With --legacy-sessions: a session unused this long ends; its id then gets 404 and the client initializes again (0: never)."`
}

// handlerOptions are the limits as the MCP handler takes them: there a
// zero means "the default", so a flag set to 0 becomes "off" (-1).
func (l *httpLimits) handlerOptions(o *mcp.HTTPOptions) *mcp.HTTPOptions {
	o.AllowedHosts = l.AllowedHosts
	o.BodyTimeout = offIfZero(l.BodyTimeout)
	o.WriteTimeout = offIfZero(l.WriteTimeout)
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
// deadline per write, so its streams outlive it.
func (l *httpLimits) server(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           bodyDeadline(h, l.BodyTimeout),
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
