package mcp

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"
)

// session is legacy state that outlives one request: a stdio process after
// initialize, or a stateful HTTP session. Modern requests never read it
// (the modern era is stateless).
type session struct {
	id    string // Mcp-Session-Id; "" on stdio
	owner string // the principal that initialized it (HTTPOptions.Principal)
	// key is 128 random bits in hex that no other session shares: the
	// stateful id itself, or the random part sealed in a signed id; ""
	// on stdio. Request.Session carries it for owner checks.
	key string
	// signed marks the session of one request under a signed id: nothing
	// outlives the request, so nothing can be pushed to the client later.
	signed bool

	mu          sync.Mutex
	version     string
	initialized bool
	caps        ClientCapabilities
	info        *Implementation
	logLevel    string
	subs        map[string]bool
	pending     *pendingCalls                 // server→client requests awaiting answers
	cancels     map[string]context.CancelFunc // in-flight requests, for notifications/cancelled
	gone        chan struct{}                 // closed when an HTTP session is deleted

	lis *listener // list_changed / resources/updated for this session

	// HTTP sessions expire when idle: last use (unix ns), open GET streams
	// and requests being served.
	used    atomic.Int64
	streams atomic.Int32
	active  atomic.Int32
}

func (ss *session) touch(now time.Time) { ss.used.Store(now.UnixNano()) }

// busy reports a request being served or a GET stream open: such a
// session is neither expired nor ended to make room.
func (ss *session) busy() bool { return ss.active.Load() > 0 || ss.streams.Load() > 0 }

func (ss *session) lastUsed() time.Time { return time.Unix(0, ss.used.Load()) }

func newSession(id string) *session {
	return &session{id: id, subs: map[string]bool{}, pending: newPendingCalls(false),
		cancels: map[string]context.CancelFunc{}, gone: make(chan struct{})}
}

// track registers a request's cancel func under its id; the returned func
// unregisters it.
func (ss *session) track(id json.RawMessage, cancel context.CancelFunc) func() {
	key := idKey(id)
	ss.mu.Lock()
	ss.cancels[key] = cancel
	ss.mu.Unlock()
	return func() {
		ss.mu.Lock()
		delete(ss.cancels, key)
		ss.mu.Unlock()
	}
}

// cancel handles notifications/cancelled; unknown or finished ids are
// ignored.
func (ss *session) cancel(params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || p.RequestID == nil {
		return
	}
	ss.mu.Lock()
	cancel := ss.cancels[idKey(p.RequestID)]
	ss.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

func (ss *session) negotiated() string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.version
}

func (ss *session) initialize(version string, caps ClientCapabilities, info *Implementation) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.version, ss.caps, ss.info, ss.initialized = version, caps, info, true
}

func (ss *session) clientState() (ClientCapabilities, string, *Implementation) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.caps, ss.logLevel, ss.info
}

func (ss *session) setLogLevel(l string) {
	ss.mu.Lock()
	ss.logLevel = l
	ss.mu.Unlock()
}

// maxSubscriptions bounds the URIs one session may subscribe to, so that
// a session's memory stays small however many URIs a client sends.
const maxSubscriptions = 1000

// subscribe records resources/subscribe and /unsubscribe; the session's
// listener consults the set when resources/updated is broadcast. It
// reports false when a new subscription would pass maxSubscriptions.
func (ss *session) subscribe(uri string, on bool) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if !on {
		delete(ss.subs, uri)
		return true
	}
	if !ss.subs[uri] && len(ss.subs) >= maxSubscriptions {
		return false
	}
	ss.subs[uri] = true
	return true
}

func (ss *session) subscribed(uri string) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.subs[uri]
}

// call sends a server→client request through send and waits for the client's
// response, which the transport hands to deliver.
func (ss *session) call(ctx context.Context, send func([]byte) error, method string, params any) (json.RawMessage, error) {
	return ss.pending.call(ctx, ss.key, send, method, params)
}

// deliver routes a client response to the waiting call; unknown ids are
// ignored, as late answers to cancelled calls are normal.
func (ss *session) deliver(m *Message) bool {
	return ss.pending.deliver(ss.key, m)
}
