package mcp

import (
	"context"
	"encoding/json"
	"net/http"
)

// batchAllowed reports whether a JSON-RPC batch may be served: only under
// 2025-03-26, i.e. no (or a 2025-03-26) version header on HTTP, and a stdio
// session that negotiated 2025-03-26 or has not negotiated yet.
func (s *Server) batchAllowed(h http.Header, sess *session) bool {
	if !s.versions.offersLegacy(Version20250326) {
		return false
	}
	if h != nil {
		v := first(h, protocolVersionKey)
		return v == "" || v == Version20250326
	}
	v := ""
	if sess != nil {
		v = sess.negotiated()
	}
	return v == "" || v == Version20250326
}

// serveBatch answers a batch array. Elements are served in order under the
// legacy rules; initialize and modern requests are refused per element
// (initialize MUST NOT be batched; modern has no batches). It returns nil
// when nothing needs an answer (only notifications and responses).
func (s *Server) serveBatch(ctx context.Context, body []byte, h http.Header, sess *session) []byte {
	var elems []rawRef // elements point into body, not copies of it
	if err := json.Unmarshal(body, &elems); err != nil {
		return encodeError(nil, ladderErr(CodeParseError, "parse error: body is not valid JSON"))
	}
	if !s.batchAllowed(h, sess) {
		return encodeError(nil, ladderErr(CodeInvalidRequest, "invalid request: JSON-RPC batches are only accepted for 2025-03-26"))
	}
	if len(elems) == 0 {
		return encodeError(nil, ladderErr(CodeInvalidRequest, "invalid request: empty batch"))
	}
	var out [][]byte
	for _, raw := range elems {
		if b := s.serveBatchElem(ctx, json.RawMessage(raw), h, sess); b != nil {
			out = append(out, b)
		}
	}
	if len(out) == 0 {
		return nil
	}
	res := []byte{'['}
	for i, b := range out {
		if i > 0 {
			res = append(res, ',')
		}
		res = append(res, b...)
	}
	return append(res, ']')
}

func (s *Server) serveBatchElem(ctx context.Context, raw json.RawMessage, h http.Header, sess *session) []byte {
	m, id, e := DecodeMessage(raw)
	if e != nil {
		return encodeError(id, e)
	}
	if m.IsResponse() {
		if sess != nil {
			sess.deliver(m)
		}
		return nil
	}
	if m.IsNotification() {
		return nil
	}
	if m.Method == "initialize" || m.params.Meta.claimsModern() {
		return encodeError(m.ID, ladderErr(CodeInvalidRequest, "invalid request: %s may not be sent in a batch", m.Method))
	}
	s.inflight.Add(1)
	defer s.inflight.Done()
	// No streaming inside a batch: progress and log notifications are dropped.
	return s.serve(ctx, &inbound{msg: m, header: h, sess: sess}).body
}
