package mcp

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultMaxBodyBytes is the default POST body limit (4 MiB, as go-sdk).
const DefaultMaxBodyBytes = 4 << 20

// Defaults of the HTTP limits; HTTPOptions explains each.
const (
	DefaultBodyTimeout        = 30 * time.Second
	DefaultWriteTimeout       = 60 * time.Second
	DefaultMaxInFlight        = 64
	DefaultMaxStreams         = 4096
	DefaultMaxSessions        = 1000
	DefaultSessionIdleTimeout = 30 * time.Minute
)

// HTTPOptions configure the Streamable HTTP handler. Zero values take the
// defaults; a negative limit or timeout turns that limit off.
type HTTPOptions struct {
	// MaxBodyBytes limits a POST body; larger bodies get 413. Default 4 MiB.
	MaxBodyBytes int64

	// BodyTimeout bounds the time a client may take to send a POST body
	// (a client trickling one byte a second is cut off with 408). The
	// deadline is lifted once the body is in, so long streams live on.
	BodyTimeout time.Duration

	// WriteTimeout bounds each write of a response: the final JSON answer
	// and every SSE event. It is renewed per write, so a long-lived stream
	// only ends when a client stops reading. Set http.Server.WriteTimeout
	// too (serve does) to cover the other paths of the server.
	WriteTimeout time.Duration

	// ServerWriteTimeout is the http.Server's WriteTimeout in front of the
	// handler, when it has one (serve's does): net/http sets that write
	// deadline just before the handler runs, so a renewal that would move
	// it by a moment is not made (see connControl.renewWrite). Zero: the
	// handler assumes nothing about the server.
	ServerWriteTimeout time.Duration

	// MaxInFlight caps the requests being served at once; beyond it a
	// request gets 503 with Retry-After before its body is read. A call
	// whose answer streams while it works counts; an open stream that
	// only waits (see MaxStreams) does not.
	MaxInFlight int

	// MaxStreams caps the open streams that only wait for something to
	// push: 2026-07-28 subscriptions/listen, a 2025 session's GET stream
	// and a 2025-11-25 tasks/result waiting for its task. Beyond it such a
	// request gets 503 with Retry-After. They leave MaxInFlight once they
	// are known to be one (a GET at once, a POST once its body is read),
	// so idle listeners never starve calls. Default 4096.
	MaxStreams int

	// Loopback forces the loopback Host policy (localhost, 127.0.0.1, [::1])
	// when the connection's local address is unknown. Otherwise the policy
	// follows the address the connection arrived on: a loopback address
	// accepts the loopback names, any other address accepts itself as a
	// literal IP. AllowedHosts adds names (a "name" entry allows any port,
	// "name:port" that port only). Any other Host gets 403, which defeats DNS
	// rebinding: a rebound page always sends its own DNS name.
	Loopback     bool
	AllowedHosts []string

	// AllowedOrigins are exact origins ("https://app.example") accepted in
	// addition to same-host origins, origins naming an allowed host and, on
	// loopback, loopback origins. A request with any other Origin gets 403.
	AllowedOrigins []string

	// CORS answers preflight requests and adds CORS headers for accepted
	// origins, exposing the MCP headers browsers need.
	CORS bool

	// Guard, when set, checks each request that passed the Host and
	// Origin checks and the cap on requests in flight (CORS preflights
	// excepted, which carry no credentials), before its body is read: see
	// HTTPGuard.
	Guard HTTPGuard

	// Principal names whom a request (after Guard) speaks for, such as a
	// token's issuer and subject; "" for nobody. A 2025 session belongs to
	// the principal that initialized it: with another principal its id is
	// an unknown session (404), so a leaked session id is worth nothing to
	// another user. Nil binds sessions to nobody.
	Principal func(*http.Request) string

	// LegacySessions enables stateful legacy sessions: initialize mints an
	// Mcp-Session-Id, GET opens the session's SSE stream (list_changed,
	// resources/updated) and DELETE ends it. Without it legacy clients are
	// served without server-side state: initialize answers with a signed
	// session id (see SessionKeys), and GET/DELETE get 405, as modern
	// requires.
	LegacySessions bool

	// MaxSessions caps the live legacy sessions; at the cap an initialize
	// ends the least recently used idle session (no request being served,
	// no open GET stream), whose id then gets 404, and gets 503 only when
	// every session is busy. SessionIdleTimeout ends a session nobody used for that
	// long (an open GET stream counts as use); its id then gets 404, and
	// the client initializes again.
	MaxSessions        int
	SessionIdleTimeout time.Duration

	// SessionKeys sign the session ids given to 2025 clients without
	// LegacySessions (see SignedSessionTTL). Replicas behind one load
	// balancer share them. Nil means a random key per handler.
	SessionKeys *Keys
}

// withDefaults fills the zero limits with the defaults and turns negative
// ones into "no limit" (zero).
func (o HTTPOptions) withDefaults() HTTPOptions {
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	o.BodyTimeout = orDefault(o.BodyTimeout, DefaultBodyTimeout)
	o.WriteTimeout = orDefault(o.WriteTimeout, DefaultWriteTimeout)
	o.SessionIdleTimeout = orDefault(o.SessionIdleTimeout, DefaultSessionIdleTimeout)
	o.MaxInFlight = orDefault(o.MaxInFlight, DefaultMaxInFlight)
	o.MaxStreams = orDefault(o.MaxStreams, DefaultMaxStreams)
	o.MaxSessions = orDefault(o.MaxSessions, DefaultMaxSessions)
	return o
}

func orDefault[T int | time.Duration](v, def T) T {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// HTTPHandler returns the Streamable HTTP handler serving both eras on one
// endpoint. opts may be nil. Mount it at the MCP endpoint path; health
// checks and auth middleware are the caller's business.
func (s *Server) HTTPHandler(opts *HTTPOptions) http.Handler {
	h := &httpHandler{s: s, sessions: map[string]*session{}, now: time.Now, signedCalls: newPendingCalls(true)}
	if opts != nil {
		h.opts = *opts
	}
	if h.opts.SessionKeys == nil {
		h.opts.SessionKeys, _ = NewKeys(nil)
	}
	h.opts = h.opts.withDefaults()
	h.hostRule = newHostRule(&h.opts, s.log)
	return h
}

type httpHandler struct {
	s        *Server
	opts     HTTPOptions
	inFlight atomic.Int64     // requests counted against MaxInFlight
	streams  atomic.Int64     // requests counted against MaxStreams
	now      func() time.Time // the clock of session expiry; tests move it

	mu       sync.Mutex
	sessions map[string]*session
	sweep    *time.Timer // ends idle sessions while there are any

	// signedCalls are the server→client requests of every signed session.
	signedCalls *pendingCalls
	// running are the 2025 session requests a notifications/cancelled may stop.
	running runningCalls

	hostRule // the Host and Origin check of every request
}

// ServeHTTP implements http.Handler: ladder steps 1–2 (Origin/Host, HTTP
// method) here, the rest in post.
func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rc := newConnControl(w, h.opts.WriteTimeout)
	now := time.Now()
	if d := h.opts.ServerWriteTimeout; d > 0 {
		rc.writeSet = now.Add(d) // net/http's, set a moment ago
	}
	if h.opts.BodyTimeout > 0 && r.Body != nil && r.Body != http.NoBody {
		// Set before any answer, so that a body nobody reads (403, 503)
		// cannot hold the connection while the server drains it either.
		rc.readBy(now.Add(h.opts.BodyTimeout))
	}
	if !h.hostOK(r) || !h.originOK(r) {
		refuse(w, r, http.StatusForbidden, Errorf(CodeInvalidRequest, "forbidden: Host or Origin not allowed"))
		return
	}
	if h.opts.CORS && first(r.Header, "Origin") != "" {
		h.corsHeaders(w, r)
	}
	if h.s.isClosing() {
		refuse(w, r, http.StatusServiceUnavailable, Errorf(CodeInternalError, "server is shutting down"))
		return
	}
	if !h.enter() {
		w.Header().Set("Retry-After", "1")
		refuse(w, r, http.StatusServiceUnavailable, Errorf(CodeInternalError, "server busy: too many requests in flight; retry shortly"))
		return
	}
	defer h.leave(rc)
	if h.opts.Guard != nil && !(r.Method == http.MethodOptions && h.opts.CORS) {
		// Within the cap on requests in flight: checking a token costs.
		if r = h.opts.Guard(w, r); r == nil {
			return // answered by the guard (401)
		}
	}
	sid := first(r.Header, HeaderSessionID)
	switch {
	case r.Method == http.MethodPost:
		h.post(w, r, rc)
	case r.Method == http.MethodOptions && h.opts.CORS:
		w.WriteHeader(http.StatusNoContent)
	case r.Method == http.MethodGet && h.opts.LegacySessions && sid != "":
		if h.toStream(w, r, rc) {
			h.get(w, r, sid)
		}
	case r.Method == http.MethodDelete && h.opts.LegacySessions && sid != "":
		h.delete(w, r, sid)
	default:
		w.Header().Set("Allow", "POST")
		refuse(w, r, http.StatusMethodNotAllowed, Errorf(CodeInvalidRequest, "method %s not allowed", r.Method))
	}
}

// enter counts a request in unless MaxInFlight are already being served.
func (h *httpHandler) enter() bool {
	n := h.inFlight.Add(1)
	if max := h.opts.MaxInFlight; max > 0 && n > int64(max) {
		h.inFlight.Add(-1)
		return false
	}
	return true
}

// refuse answers a request whose body was not read, then closes the
// connection: draining an unread body could take as long as the client
// likes, and net/http would drain it before answering.
func refuse(w http.ResponseWriter, r *http.Request, status int, e *Error) {
	if r.ContentLength != 0 {
		w.Header().Set("Connection", "close")
	}
	writeJSON(w, status, encodeError(nil, e))
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// readBody enforces Content-Type, the body limit and the body deadline, and
// reads the body once into a buffer of its own size: the decoded message
// and its params point into this buffer instead of copying it.
//
// Once the body is in, the deadline must not end a long answer. Over
// HTTP/2 it is lifted here. Over HTTP/1 net/http lifts it itself: reading
// the body to its end starts the server's background read (which notices
// a client that goes away) and clears the connection's read deadline
// first; before that nothing reads the connection while the handler runs.
// Lifting it again would cost a timer update per call.
func (h *httpHandler) readBody(w http.ResponseWriter, r *http.Request, rc *connControl) ([]byte, bool) {
	if ct := first(r.Header, "Content-Type"); ct != "" && ct != "application/json" { // the common case needs no parsing
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			refuse(w, r, http.StatusUnsupportedMediaType, Errorf(CodeInvalidRequest, "Content-Type must be application/json"))
			return nil, false
		}
	}
	if r.ContentLength > h.opts.MaxBodyBytes {
		h.tooLarge(w)
		return nil, false
	}
	body, err := readAllLimited(http.MaxBytesReader(w, r.Body, h.opts.MaxBodyBytes), r.ContentLength)
	if err != nil {
		// The deadline stays: a half-read body is not worth waiting for.
		var tooBig *http.MaxBytesError
		var ne net.Error
		switch {
		case errors.As(err, &tooBig):
			h.tooLarge(w)
		case errors.As(err, &ne) && ne.Timeout():
			w.Header().Set("Connection", "close")
			writeJSON(w, http.StatusRequestTimeout, encodeError(nil, Errorf(CodeInvalidRequest, "the request body did not arrive within %v", h.opts.BodyTimeout)))
		default:
			writeJSON(w, http.StatusBadRequest, encodeError(nil, Errorf(CodeInvalidRequest, "reading body: %v", err)))
		}
		return nil, false
	}
	if h.opts.BodyTimeout > 0 && r.ProtoMajor != 1 {
		rc.readBy(time.Time{}) // the response may be a long stream
	}
	rc.renewWrite() // the body's time does not count against the answer's
	return body, true
}

// connControl sets the deadlines of the request's connection. For a writer
// that cannot (a recorder, a wrapper without Unwrap) net/http builds a new
// error on every call, so after the first refusal it stops asking.
type connControl struct {
	http.ResponseController
	writeTime   time.Duration // each write's deadline; 0: none
	writeSet    time.Time     // the write deadline in force, as far as known
	noDeadlines bool
	stream      bool // the request counts against MaxStreams (http_streams.go)
}

func newConnControl(w http.ResponseWriter, writeTime time.Duration) *connControl {
	return &connControl{ResponseController: *http.NewResponseController(w), writeTime: writeTime}
}

// renewWrite gives the next write its own deadline. The server set one when
// the request began, which a slow body or a long call used up; and a stream
// lives as long as the client keeps reading, while a client that stops
// reading frees the connection after writeTime instead of never.
//
// A deadline set a moment ago stands: moving it by less than a 64th of
// writeTime changes nothing a client could tell, and each change takes the
// connection's timer lock (a plain call renews twice: once its body is in,
// again when it answers; and the server set one as it began).
func (c *connControl) renewWrite() {
	if c.writeTime <= 0 {
		return
	}
	t := time.Now().Add(c.writeTime)
	if !c.writeSet.IsZero() && t.Sub(c.writeSet) < c.writeTime/64 {
		return
	}
	c.writeSet = t
	c.writeBy(t)
}

func (c *connControl) readBy(t time.Time) {
	if !c.noDeadlines && errors.Is(c.SetReadDeadline(t), http.ErrNotSupported) {
		c.noDeadlines = true
	}
}

func (c *connControl) writeBy(t time.Time) {
	if !c.noDeadlines && errors.Is(c.SetWriteDeadline(t), http.ErrNotSupported) {
		c.noDeadlines = true
	}
}

func (h *httpHandler) tooLarge(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	writeJSON(w, http.StatusRequestEntityTooLarge, encodeError(nil, Errorf(CodeInvalidRequest, "request body exceeds %d bytes", h.opts.MaxBodyBytes)))
}

// readAllLimited reads r to its end. With a known length (already checked
// against the limit) it allocates exactly once; io.ReadAll would double its
// buffer up to twice the body and leave the garbage behind.
func readAllLimited(r io.Reader, length int64) ([]byte, error) {
	if length < 0 {
		return io.ReadAll(r)
	}
	buf := make([]byte, length)
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, err
	}
	var one [1]byte // a body longer than announced is a broken request
	if n, _ := r.Read(one[:]); n > 0 {
		return nil, errors.New("body longer than Content-Length")
	}
	return buf, nil
}

func (h *httpHandler) post(w http.ResponseWriter, r *http.Request, rc *connControl) {
	body, ok := h.readBody(w, r, rc)
	if !ok {
		return
	}
	sess, gone := h.lookup(r, first(r.Header, HeaderSessionID))
	defer h.release(sess)
	if IsBatch(body) {
		h.batch(w, r, rc, body, sess)
		return
	}
	m, id, e := DecodeMessage(body)
	if e != nil { // ladder step 3: the JSON shape
		writeJSON(w, http.StatusBadRequest, encodeError(id, e))
		return
	}
	switch {
	case m.IsResponse():
		h.response(w, r, m, sess)
	case m.IsNotification():
		if sess != nil && m.Method == "notifications/cancelled" {
			h.running.cancel(first(r.Header, HeaderSessionID), m.Params)
		}
		w.WriteHeader(http.StatusAccepted) // never answered
	default:
		h.request(w, r, rc, m, sess, gone)
	}
}

// response accepts a client's answer to a server→client request (legacy);
// a modern client never sends one, so there it is -32600.
func (h *httpHandler) response(w http.ResponseWriter, r *http.Request, m *Message, sess *session) {
	if VersionEra(first(r.Header, protocolVersionKey)) == EraModern {
		writeJSON(w, http.StatusBadRequest, encodeError(m.ID, ladderErr(CodeInvalidRequest, "invalid request: responses are not accepted")))
		return
	}
	if sess != nil {
		sess.deliver(m)
	}
	w.WriteHeader(http.StatusAccepted)
}

func (h *httpHandler) batch(w http.ResponseWriter, r *http.Request, rc *connControl, body []byte, sess *session) {
	h.s.inflight.Add(1)
	defer h.s.inflight.Done()
	out := h.s.serveBatch(r.Context(), body, r.Header, sess)
	rc.renewWrite() // the batch's calls may have taken long
	switch {
	case out == nil:
		w.WriteHeader(http.StatusAccepted)
	case IsBatch(out):
		writeJSON(w, http.StatusOK, out)
	default: // a batch-level rejection
		writeJSON(w, http.StatusBadRequest, out)
	}
}

// request serves one JSON-RPC request; the response is JSON unless the
// handler emitted notifications first, which switches it to SSE.
func (h *httpHandler) request(w http.ResponseWriter, r *http.Request, rc *connControl, m *Message, sess *session, gone bool) {
	if waitsToPush(m.Method) && !h.toStream(w, r, rc) {
		return
	}
	h.s.inflight.Add(1)
	defer h.s.inflight.Done()
	ctx := r.Context()
	minted := sess == nil && !gone && m.Method == "initialize"
	if minted {
		if sess = h.mint(w); sess == nil {
			return
		}
		sess.owner = h.principal(r)
	}
	var run *runningCall
	if sess != nil && !minted {
		var done func()
		ctx, run, done = h.running.start(ctx, first(r.Header, HeaderSessionID), m.ID)
		defer done()
	}
	resp := newResponder(w, r, rc)
	defer resp.close()
	in := &inbound{msg: m, header: r.Header, sess: sess, sessionGone: gone, out: resp.sink(ctx, sess)}
	out := h.s.serve(ctx, in)
	if run != nil && run.cancelled.Load() {
		resp.abandon() // cancelled by the client: MUST NOT answer
		return
	}
	if minted && out.era == EraLegacy && !out.isErr {
		if !h.opts.LegacySessions {
			w.Header().Set(HeaderSessionID, h.sealSession(sess))
		} else if !h.register(sess) {
			tooManySessions(w)
			return
		} else {
			w.Header().Set(HeaderSessionID, sess.id)
		}
	}
	if out.body != nil {
		resp.finish(out.replyTo(w, r), out.body)
	}
}

func newSessionID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// mint starts the session of an initialize: a stateful one with
// LegacySessions (nil after a 503 when there is no room), else one whose
// id will be signed.
func (h *httpHandler) mint(w http.ResponseWriter) *session {
	if !h.opts.LegacySessions {
		return h.newSignedSession()
	}
	if !h.roomForSession() {
		tooManySessions(w)
		return nil
	}
	sess := newSession(newSessionID())
	sess.key = sess.id
	return sess
}

// lookup finds a legacy session and marks it used and busy until
// release. gone reports an id that
// was sent but is unknown, ended, expired or (signed) forged, which legacy
// clients must see as 404 so that they initialize again.
func (h *httpHandler) lookup(r *http.Request, sid string) (*session, bool) {
	if sid == "" {
		return nil, false
	}
	owner := h.principal(r)
	if !h.opts.LegacySessions {
		sess, ok := h.openSignedSession(sid, owner)
		return sess, !ok
	}
	now := h.now()
	h.mu.Lock()
	defer h.mu.Unlock()
	sess := h.sessions[sid]
	if sess != nil && sess.owner != owner {
		return nil, true // another principal's session: as if unknown
	}
	if sess != nil && h.expired(sess, now) {
		h.end(sess)
		sess = nil
	}
	if sess != nil {
		sess.touch(now)
		sess.active.Add(1)
	}
	return sess, sess == nil
}

// release ends a request's use of the session lookup found.
func (h *httpHandler) release(sess *session) {
	if sess != nil && h.opts.LegacySessions {
		sess.touch(h.now())
		sess.active.Add(-1)
	}
}

// expired reports a session idle for longer than SessionIdleTimeout; one
// serving a request or with an open GET stream is in use.
func (h *httpHandler) expired(sess *session, now time.Time) bool {
	idle := h.opts.SessionIdleTimeout
	return idle > 0 && !sess.busy() && now.Sub(sess.lastUsed()) > idle
}

// end removes a session and ends its GET streams; h.mu is held.
func (h *httpHandler) end(sess *session) {
	delete(h.sessions, sess.id)
	close(sess.gone)
	h.s.opened(OpenSession, -1)
}

// roomForSession reports whether a new session can fit under
// MaxSessions, before its initialize is served: see makeRoom.
func (h *httpHandler) roomForSession() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.makeRoom(h.now(), false)
}

// makeRoom reports whether a new session fits under MaxSessions. When the
// table is full it ends the expired sessions and, if that is not enough
// and evict is set, the least recently used idle one: abandoned sessions
// must not lock new clients out until they expire. Only when every
// session is busy is there no room. Expired sessions are otherwise ended
// by the sweep (http_sweep.go) or when their id comes back, so the table
// never holds more than MaxSessions. h.mu is held.
func (h *httpHandler) makeRoom(now time.Time, evict bool) bool {
	max := h.opts.MaxSessions
	if max <= 0 || len(h.sessions) < max {
		return true
	}
	var lru *session
	for _, sess := range h.sessions {
		switch {
		case h.expired(sess, now):
			h.end(sess)
		case sess.busy():
		case lru == nil || sess.used.Load() < lru.used.Load():
			lru = sess
		}
	}
	switch {
	case len(h.sessions) < max:
		return true
	case lru == nil:
		return false
	case evict:
		h.end(lru)
	}
	return true
}

// register adds a minted session, making room as makeRoom does: concurrent
// initializes may have filled the table meanwhile.
func (h *httpHandler) register(sess *session) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.makeRoom(h.now(), true) {
		return false
	}
	sess.touch(h.now())
	h.sessions[sess.id] = sess
	h.s.opened(OpenSession, 1)
	h.armSweep()
	return true
}

func tooManySessions(w http.ResponseWriter) {
	w.Header().Set("Retry-After", "60")
	writeJSON(w, http.StatusServiceUnavailable, encodeError(nil, Errorf(CodeInternalError, "too many sessions: every session the server may hold is busy; retry later")))
}
