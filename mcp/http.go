package mcp

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// DefaultMaxBodyBytes is the default POST body limit (4 MiB, as go-sdk).
const DefaultMaxBodyBytes = 4 << 20

// HTTPOptions configure the Streamable HTTP handler.
type HTTPOptions struct {
	// MaxBodyBytes limits a POST body; larger bodies get 413. Default 4 MiB.
	MaxBodyBytes int64

	// Loopback forces DNS-rebinding protection (Host must be localhost,
	// 127.0.0.1 or [::1]) even when the listener address is unknown. The
	// check is on automatically when the connection's local address is a
	// loopback address. AllowedHosts extends the accepted Host names.
	Loopback     bool
	AllowedHosts []string

	// AllowedOrigins are exact origins ("https://app.example") accepted in
	// addition to same-host origins and, on loopback, loopback origins. A
	// request with any other Origin gets 403 (§A5 Security).
	AllowedOrigins []string

	// CORS answers preflight requests and adds CORS headers for accepted
	// origins, exposing the MCP headers browsers need (§D9).
	CORS bool

	// LegacySessions enables stateful legacy sessions: initialize mints an
	// Mcp-Session-Id, GET opens the session's SSE stream (list_changed,
	// resources/updated) and DELETE ends it. Without it legacy clients are
	// served statelessly and GET/DELETE get 405, as modern requires.
	LegacySessions bool
}

// HTTPHandler returns the Streamable HTTP handler serving both eras on one
// endpoint. opts may be nil. Mount it at the MCP endpoint path; health
// checks and auth middleware are the caller's business.
func (s *Server) HTTPHandler(opts *HTTPOptions) http.Handler {
	h := &httpHandler{s: s, sessions: map[string]*session{}}
	if opts != nil {
		h.opts = *opts
	}
	if h.opts.MaxBodyBytes <= 0 {
		h.opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	return h
}

type httpHandler struct {
	s        *Server
	opts     HTTPOptions
	mu       sync.Mutex
	sessions map[string]*session
}

// ServeHTTP implements http.Handler: §A4 steps 1–2 here, the rest in post.
func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.hostOK(r) || !h.originOK(r) {
		writeJSON(w, http.StatusForbidden, encodeError(nil, Errorf(CodeInvalidRequest, "forbidden: Host or Origin not allowed")))
		return
	}
	if h.opts.CORS && r.Header.Get("Origin") != "" {
		h.corsHeaders(w, r)
	}
	if h.s.isClosing() {
		writeJSON(w, http.StatusServiceUnavailable, encodeError(nil, Errorf(CodeInternalError, "server is shutting down")))
		return
	}
	sid := r.Header.Get(HeaderSessionID)
	switch {
	case r.Method == http.MethodPost:
		h.post(w, r)
	case r.Method == http.MethodOptions && h.opts.CORS:
		w.WriteHeader(http.StatusNoContent)
	case r.Method == http.MethodGet && h.opts.LegacySessions && sid != "":
		h.get(w, r, sid)
	case r.Method == http.MethodDelete && h.opts.LegacySessions && sid != "":
		h.delete(w, sid)
	default:
		w.Header().Set("Allow", "POST")
		writeJSON(w, http.StatusMethodNotAllowed, encodeError(nil, Errorf(CodeInvalidRequest, "method %s not allowed", r.Method)))
	}
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// readBody enforces Content-Type and the body limit.
func (h *httpHandler) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			writeJSON(w, http.StatusUnsupportedMediaType, encodeError(nil, Errorf(CodeInvalidRequest, "Content-Type must be application/json")))
			return nil, false
		}
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.opts.MaxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeJSON(w, http.StatusRequestEntityTooLarge, encodeError(nil, Errorf(CodeInvalidRequest, "request body exceeds %d bytes", h.opts.MaxBodyBytes)))
		} else {
			writeJSON(w, http.StatusBadRequest, encodeError(nil, Errorf(CodeInvalidRequest, "reading body: %v", err)))
		}
		return nil, false
	}
	return body, true
}

func (h *httpHandler) post(w http.ResponseWriter, r *http.Request) {
	body, ok := h.readBody(w, r)
	if !ok {
		return
	}
	sess, gone := h.lookup(r.Header.Get(HeaderSessionID))
	if IsBatch(body) {
		h.batch(w, r, body, sess)
		return
	}
	m, id, e := DecodeMessage(body)
	if e != nil { // §A4 step 3
		writeJSON(w, http.StatusBadRequest, encodeError(id, e))
		return
	}
	switch {
	case m.IsResponse():
		h.response(w, r, m, sess)
	case m.IsNotification():
		if sess != nil && m.Method == "notifications/cancelled" {
			sess.cancel(m.Params)
		}
		w.WriteHeader(http.StatusAccepted) // never answered (§D2)
	default:
		h.request(w, r, m, sess, gone)
	}
}

// response accepts a client's answer to a server→client request (legacy);
// a modern client never sends one, so there it is -32600 (§A4).
func (h *httpHandler) response(w http.ResponseWriter, r *http.Request, m *Message, sess *session) {
	if VersionEra(r.Header.Get(HeaderProtocolVersion)) == EraModern {
		writeJSON(w, http.StatusBadRequest, encodeError(m.ID, ladderErr(CodeInvalidRequest, "invalid request: responses are not accepted")))
		return
	}
	if sess != nil {
		sess.deliver(m)
	}
	w.WriteHeader(http.StatusAccepted)
}

func (h *httpHandler) batch(w http.ResponseWriter, r *http.Request, body []byte, sess *session) {
	h.s.inflight.Add(1)
	defer h.s.inflight.Done()
	out := h.s.serveBatch(r.Context(), body, r.Header, sess)
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
func (h *httpHandler) request(w http.ResponseWriter, r *http.Request, m *Message, sess *session, gone bool) {
	h.s.inflight.Add(1)
	defer h.s.inflight.Done()
	ctx := r.Context()
	minted := h.opts.LegacySessions && sess == nil && !gone && m.Method == "initialize"
	if minted {
		sess = newSession(newSessionID())
	}
	resp := newResponder(w, r)
	defer resp.close()
	in := &inbound{msg: m, header: r.Header, sess: sess, sessionGone: gone, out: resp.sink(ctx, sess)}
	out := h.s.serve(ctx, in)
	if minted && out.era == EraLegacy && !out.isErr {
		h.mu.Lock()
		h.sessions[sess.id] = sess
		h.mu.Unlock()
		w.Header().Set(HeaderSessionID, sess.id)
	}
	if out.body != nil {
		resp.finish(out.status, out.body)
	}
}

func newSessionID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// lookup finds a legacy session. gone reports an id that was sent but is
// unknown or ended, which legacy clients must see as 404 (§B3).
func (h *httpHandler) lookup(sid string) (*session, bool) {
	if !h.opts.LegacySessions || sid == "" {
		return nil, false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	sess := h.sessions[sid]
	return sess, sess == nil
}

// hostOK is the DNS-rebinding check for loopback listeners.
func (h *httpHandler) hostOK(r *http.Request) bool {
	if !h.opts.Loopback && !localIsLoopback(r) {
		return true
	}
	host := r.Host
	if hn, _, err := net.SplitHostPort(host); err == nil {
		host = hn
	}
	host = strings.Trim(host, "[]")
	if isLoopbackName(host) {
		return true
	}
	for _, a := range h.opts.AllowedHosts {
		if strings.EqualFold(a, host) || strings.EqualFold(a, r.Host) {
			return true
		}
	}
	return false
}

func localIsLoopback(r *http.Request) bool {
	a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	ta, ok := a.(*net.TCPAddr)
	return ok && ta.IP.IsLoopback()
}

func isLoopbackName(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// originOK accepts no Origin (non-browser clients), listed origins,
// same-host origins, and loopback origins on a loopback server.
func (h *httpHandler) originOK(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		return true
	}
	for _, a := range h.opts.AllowedOrigins {
		if a == o {
			return true
		}
	}
	u, err := url.Parse(o)
	if err != nil || u.Host == "" {
		return false
	}
	if h.opts.Loopback || localIsLoopback(r) {
		return isLoopbackName(u.Hostname())
	}
	return strings.EqualFold(u.Host, r.Host)
}
