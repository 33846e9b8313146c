package mcp

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
)

// Options configure a Server. The zero value serves every known revision.
type Options struct {
	// Versions lists the revisions to offer; empty means all known ones.
	// An offered revision outside the known set is ignored.
	Versions []string
	// PageSize is the number of list items per page (default 100).
	PageSize int
	// Logger receives what the protocol layer itself must report (a
	// handler that panicked); nil means slog.Default().
	Logger *slog.Logger
	// OnRequest, when set, is told of every request once its era is
	// known: the era ("modern" or "legacy") and the method, or "other"
	// for a method this package does not serve, so that a client cannot
	// make up new values. It runs on every request and must be quick and
	// safe for concurrent use (a metrics counter).
	OnRequest func(era, method string)
	// OnOpen, when set, is told when something a client holds open
	// begins (delta +1) and ends (-1), of kind OpenSession (a stateful
	// 2025 HTTP session, with LegacySessions), OpenGetStream (its GET
	// stream) or OpenListen (a 2026-07-28 subscriptions/listen stream,
	// over HTTP or stdio). A signed session holds nothing on the server,
	// so it is never told of one. It must be quick and safe for
	// concurrent use (a metrics gauge).
	OnOpen func(kind string, delta int)
}

// The kinds OnOpen is told of.
const (
	OpenSession   = "session"
	OpenGetStream = "get_stream"
	OpenListen    = "listen"
)

// Server routes MCP messages to a Handler. It is transport-neutral: serve it
// with ServeStdio, HTTPHandler, or both at once. A Server is safe for
// concurrent use.
type Server struct {
	h         Handler
	log       *slog.Logger
	versions  versionSet
	pageSize  int
	listeners registry
	metaCache atomic.Pointer[metaEntry]

	onRequest func(era, method string)
	onOpen    func(kind string, delta int)

	inflight tracker       // requests being handled, for Shutdown
	closing  chan struct{} // closed by Shutdown: ends listen and GET streams
	closeMu  sync.Once
}

// NewServer returns a Server for h. opts may be nil.
func NewServer(h Handler, opts *Options) *Server {
	if opts == nil {
		opts = &Options{}
	}
	s := &Server{h: h, log: opts.Logger, versions: newVersionSet(opts.Versions), pageSize: opts.PageSize, closing: make(chan struct{}), onRequest: opts.OnRequest, onOpen: opts.OnOpen}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.pageSize <= 0 {
		s.pageSize = DefaultPageSize
	}
	s.listeners.init()
	return s
}

// SupportedVersions returns the offered revisions, newest first.
func (s *Server) SupportedVersions() []string { return append([]string(nil), s.versions.list...) }

// Shutdown ends every subscriptions/listen stream with its final result and
// every legacy GET stream, then waits for in-flight requests to finish or
// ctx to end. Call it before http.Server.Shutdown, whose idle wait would
// otherwise block on the long-lived streams. New requests are refused with
// 503 (HTTP) once Shutdown has begun.
func (s *Server) Shutdown(ctx context.Context) error {
	s.closeMu.Do(func() { close(s.closing) })
	return s.inflight.wait(ctx)
}

// opened tells OnOpen, when set.
func (s *Server) opened(kind string, delta int) {
	if s.onOpen != nil {
		s.onOpen(kind, delta)
	}
}

// tracker counts in-flight requests. Unlike sync.WaitGroup it allows new
// requests to start while Shutdown waits (stdio keeps reading).
type tracker struct {
	mu   sync.Mutex
	n    int
	zero chan struct{} // closed when n drops to 0; nil when nobody waits
}

// Add counts a request in (the WaitGroup-like signature keeps call sites familiar).
func (t *tracker) Add(int) {
	t.mu.Lock()
	t.n++
	t.mu.Unlock()
}

// Done counts a request out and wakes a waiting Shutdown at zero.
func (t *tracker) Done() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.n--; t.n == 0 && t.zero != nil {
		close(t.zero)
		t.zero = nil
	}
}

func (t *tracker) wait(ctx context.Context) error {
	t.mu.Lock()
	if t.n == 0 {
		t.mu.Unlock()
		return nil
	}
	if t.zero == nil {
		t.zero = make(chan struct{})
	}
	ch := t.zero
	t.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Server) isClosing() bool {
	select {
	case <-s.closing:
		return true
	default:
		return false
	}
}
