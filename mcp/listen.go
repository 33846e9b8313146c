package mcp

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"
)

// ListKind selects list_changed notifications; values combine as a bit set.
type ListKind uint32

// List kinds for NotifyListChanged.
const (
	ToolsListChanged ListKind = 1 << iota
	PromptsListChanged
	ResourcesListChanged
)

var listMethods = [...]struct {
	kind   ListKind
	method string
}{
	{ToolsListChanged, "notifications/tools/list_changed"},
	{PromptsListChanged, "notifications/prompts/list_changed"},
	{ResourcesListChanged, "notifications/resources/list_changed"},
}

// keepAliveInterval spaces SSE comment keep-alives on idle listen and GET
// streams; a variable so tests can shorten it.
var keepAliveInterval = 25 * time.Second

// listener is one push destination: a modern subscriptions/listen stream or
// a legacy session (stdio, stateful HTTP GET stream). Broadcasting only sets
// bits and wakes the listener's own loop, so one slow client never delays the
// others and repeated list_changed coalesce (a list notification is an
// invalidation, not a delta).
type listener struct {
	kinds ListKind
	uris  map[string]bool // modern resourceSubscriptions
	sess  *session        // legacy: resources/subscribe state
	subID json.RawMessage // modern: the listen request id; nil for legacy

	pending atomic.Uint32
	wake    chan struct{}
	mu      sync.Mutex
	updated []string
	tasks   [][]byte                 // notifications/tasks to send, encoded
	encoded [len(listMethods)][]byte // list_changed messages, encoded once
}

func newListener(kinds ListKind, subID json.RawMessage) *listener {
	l := &listener{kinds: kinds, subID: subID, wake: make(chan struct{}, 1)}
	for i, lm := range listMethods {
		if kinds&lm.kind != 0 {
			l.encoded[i] = l.listChanged(lm.method)
		}
	}
	return l
}

// listChanged encodes a parameterless list_changed notification by hand:
// broadcasts to many listeners must not pay a reflective marshal each.
func (l *listener) listChanged(method string) []byte {
	b := append([]byte(`{"jsonrpc":"2.0","method":"`), method...)
	if l.subID == nil {
		return append(b, `"}`...)
	}
	b = append(b, `","params":{"_meta":{"`+MetaSubscriptionID+`":`...)
	b = append(b, l.subID...)
	return append(b, "}}}"...)
}

func (l *listener) poke() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

func (l *listener) wantsURI(uri string) bool {
	if l.sess != nil {
		return l.sess.subscribed(uri)
	}
	return l.uris[uri]
}

// drain writes everything pending, in a fixed order.
func (l *listener) drain(send func([]byte) error) error {
	bits := ListKind(l.pending.Swap(0))
	for i, lm := range listMethods {
		if bits&lm.kind != 0 && l.encoded[i] != nil {
			if err := send(l.encoded[i]); err != nil {
				return err
			}
		}
	}
	l.mu.Lock()
	uris, tasks := l.updated, l.tasks
	l.updated, l.tasks = nil, nil
	l.mu.Unlock()
	for _, msg := range tasks {
		if err := send(msg); err != nil {
			return err
		}
	}
	for _, u := range uris {
		if err := send(l.notification("notifications/resources/updated", map[string]any{"uri": u})); err != nil {
			return err
		}
	}
	return nil
}

// notification encodes a push message, tagged with the subscription id on
// modern streams.
func (l *listener) notification(method string, params map[string]any) []byte {
	if l.subID == nil {
		if params == nil {
			return encodeNotification(method, nil)
		}
		return encodeNotification(method, params)
	}
	if params == nil {
		params = map[string]any{}
	}
	params["_meta"] = map[string]json.RawMessage{MetaSubscriptionID: l.subID}
	return encodeNotification(method, params)
}

// registry is the set of live listeners.
type registry struct {
	mu sync.RWMutex
	m  map[*listener]struct{}
}

func (r *registry) init() { r.m = map[*listener]struct{}{} }

func (r *registry) add(l *listener) {
	r.mu.Lock()
	r.m[l] = struct{}{}
	r.mu.Unlock()
}

func (r *registry) remove(l *listener) {
	r.mu.Lock()
	delete(r.m, l)
	r.mu.Unlock()
}

// Listeners is the number of open push destinations (modern listen
// streams and legacy sessions that take notifications). A notification
// reaches only the destinations open when it is sent, so whoever must know
// that a client will hear the next one (a reload test) waits for its count.
func (s *Server) Listeners() int {
	s.listeners.mu.RLock()
	defer s.listeners.mu.RUnlock()
	return len(s.listeners.m)
}

// NotifyListChanged sends list_changed of the given kinds to every listener
// that opted in: modern subscriptions/listen streams, legacy stdio sessions
// and legacy stateful HTTP GET streams. Use it after swapping the handler's
// configuration (reload). It never blocks on a client.
func (s *Server) NotifyListChanged(kinds ListKind) {
	s.listeners.mu.RLock()
	defer s.listeners.mu.RUnlock()
	for l := range s.listeners.m {
		if k := kinds & l.kinds; k != 0 {
			l.pending.Or(uint32(k))
			l.poke()
		}
	}
}

// NotifyResourceUpdated sends notifications/resources/updated to listeners
// subscribed to uri (modern resourceSubscriptions, legacy resources/subscribe).
func (s *Server) NotifyResourceUpdated(uri string) {
	s.listeners.mu.RLock()
	defer s.listeners.mu.RUnlock()
	for l := range s.listeners.m {
		if l.wantsURI(uri) {
			l.mu.Lock()
			l.updated = append(l.updated, uri)
			l.mu.Unlock()
			l.poke()
		}
	}
}

// subscriptionFilter is SubscriptionFilter of 2026-07-28.
type subscriptionFilter struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitempty"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitempty"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitempty"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
	TaskIDs               []string `json:"taskIds,omitempty"` // the tasks extension
}

// honour keeps only what the server advertised, as the acknowledgment must
// report: requested ∩ offered.
func (f subscriptionFilter) honour(c *ServerCapabilities) (subscriptionFilter, ListKind) {
	var out subscriptionFilter
	var kinds ListKind
	if f.ToolsListChanged && c.Tools != nil && c.Tools.ListChanged {
		out.ToolsListChanged, kinds = true, kinds|ToolsListChanged
	}
	if f.PromptsListChanged && c.Prompts != nil && c.Prompts.ListChanged {
		out.PromptsListChanged, kinds = true, kinds|PromptsListChanged
	}
	if f.ResourcesListChanged && c.Resources != nil && c.Resources.ListChanged {
		out.ResourcesListChanged, kinds = true, kinds|ResourcesListChanged
	}
	if len(f.ResourceSubscriptions) > 0 && c.Resources != nil && c.Resources.Subscribe {
		out.ResourceSubscriptions = f.ResourceSubscriptions
	}
	return out, kinds
}

// servedURIs keeps the URIs the handler serves, when it can tell
// (ResourceLookup): a subscription to anything else is not honoured, as
// resources/subscribe refuses it.
func (s *Server) servedURIs(uris []string) []string {
	l, ok := s.h.(ResourceLookup)
	if !ok || len(uris) == 0 {
		return uris
	}
	var out []string
	for _, u := range uris {
		if l.HasResource(u) {
			out = append(out, u)
		}
	}
	return out
}

// runListen serves subscriptions/listen: acknowledge, then push until the
// client goes away (no response), or the server or stdio input ends (final
// result, preceded on stdio by notifications/cancelled).
func runListen(ctx context.Context, c *call) ([]byte, *Error) {
	var f subscriptionFilter
	if firstByte(c.p.Notifications) != '{' || json.Unmarshal(c.p.Notifications, &f) != nil {
		return nil, InvalidParams("subscriptions/listen needs a notifications filter object")
	}
	out := c.in.out
	if out.send == nil {
		return nil, Errorf(CodeInvalidRequest, "subscriptions/listen needs a streaming response (Accept: text/event-stream)")
	}
	if len(f.TaskIDs) > 0 && !c.req.DeclaresTasks() {
		return nil, MissingTasksExtension()
	}
	honoured, kinds := f.honour(&c.info.Capabilities)
	honoured.ResourceSubscriptions = c.s.servedURIs(honoured.ResourceSubscriptions)
	l := newListener(kinds, c.req.ID)
	var stopTasks func()
	honoured.TaskIDs, stopTasks = c.watchTasks(ctx, l, f.TaskIDs)
	defer stopTasks()
	if len(honoured.ResourceSubscriptions) > 0 {
		l.uris = map[string]bool{}
		for _, u := range honoured.ResourceSubscriptions {
			l.uris[u] = true
		}
	}
	ack := l.notification("notifications/subscriptions/acknowledged", map[string]any{"notifications": honoured})
	if out.send(ack) != nil {
		return nil, nil
	}
	c.s.listeners.add(l)
	defer c.s.listeners.remove(l)
	c.s.opened(OpenListen, 1)
	defer c.s.opened(OpenListen, -1)
	if c.s.pushLoop(ctx, l, out) {
		return nil, nil // the client left or cancelled: nothing more may be sent
	}
	if c.in.stdio {
		_ = out.send(encodeNotification("notifications/cancelled",
			map[string]any{"requestId": c.req.ID, "reason": "server shutting down"}))
	}
	m := resultMeta(nil, c.s.serverMeta(c.info), map[string]any{MetaSubscriptionID: c.req.ID})
	return splice([]byte("{}"), []byte(`"resultType":"complete"`), field("_meta", m)), nil
}

// pushLoop forwards a listener's notifications until the stream ends. It
// reports true when the client side ended it (ctx or a failed write) and
// false when the server is shutting down or stdio input reached EOF.
func (s *Server) pushLoop(ctx context.Context, l *listener, out sink) bool {
	var tick <-chan time.Time
	if out.comment != nil {
		t := time.NewTicker(keepAliveInterval)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-l.wake:
			if l.drain(out.send) != nil {
				return true
			}
		case <-tick:
			if out.comment() != nil {
				return true
			}
		case <-ctx.Done():
			return true
		case <-s.closing:
			return false
		case <-out.ending:
			return false
		}
	}
}
