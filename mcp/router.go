package mcp

import (
	"context"
	"encoding/json"
	"net/http"
)

// params is the union of every params object the server accepts, decoded
// once per request. Fields a method does not use are simply ignored.
type params struct {
	Meta           *requestMeta    `json:"_meta"`
	Name           string          `json:"name"`
	URI            string          `json:"uri"`
	Cursor         *string         `json:"cursor"`
	Arguments      rawRef          `json:"arguments"` // rawRef: the largest parts are not copied
	Notifications  json.RawMessage `json:"notifications"`
	InputResponses rawRef          `json:"inputResponses"`
	RequestState   string          `json:"requestState"`
	Level          string          `json:"level"`
	RequestID      json.RawMessage `json:"requestId"`
	TaskID         string          `json:"taskId"`
	Task           json.RawMessage `json:"task"` // 2025-11-25 task augmentation of tools/call
	// initialize
	ProtocolVersion string          `json:"protocolVersion"`
	Capabilities    json.RawMessage `json:"capabilities"`
	ClientInfo      json.RawMessage `json:"clientInfo"`
}

// decodeParams decodes params with encoding/json, for messages
// DecodeMessage did not read params of and for the words of its -32602. On
// a type error it still recovers _meta so that classification works, and
// reports -32602 for later.
func decodeParams(raw json.RawMessage, p *params) *Error {
	if len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, p); err != nil {
		var onlyMeta struct {
			Meta *requestMeta `json:"_meta"`
		}
		_ = json.Unmarshal(raw, &onlyMeta)
		*p = params{Meta: onlyMeta.Meta}
		return InvalidParams("invalid params: %v", err)
	}
	return nil
}

// inbound is one decoded message plus what its transport knows about it.
type inbound struct {
	msg    *Message
	header http.Header // nil on stdio
	sess   *session    // legacy session state; nil when stateless
	out    sink        // this request's response stream
	stdio  bool

	// sessionGone marks an Mcp-Session-Id that is unknown or ended; legacy
	// requests then get 404 so the client re-initializes.
	sessionGone bool
}

// outcome is what a transport writes back. body is nil when nothing must be
// sent (notifications, responses, an abandoned listen stream).
type outcome struct {
	body    []byte
	status  int
	isErr   bool
	era     Era
	version string
	// httpReply is the error's own HTTP status and headers, if any.
	httpReply HTTPReply
}

// serve runs one request through the validation ladder and dispatches it.
// The ladder's steps, numbered in the comments of this package: 1 Origin
// and Host, 2 HTTP method, 3 JSON shape (these belong to the transports;
// serve starts at era classification), 4–6 era classification and the
// modern _meta claims, 7 the MCP-Protocol-Version header, 8 a supported
// revision, 9 the Mcp-Method/Mcp-Name headers, 10 the method exists in the
// era, 11 the client's capabilities, 12 headers mirrored from arguments,
// 13 dispatch.
func (s *Server) serve(ctx context.Context, in *inbound) outcome {
	m := in.msg
	p, perr := &m.params, m.paramsErr
	if !m.paramsRead {
		p = new(params)
		perr = decodeParams(m.Params, p)
	}
	era := s.classify(in, p)
	if s.onRequest != nil {
		s.onRequest(era.String(), methodLabel(m.Method))
	}
	var (
		req *Request
		e   *Error
	)
	if era == EraModern {
		req, e = s.modernLadder(in, p)
	} else if in.sessionGone {
		o := s.errorOutcome(m.ID, ladderErr(CodeInvalidRequest, "session not found"), era, "")
		o.status = http.StatusNotFound
		return o
	} else {
		req, e = s.legacyLadder(in, p)
	}
	if e == nil && perr != nil {
		e = perr
	}
	version := ""
	if req != nil {
		version = req.ProtocolVersion
	}
	if e != nil {
		return s.errorOutcome(m.ID, e, era, version)
	}
	body, whole, e := s.dispatch(ctx, in, p, req)
	if e != nil {
		return s.errorOutcome(m.ID, e, era, version)
	}
	if body == nil {
		return outcome{era: era, version: version}
	}
	if !whole {
		body = encodeResult(m.ID, body)
	}
	return outcome{body: body, status: http.StatusOK, era: era, version: version}
}

func (s *Server) errorOutcome(id json.RawMessage, e *Error, era Era, version string) outcome {
	e = shapeError(e, era)
	return outcome{body: encodeError(id, e), status: e.HTTPStatus(era == EraModern), isErr: true, era: era, version: version, httpReply: e.httpReply}
}

// classify is ladder steps 4–6: a _meta protocolVersion claim is modern; a modern
// header or a modern-only method without the claim is malformed modern (the
// ladder then answers -32602); everything else is legacy.
func (s *Server) classify(in *inbound, p *params) Era {
	if p.Meta.claimsModern() {
		return EraModern
	}
	if in.header != nil && VersionEra(first(in.header, protocolVersionKey)) == EraModern {
		return EraModern
	}
	switch in.msg.Method {
	case "server/discover", "subscriptions/listen":
		return EraModern
	}
	return EraLegacy
}

// modernLadder is ladder steps 5–12 for a request classified modern.
func (s *Server) modernLadder(in *inbound, p *params) (*Request, *Error) {
	hv, hasHV := "", false
	if in.header != nil {
		if vs := in.header[protocolVersionKey]; len(vs) > 0 {
			hv, hasHV = vs[0], true
			if !s.versions.offers[hv] { // step 5: an unsupported header wins over a mismatch
				return nil, versionErr(hv, s.versions.list)
			}
		}
	}
	version, caps, e := p.Meta.checkRequired() // step 6
	if e != nil {
		return nil, e
	}
	if in.header != nil { // step 7
		if !hasHV {
			return nil, ladderErr(CodeHeaderMismatch, "header %s is required", HeaderProtocolVersion)
		}
		if hv != version {
			return nil, ladderErr(CodeHeaderMismatch, "header %s %q does not match _meta protocolVersion %q",
				HeaderProtocolVersion, hv, version)
		}
	}
	if !s.versions.offersModern(version) { // step 8
		return nil, versionErr(version, s.versions.list)
	}
	if in.header != nil { // step 9
		if e := checkMethodHeaders(in.header, in.msg.Method, p); e != nil {
			return nil, e
		}
	}
	spec, e := s.lookup(in.msg.Method, EraModern, version) // step 10
	if e != nil {
		return nil, e
	}
	req, e := s.modernRequest(in, p, version, caps)
	if e != nil {
		return nil, e
	}
	if spec.needs != nil { // step 11
		if e := spec.needs(req, p); e != nil {
			return nil, e
		}
	}
	if in.header != nil && in.msg.Method == "tools/call" { // step 12
		if e := checkParamHeaders(in.header, s.toolHeaderParams(p.Name), json.RawMessage(p.Arguments)); e != nil {
			return nil, e
		}
	}
	return req, nil
}

// modernRequest builds the handler's view of a modern request.
func (s *Server) modernRequest(in *inbound, p *params, version string, caps ClientCapabilities) (*Request, *Error) {
	lvl, e := p.Meta.parseLogLevel()
	if e != nil {
		e.ladder = true
		return nil, e
	}
	if !validProgressToken(p.Meta.ProgressToken) {
		return nil, ladderErr(CodeInvalidParams, "progressToken must be a string or an integer")
	}
	req := &Request{Method: in.msg.Method, ID: in.msg.ID, Era: EraModern, ProtocolVersion: version,
		ClientCapabilities: caps, ProgressToken: p.Meta.ProgressToken, LogLevel: lvl, Header: in.header}
	req.Trace = p.Meta.traceContext()
	if ci := p.Meta.ClientInfo; ci != nil {
		var impl Implementation
		if json.Unmarshal(ci, &impl) == nil {
			req.ClientInfo = &impl
		}
	}
	return req, nil
}

// legacyLadder picks the legacy revision a request is served under: the
// HTTP header, else the session's negotiated version, else 2025-03-26.
func (s *Server) legacyLadder(in *inbound, p *params) (*Request, *Error) {
	version := ""
	if in.header != nil {
		if hv := first(in.header, protocolVersionKey); hv != "" {
			if !s.versions.offersLegacy(hv) {
				return nil, versionErr(hv, s.versions.list)
			}
			version = hv
		}
	}
	if version == "" && in.sess != nil {
		version = in.sess.negotiated()
	}
	if version == "" {
		version = s.defaultLegacy()
	}
	if version == "" { // a modern-only server: name what it supports
		return nil, versionErr(Version20250326, s.versions.list)
	}
	if _, e := s.lookup(in.msg.Method, EraLegacy, version); e != nil {
		return nil, e
	}
	req := &Request{Method: in.msg.Method, ID: in.msg.ID, Era: EraLegacy, ProtocolVersion: version, Header: in.header}
	req.Trace = p.Meta.traceContext()
	if in.sess != nil {
		req.ClientCapabilities, req.LogLevel, req.ClientInfo = in.sess.clientState()
		req.Session = in.sess.key
	}
	if p.Meta != nil && p.Meta.ProgressToken != nil && validProgressToken(p.Meta.ProgressToken) {
		req.ProgressToken = p.Meta.ProgressToken
	}
	return req, nil
}

// defaultLegacy is 2025-03-26 when offered (the transport rule for a missing
// header), else the oldest offered legacy revision.
func (s *Server) defaultLegacy() string {
	l := s.versions.legacyList()
	if len(l) == 0 {
		return ""
	}
	return l[len(l)-1]
}

// toolHeaderParams finds the Mcp-Param-* mapping of a tool, through the
// optional ToolHeaderLookup fast path when the handler has one.
func (s *Server) toolHeaderParams(name string) map[string]string {
	if l, ok := s.h.(ToolHeaderLookup); ok {
		return l.ToolHeaderParams(name)
	}
	return nil
}

// methodLabel is method if the server knows it, else "other": what a
// client sends must not become a new label value.
func methodLabel(method string) string {
	if methods[method] == nil {
		return "other"
	}
	return method
}
