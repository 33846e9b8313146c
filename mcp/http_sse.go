package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
)

// errStreamClosed is returned for writes after the response ended; handler
// goroutines may outlive ServeHTTP and must not touch the ResponseWriter.
var errStreamClosed = errors.New("mcp: response stream closed")

// responder writes one POST's answer: plain JSON, or an SSE stream once the
// handler sends a notification before its result.
type responder struct {
	w         http.ResponseWriter
	rc        *connControl
	mu        sync.Mutex
	canStream bool // the client's Accept lists text/event-stream
	streaming bool
	closed    bool
}

func newResponder(w http.ResponseWriter, r *http.Request, rc *connControl) *responder {
	return &responder{w: w, rc: rc, canStream: acceptsSSE(r)}
}

// acceptsSSE is lenient on purpose: an over-strict Accept check breaks
// clients. A client that cannot take SSE just gets no notifications.
func acceptsSSE(r *http.Request) bool {
	for _, v := range r.Header["Accept"] {
		if strings.Contains(v, "text/event-stream") || strings.Contains(v, "*/*") {
			return true
		}
	}
	return false
}

func (p *responder) startSSE() {
	h := p.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	p.w.WriteHeader(http.StatusOK)
	p.streaming = true
}

// event writes one SSE event without an id: streams are not resumable.
func (p *responder) event(b []byte) error {
	if p.closed {
		return errStreamClosed
	}
	if !p.streaming {
		p.startSSE()
	}
	buf := make([]byte, 0, len(b)+24)
	buf = append(buf, "event: message\ndata: "...)
	buf = append(buf, b...)
	buf = append(buf, "\n\n"...)
	p.rc.renewWrite()
	if _, err := p.w.Write(buf); err != nil {
		return err
	}
	return p.rc.Flush()
}

func (p *responder) send(b []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.event(b)
}

func (p *responder) comment() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return errStreamClosed
	}
	if !p.streaming {
		p.startSSE()
	}
	p.rc.renewWrite()
	if _, err := p.w.Write([]byte(":\n\n")); err != nil {
		return err
	}
	return p.rc.Flush()
}

// finish writes the final response: as the last event of a started stream,
// else as JSON with the ladder's status.
func (p *responder) finish(status int, body []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	if p.streaming {
		_ = p.event(body)
		return
	}
	p.rc.renewWrite()
	writeJSON(p.w, status, body)
}

func (p *responder) close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
}

// sink exposes the responder to the router. Server→client requests ride the
// same stream, which legacy allows and only legacy sessions can answer.
func (p *responder) sink(ctx context.Context, sess *session) sink {
	out := sink{comment: p.comment}
	if p.canStream {
		out.send = p.send
	}
	if sess != nil && out.send != nil {
		out.call = func(ctx context.Context, method string, params any) (json.RawMessage, error) {
			return sess.call(ctx, p.send, method, params)
		}
	}
	return out
}

// get serves a legacy session's GET stream: list_changed and
// resources/updated for that session until it ends.
func (h *httpHandler) get(w http.ResponseWriter, r *http.Request, sid string) {
	sess, gone := h.lookup(r, sid)
	defer h.release(sess)
	if gone {
		writeJSON(w, http.StatusNotFound, encodeError(nil, Errorf(CodeInvalidRequest, "session not found")))
		return
	}
	if !acceptsSSE(r) {
		writeJSON(w, http.StatusNotAcceptable, encodeError(nil, Errorf(CodeInvalidRequest, "GET needs Accept: text/event-stream")))
		return
	}
	sess.streams.Add(1) // an open stream keeps its session from expiring
	defer func() {
		sess.touch(h.now())
		sess.streams.Add(-1)
	}()
	resp := newResponder(w, r, newConnControl(w, h.opts.WriteTimeout))
	defer resp.close()
	if resp.comment() != nil { // opens the stream so the client sees 200 now
		return
	}
	caps := h.s.h.Info().Capabilities
	l := h.s.legacyListener(&caps, sess)
	h.s.listeners.add(l)
	defer h.s.listeners.remove(l)
	h.s.opened(OpenGetStream, 1)
	defer h.s.opened(OpenGetStream, -1)
	// The session's end ends the stream through the loop's own select,
	// not a goroutine of its own per stream.
	h.s.pushLoop(r.Context(), l, sink{send: resp.send, comment: resp.comment, ending: sess.gone})
}

// delete ends a legacy session.
func (h *httpHandler) delete(w http.ResponseWriter, r *http.Request, sid string) {
	owner := h.principal(r)
	h.mu.Lock()
	sess := h.sessions[sid]
	if sess != nil && sess.owner != owner {
		sess = nil // another principal's session: as if unknown
	}
	if sess != nil {
		h.end(sess)
	}
	h.mu.Unlock()
	if sess == nil {
		writeJSON(w, http.StatusNotFound, encodeError(nil, Errorf(CodeInvalidRequest, "session not found")))
		return
	}
	h.running.endSession(sid)
	w.WriteHeader(http.StatusNoContent)
}

// corsHeaders lets browser clients read and send the MCP headers.
// Only called for origins originOK accepted.
func (h *httpHandler) corsHeaders(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Access-Control-Allow-Origin", r.Header.Get("Origin"))
	hd.Add("Vary", "Origin")
	hd.Set("Access-Control-Allow-Methods", "POST, GET, DELETE, OPTIONS")
	allow := "Content-Type, Accept, Authorization, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID"
	if req := r.Header.Get("Access-Control-Request-Headers"); req != "" {
		// Mcp-Param-{Name} headers are open-ended, so echo the requested ones.
		for _, f := range strings.Split(req, ",") {
			if f = strings.TrimSpace(f); strings.HasPrefix(strings.ToLower(f), "mcp-param-") {
				allow += ", " + f
			}
		}
	}
	hd.Set("Access-Control-Allow-Headers", allow)
	hd.Set("Access-Control-Expose-Headers", "Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate")
	hd.Set("Access-Control-Max-Age", "600")
}
