package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
)

// Handler is the seam between the protocol and the application. The router
// calls it only with requests that already passed the validation ladder, and
// the shaper turns its era-neutral results into the right wire form for the
// request's revision. Handlers return an *Error only for protocol problems
// (unknown tool or prompt, [ResourceNotFound], [MissingClientCapability]);
// any other error becomes -32603.
//
// List methods return the complete list in a deterministic order; the router
// paginates it with opaque cursors. Handlers are called concurrently.
type Handler interface {
	// Info describes the server and its capabilities. It is called on every
	// request (capability gates), so it must be cheap; return the same
	// pointer until the configuration changes.
	Info() *ServerInfo

	// ListTools returns every tool, in a stable order.
	ListTools(ctx context.Context, req *Request) ([]Tool, error)
	// CallTool runs a tool. Unknown tool: InvalidParams. Failures of the
	// tool itself, argument validation included, are results with IsError.
	CallTool(ctx context.Context, req *Request, p *CallToolParams) (*CallToolResult, error)
	// ListResources returns every concrete resource, in a stable order.
	ListResources(ctx context.Context, req *Request) ([]Resource, error)
	// ListResourceTemplates returns every resource template, in a stable order.
	ListResourceTemplates(ctx context.Context, req *Request) ([]ResourceTemplate, error)
	// ReadResource reads a resource; unknown URI: ResourceNotFound.
	ReadResource(ctx context.Context, req *Request, p *ReadResourceParams) (*ReadResourceResult, error)
	// ListPrompts returns every prompt, in a stable order.
	ListPrompts(ctx context.Context, req *Request) ([]Prompt, error)
	// GetPrompt renders a prompt; unknown prompt or missing required
	// argument: InvalidParams.
	GetPrompt(ctx context.Context, req *Request, p *GetPromptParams) (*GetPromptResult, error)
	// Complete suggests argument values; the router caps them at 100.
	Complete(ctx context.Context, req *Request, p *CompleteParams) (*CompleteResult, error)
}

// ToolHeaderLookup is an optional Handler extension: when implemented, modern
// HTTP tools/call requests are checked against the tool's Mcp-Param-*
// headers (ladder step 12) without listing every tool.
type ToolHeaderLookup interface {
	ToolHeaderParams(name string) map[string]string
}

// ResourceLookup is an optional Handler extension: when implemented,
// resources/subscribe of a URI that no resource or template serves is
// refused with ResourceNotFound instead of being accepted, and such a URI
// in a listen's resourceSubscriptions is not honoured (left out of the
// acknowledgment).
type ResourceLookup interface {
	HasResource(uri string) bool
}

// Request is the request-scoped view a Handler gets: who is asking, under
// which revision, and a Notifier bound to this request's response stream.
type Request struct {
	Method          string
	ID              json.RawMessage
	Era             Era
	ProtocolVersion string // the revision the response is shaped for

	// ClientCapabilities are this request's (modern) or the session's
	// (legacy) declared capabilities; zero when unknown (stateless legacy).
	ClientCapabilities ClientCapabilities
	ClientInfo         *Implementation // self-reported; never trust it
	ProgressToken      json.RawMessage // nil when the client did not ask
	LogLevel           string          // "" means: send no log messages

	// Session is the 2025 HTTP session's own 128 random bits in hex
	// (signed or stateful), to tell sessions apart in owner checks; ""
	// on stdio, without a session id and in the modern era.
	Session string

	// Header is the HTTP request header (auth, tracing); nil on stdio.
	Header http.Header

	// Trace is the W3C trace context of params._meta; nil when it has no
	// traceparent string.
	Trace *TraceContext

	// Notifier emits notifications related to this request. Never nil.
	Notifier Notifier
}

// TraceContext is a request's W3C trace context (the traceparent and
// tracestate keys of params._meta) as sent, unchecked.
type TraceContext struct {
	Parent, State string
}

// ErrNoBackChannel is returned by Notifier.Request when the transport cannot
// carry server→client requests: always in the modern era (use InputRequired
// instead) and on stateless legacy HTTP.
var ErrNoBackChannel = errors.New("mcp: no channel for server-to-client requests")

// Notifier sends messages related to one request. Progress is a no-op unless
// the request carried a progress token, and Log is a no-op below the level the
// client asked for, so handlers may call them unconditionally.
type Notifier interface {
	// Progress sends notifications/progress; progress must increase.
	Progress(ctx context.Context, progress, total float64, message string) error
	// Log sends notifications/message at level (debug … emergency).
	Log(ctx context.Context, level, logger string, data any) error
	// Request sends a server→client request (elicitation/create, …) and
	// waits for the answer. Legacy stdio and stateful HTTP sessions only.
	Request(ctx context.Context, method string, params any) (json.RawMessage, error)
}

// sink writes one encoded server message for a request; transports provide
// it. call is nil when the transport has no back channel.
type sink struct {
	send    func(b []byte) error
	call    func(ctx context.Context, method string, params any) (json.RawMessage, error)
	comment func() error    // SSE keep-alive; nil when the transport has none
	ending  <-chan struct{} // closed when the transport's input ends (stdio EOF)
}

// notifier is the Notifier for one request.
type notifier struct {
	mu           sync.Mutex
	req          *Request
	out          sink
	lastProgress float64
	sent         bool
}

// Progress implements Notifier.
func (n *notifier) Progress(ctx context.Context, progress, total float64, message string) error {
	if n.req.ProgressToken == nil || n.out.send == nil {
		return nil
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.sent && progress <= n.lastProgress {
		return errors.New("mcp: progress must increase")
	}
	n.sent, n.lastProgress = true, progress
	p := struct {
		Token    json.RawMessage `json:"progressToken"`
		Progress float64         `json:"progress"`
		Total    float64         `json:"total,omitempty"`
		Message  string          `json:"message,omitempty"`
	}{n.req.ProgressToken, progress, total, message}
	return n.out.send(encodeNotification("notifications/progress", p))
}

// Log implements Notifier.
func (n *notifier) Log(ctx context.Context, level, logger string, data any) error {
	if n.req.LogLevel == "" || n.out.send == nil {
		return nil
	}
	rank, ok := logLevels[level]
	if !ok {
		return errors.New("mcp: unknown log level " + level)
	}
	if rank < logLevels[n.req.LogLevel] {
		return nil
	}
	p := struct {
		Level  string `json:"level"`
		Logger string `json:"logger,omitempty"`
		Data   any    `json:"data"`
	}{level, logger, data}
	return n.out.send(encodeNotification("notifications/message", p))
}

// Request implements Notifier.
func (n *notifier) Request(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if n.req.Era != EraLegacy || n.out.call == nil {
		return nil, ErrNoBackChannel
	}
	if e := undeclaredCapability(method, n.req.ClientCapabilities); e != nil {
		return nil, e
	}
	return n.out.call(ctx, method, params)
}

// undeclaredCapability is -32021 for a server→client request whose
// capability the client did not declare in initialize. Such a client has
// no handler for the request: many never answer it, and the call would
// wait for them until its deadline.
func undeclaredCapability(method string, caps ClientCapabilities) *Error {
	var need ClientCapabilities
	switch {
	case method == "elicitation/create" && caps.Elicitation == nil:
		need.Elicitation = json.RawMessage("{}")
	case method == "sampling/createMessage" && caps.Sampling == nil:
		need.Sampling = json.RawMessage("{}")
	case method == "roots/list" && caps.Roots == nil:
		need.Roots = json.RawMessage("{}")
	default:
		return nil
	}
	e := MissingClientCapability(need)
	e.Message = "this needs " + method + ", and the client did not declare that capability in initialize"
	return e
}
