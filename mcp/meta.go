package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
)

// Reserved _meta keys.
const (
	MetaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	MetaClientInfo         = "io.modelcontextprotocol/clientInfo"
	MetaLogLevel           = "io.modelcontextprotocol/logLevel"
	MetaServerInfo         = "io.modelcontextprotocol/serverInfo"
	MetaSubscriptionID     = "io.modelcontextprotocol/subscriptionId"
	MetaProgressToken      = "progressToken"
	// W3C trace context of the request, in any request's _meta.
	MetaTraceParent = "traceparent"
	MetaTraceState  = "tracestate"
	// MetaHops lists the mcpdecl instances a call has passed through, in
	// order (a string array): an mcpdecl calling another MCP server adds
	// its own id, and refuses a call that already lists it (a loop).
	MetaHops = "dev.mcpdecl/hops"
)

// requestMeta is params._meta of an inbound request, decoded once. Values stay
// raw so that a wrong type is reported as -32602 by the ladder instead of
// failing the whole params decode.
type requestMeta struct {
	ProtocolVersion    json.RawMessage `json:"io.modelcontextprotocol/protocolVersion"`
	ClientCapabilities json.RawMessage `json:"io.modelcontextprotocol/clientCapabilities"`
	ClientInfo         json.RawMessage `json:"io.modelcontextprotocol/clientInfo"`
	LogLevel           json.RawMessage `json:"io.modelcontextprotocol/logLevel"`
	ProgressToken      json.RawMessage `json:"progressToken"`
	TraceParent        json.RawMessage `json:"traceparent"`
	TraceState         json.RawMessage `json:"tracestate"`
	Hops               json.RawMessage `json:"dev.mcpdecl/hops"`
}

// hops is the MetaHops list the _meta carries; nil without one, or when
// it is not an array of strings (the list only ever stops a loop, so a
// malformed one is no reason to fail the call).
func (m *requestMeta) hops() []string {
	if m == nil || firstByte(m.Hops) != '[' {
		return nil
	}
	var out []string
	if json.Unmarshal(m.Hops, &out) != nil {
		return nil
	}
	return out
}

type hopsKey struct{}

// HopsFrom returns the MetaHops list of the tools/call whose context ctx
// is (or derives from); nil when it carried none.
func HopsFrom(ctx context.Context) []string {
	h, _ := ctx.Value(hopsKey{}).([]string)
	return h
}

// WithHops returns ctx carrying hops as a call's MetaHops list.
func WithHops(ctx context.Context, hops []string) context.Context {
	return context.WithValue(ctx, hopsKey{}, hops)
}

// traceContext is the W3C trace context the _meta carries, nil without
// a traceparent string (tracing never fails a request).
func (m *requestMeta) traceContext() *TraceContext {
	if m == nil || m.TraceParent == nil {
		return nil
	}
	parent := jsonString(m.TraceParent)
	if parent == "" {
		return nil
	}
	return &TraceContext{Parent: parent, State: jsonString(m.TraceState)}
}

// claimsModern reports a modern era claim: the protocolVersion key is present,
// whatever its value (era classification). A bad value is then a modern error, not a
// silent fallback to legacy.
func (m *requestMeta) claimsModern() bool { return m != nil && m.ProtocolVersion != nil }

// checkRequired verifies the MUST keys and returns -32602 naming each missing
// or mistyped one. clientInfo is deliberately not required.
func (m *requestMeta) checkRequired() (version string, caps ClientCapabilities, e *Error) {
	var missing []string
	if m == nil {
		m = &requestMeta{}
	}
	if version = jsonString(m.ProtocolVersion); version == "" {
		missing = append(missing, MetaProtocolVersion)
	}
	switch {
	case string(m.ClientCapabilities) == "{}": // the common "none": skip the decoder
	case firstByte(m.ClientCapabilities) != '{' || !decodeClientCaps(m.ClientCapabilities, &caps):
		missing = append(missing, MetaClientCapabilities)
	}
	if len(missing) > 0 {
		return "", caps, ladderErr(CodeInvalidParams,
			"missing or invalid required _meta keys: %s", strings.Join(missing, ", "))
	}
	return version, caps, nil
}

var capsFields = fieldNames("roots", "sampling", "elicitation", "experimental", "extensions", "tasks")

const (
	cRoots = iota
	cSampling
	cElicitation
	cExperimental
	cExtensions
	cTasks
)

// decodeClientCaps decodes a checked clientCapabilities object as
// encoding/json would decode it into caps (values are slices of raw, not
// copies); false where encoding/json would fail.
func decodeClientCaps(raw []byte, caps *ClientCapabilities) bool {
	r := jsonReader{b: raw}
	if r.peek() != '{' {
		return false
	}
	wrong := false
	ok := r.object(1, func(key []byte) bool {
		ok := true
		switch fieldOf(key, capsFields) {
		case cRoots:
			caps.Roots, ok = r.raw(1)
		case cSampling:
			caps.Sampling, ok = r.raw(1)
		case cElicitation:
			caps.Elicitation, ok = r.raw(1)
		case cTasks:
			caps.Tasks, ok = r.raw(1)
		case cExperimental:
			return rawMap(&r, &caps.Experimental, &wrong)
		case cExtensions:
			return rawMap(&r, &caps.Extensions, &wrong)
		default:
			return r.skip(1)
		}
		return ok
	})
	return ok && r.atEnd() && !wrong
}

// rawMap reads a member of type map[string]json.RawMessage: an object adds
// to the map, null clears it, anything else is marked in wrong.
func rawMap(r *jsonReader, m *map[string]json.RawMessage, wrong *bool) bool {
	switch r.peek() {
	case '{':
		if *m == nil {
			*m = map[string]json.RawMessage{}
		}
		return r.object(2, func(key []byte) bool {
			v, ok := r.raw(2)
			(*m)[string(key)] = v
			return ok
		})
	case 'n':
		*m = nil
		return r.literal("null")
	}
	*wrong = true
	return r.skip(1)
}

// jsonString decodes a JSON string, or returns "" for anything else. Plain
// strings without escapes, the norm for versions, skip the decoder.
func jsonString(raw json.RawMessage) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	if raw[len(raw)-1] == '"' && !bytes.ContainsAny(raw[1:len(raw)-1], "\\\"") {
		return string(raw[1 : len(raw)-1])
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// logLevels ranks the syslog levels MCP uses, least severe first.
var logLevels = map[string]int{
	"debug": 0, "info": 1, "notice": 2, "warning": 3,
	"error": 4, "critical": 5, "alert": 6, "emergency": 7,
}

// parseLogLevel validates the optional logLevel key; "" means no logging.
func (m *requestMeta) parseLogLevel() (string, *Error) {
	if m == nil || m.LogLevel == nil {
		return "", nil
	}
	lvl := jsonString(m.LogLevel) // "" for a non-string, which is no level
	if !validLogLevel(lvl) {
		return "", InvalidParams("invalid %s", MetaLogLevel)
	}
	return lvl, nil
}

func validLogLevel(l string) bool { _, ok := logLevels[l]; return ok }

// validProgressToken accepts a string or integer token, like a request id.
func validProgressToken(t json.RawMessage) bool { return t == nil || validID(t) }

// resultMeta merges the server's _meta entries (serverInfo, subscriptionId)
// into handler-provided result _meta. The common case, no handler _meta, is
// the pre-encoded serverInfo object itself.
func resultMeta(handlerMeta json.RawMessage, serverMeta json.RawMessage, extra map[string]any) json.RawMessage {
	if len(handlerMeta) == 0 && len(extra) == 0 {
		return serverMeta
	}
	m := map[string]any{}
	_ = json.Unmarshal(handlerMeta, &m)
	var sm map[string]json.RawMessage
	if len(serverMeta) > 0 && json.Unmarshal(serverMeta, &sm) == nil {
		for k, v := range sm {
			m[k] = v
		}
	}
	for k, v := range extra {
		m[k] = v
	}
	b, _ := json.Marshal(m)
	return b
}
