package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
)

// runningCalls are the requests of 2025 sessions being served by one HTTP
// handler, by session id and request id, so that notifications/cancelled
// stops the call it names. The session id is part of the key: a client
// names only its own requests (request ids are small numbers every client
// repeats), and a session id is checked (owner, signature) before its
// notification gets here. Signed sessions keep nothing between requests,
// so the table lives in the handler: a cancel reaches a call only on the
// replica running it. Entries live as long as their request, so the cap
// on requests in flight bounds the table.
type runningCalls struct {
	mu    sync.Mutex
	calls map[string]*runningCall
}

// runningCall is one request that a notifications/cancelled may stop.
type runningCall struct {
	cancel    context.CancelFunc
	cancelled atomic.Bool // the client cancelled it: it must not be answered
}

func runningKey(sid string, id json.RawMessage) string { return sid + "\x00" + idKey(id) }

// start registers request id of session sid; the call runs under the
// returned context, which a cancel of that id ends. done unregisters it.
func (rc *runningCalls) start(ctx context.Context, sid string, id json.RawMessage) (_ context.Context, run *runningCall, done func()) {
	ctx, cancel := context.WithCancel(ctx)
	run = &runningCall{cancel: cancel}
	key := runningKey(sid, id)
	rc.mu.Lock()
	if rc.calls == nil {
		rc.calls = map[string]*runningCall{}
	}
	rc.calls[key] = run
	rc.mu.Unlock()
	return ctx, run, func() {
		rc.mu.Lock()
		if rc.calls[key] == run { // a reused id may have replaced it
			delete(rc.calls, key)
		}
		rc.mu.Unlock()
		cancel()
	}
}

// cancel handles a notifications/cancelled of session sid; an unknown or
// finished request id is ignored, as the 2025 revisions require.
func (rc *runningCalls) cancel(sid string, params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || p.RequestID == nil {
		return
	}
	rc.mu.Lock()
	run := rc.calls[runningKey(sid, p.RequestID)]
	rc.mu.Unlock()
	if run != nil {
		run.cancelled.Store(true)
		run.cancel()
	}
}

// endSession cancels every running call of session sid, which its client
// ended (DELETE): nobody is left to read their results, and what they
// would still do (later steps, writes) was not asked for by anyone.
func (rc *runningCalls) endSession(sid string) {
	prefix := sid + "\x00"
	rc.mu.Lock()
	var runs []*runningCall
	for key, run := range rc.calls {
		if strings.HasPrefix(key, prefix) {
			runs = append(runs, run)
		}
	}
	rc.mu.Unlock()
	for _, run := range runs {
		run.cancelled.Store(true)
		run.cancel()
	}
}

// abandon ends the response of a request the client cancelled without
// answering it: a stream already open just ends; otherwise the client gets
// an empty stream (or, when it takes no streams, 204), as the 2025
// revisions say a cancelled request gets no response.
func (p *responder) abandon() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || p.streaming {
		return
	}
	if p.canStream {
		p.startSSE()
		_ = p.rc.Flush()
		return
	}
	p.w.WriteHeader(http.StatusNoContent)
}
