package mcp

import "bytes"

// msgDecoder reads a message and a request's params in one pass, with the
// outcome encoding/json gives when it decodes the body into the message
// struct and then the params into the params struct.
type msgDecoder struct {
	r jsonReader
	m *Message

	// wrongType marks a member encoding/json would refuse (a method that
	// is not a string, a body that is not an object): -32600.
	wrongType bool
	// paramsWrong marks such a member in params: -32602 after the ladder.
	paramsWrong bool
}

// Field names, in the order of the constants that index them. encoding/json
// matches keys exactly or else case-insensitively, so fieldOf does too.
var (
	envelopeFields = fieldNames("jsonrpc", "id", "method", "params", "result", "error")
	paramFields    = fieldNames("_meta", "name", "uri", "cursor", "arguments", "notifications", "inputResponses",
		"requestState", "level", "requestId", "protocolVersion", "capabilities", "clientInfo", "taskId", "task")
	metaFields = fieldNames(MetaProtocolVersion, MetaClientCapabilities, MetaClientInfo, MetaLogLevel, MetaProgressToken,
		MetaTraceParent, MetaTraceState, MetaHops)
)

const (
	fJSONRPC = iota
	fID
	fMethod
	fParams
	fResult
	fError
)

const (
	pMeta = iota
	pName
	pURI
	pCursor
	pArguments
	pNotifications
	pInputResponses
	pRequestState
	pLevel
	pRequestID
	pProtocolVersion
	pCapabilities
	pClientInfo
	pTaskID
	pTask
)

const (
	mProtocolVersion = iota
	mClientCapabilities
	mClientInfo
	mLogLevel
	mProgressToken
	mTraceParent
	mTraceState
	mHops
)

func fieldNames(names ...string) [][]byte {
	out := make([][]byte, len(names))
	for i, n := range names {
		out[i] = []byte(n)
	}
	return out
}

// fieldOf is the index of the field key names, -1 for none: an exact
// match, else one under Unicode case folding (encoding/json's rule, so
// "Method" and "ſtring" find "method" and "string").
func fieldOf(key []byte, names [][]byte) int {
	for i, n := range names {
		if string(key) == string(n) {
			return i
		}
	}
	for i, n := range names {
		if bytes.EqualFold(key, n) {
			return i
		}
	}
	return -1
}

// message reads the whole text; false means it is not JSON.
func (d *msgDecoder) message() bool {
	r := &d.r
	var ok bool
	switch r.peek() {
	case '{':
		ok = r.object(1, d.member)
	case 'n': // null decodes into nothing, leaving every field empty
		ok = r.literal("null")
	default:
		d.wrongType = true
		ok = r.skip(0)
	}
	return ok && r.atEnd()
}

func (d *msgDecoder) member(key []byte) bool {
	m, r := d.m, &d.r
	ok := true
	switch fieldOf(key, envelopeFields) {
	case fJSONRPC:
		return d.stringMember(&m.JSONRPC, 1, &d.wrongType)
	case fMethod:
		return d.stringMember(&m.Method, 1, &d.wrongType)
	case fParams:
		return d.params()
	case fID:
		m.ID, ok = r.raw(1)
	case fResult:
		m.Result, ok = r.raw(1)
	case fError:
		m.Error, ok = r.raw(1)
	default:
		return r.skip(1)
	}
	return ok
}

// stringMember reads a member of Go type string in a container at depth:
// a string sets it, null leaves it as it is (encoding/json's rule), any
// other value is marked in wrong.
func (d *msgDecoder) stringMember(dst *string, depth int, wrong *bool) bool {
	r := &d.r
	switch r.peek() {
	case '"':
		lit, plain, ok := r.str()
		if ok {
			*dst = internString(lit, plain)
		}
		return ok
	case 'n':
		return r.literal("null")
	}
	*wrong = true
	return r.skip(depth)
}

// known holds the strings every request repeats (the jsonrpc version, the
// method names, the revisions), so that reading them allocates nothing.
// The method table adds its names.
var known = func() map[string]string {
	k := map[string]string{"2.0": "2.0", "notifications/initialized": "notifications/initialized",
		"notifications/cancelled": "notifications/cancelled"}
	for _, v := range knownOrder {
		k[v] = v
	}
	return k
}()

func internString(lit []byte, plain bool) string {
	if plain {
		if s, ok := known[string(lit[1:len(lit)-1])]; ok {
			return s
		}
	}
	return unquote(lit, plain)
}

// params reads the params member. Only the last one of duplicates counts,
// as with encoding/json, so each starts afresh.
func (d *msgDecoder) params() bool {
	m, r := d.m, &d.r
	m.params, d.paramsWrong = params{}, false
	r.space()
	start := r.i
	var ok bool
	if r.peek() == '{' {
		ok = r.object(2, d.paramsMember)
	} else {
		ok = r.skip(1)
	}
	m.Params = r.b[start:r.i]
	return ok
}

func (d *msgDecoder) paramsMember(key []byte) bool {
	p, r := &d.m.params, &d.r
	ok := true
	switch fieldOf(key, paramFields) {
	case pMeta:
		return d.meta()
	case pName:
		return d.stringMember(&p.Name, 2, &d.paramsWrong)
	case pURI:
		return d.stringMember(&p.URI, 2, &d.paramsWrong)
	case pCursor:
		return d.cursor()
	case pRequestState:
		return d.stringMember(&p.RequestState, 2, &d.paramsWrong)
	case pLevel:
		return d.stringMember(&p.Level, 2, &d.paramsWrong)
	case pProtocolVersion:
		return d.stringMember(&p.ProtocolVersion, 2, &d.paramsWrong)
	case pArguments:
		p.Arguments, ok = r.raw(2)
	case pNotifications:
		p.Notifications, ok = r.raw(2)
	case pInputResponses:
		p.InputResponses, ok = r.raw(2)
	case pRequestID:
		p.RequestID, ok = r.raw(2)
	case pCapabilities:
		p.Capabilities, ok = r.raw(2)
	case pClientInfo:
		p.ClientInfo, ok = r.raw(2)
	case pTaskID:
		return d.stringMember(&p.TaskID, 2, &d.paramsWrong)
	case pTask:
		p.Task, ok = r.raw(2)
	default:
		return r.skip(2)
	}
	return ok
}

// cursor reads the *string cursor: null clears it.
func (d *msgDecoder) cursor() bool {
	p, r := &d.m.params, &d.r
	switch r.peek() {
	case '"':
		lit, plain, ok := r.str()
		if ok {
			s := unquote(lit, plain)
			p.Cursor = &s
		}
		return ok
	case 'n':
		p.Cursor = nil
		return r.literal("null")
	}
	d.paramsWrong = true
	return r.skip(2)
}

// meta reads the *requestMeta _meta: null clears it, and a second object
// adds to the first (encoding/json decodes into the struct it has).
func (d *msgDecoder) meta() bool {
	m, r := d.m, &d.r
	switch r.peek() {
	case '{':
		if m.params.Meta == nil {
			m.meta = requestMeta{}
			m.params.Meta = &m.meta
		}
		return r.object(3, d.metaMember)
	case 'n':
		m.params.Meta = nil
		return r.literal("null")
	}
	d.paramsWrong = true
	return r.skip(2)
}

func (d *msgDecoder) metaMember(key []byte) bool {
	mt, r := d.m.params.Meta, &d.r
	ok := true
	switch fieldOf(key, metaFields) {
	case mProtocolVersion:
		mt.ProtocolVersion, ok = r.raw(3)
	case mClientCapabilities:
		mt.ClientCapabilities, ok = r.raw(3)
	case mClientInfo:
		mt.ClientInfo, ok = r.raw(3)
	case mLogLevel:
		mt.LogLevel, ok = r.raw(3)
	case mProgressToken:
		mt.ProgressToken, ok = r.raw(3)
	case mTraceParent:
		mt.TraceParent, ok = r.raw(3)
	case mTraceState:
		mt.TraceState, ok = r.raw(3)
	case mHops:
		mt.Hops, ok = r.raw(3)
	default:
		return r.skip(3)
	}
	return ok
}
