// Package tracing makes OpenTelemetry spans of what a served
// configuration does: one server span per call (tools/call,
// resources/read, prompts/get, completion/complete) and one client span
// per backend call (an HTTP request, an SQL statement, a command), each
// step's included. It continues the caller's W3C trace context and
// carries it to HTTP backends.
//
// It is the only package besides cmd that imports OpenTelemetry: the
// server, the table and the adapters report through hooks of their own
// (server.Tracer, adapter.Observer) that take configured names and fixed
// values, never arguments, URIs or answers, so no span can hold them.
package tracing

import (
	"context"
	"net/http"
	"strconv"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/internal/memo"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
)

// instrumentation names the spans' instrumentation scope.
const instrumentation = "github.com/mcpdecl/mcpdecl"

// Tracer makes the spans of a Provider; it implements server.Tracer
// and adapter.Observer.
type Tracer struct {
	p     *Provider
	prop  propagation.TraceContext
	names *memo.Memo[spanNameKey, string] // the server spans' names ("tools/call search")
}

type spanNameKey struct{ method, name string }

var _ server.Tracer = (*Tracer)(nil)

func newTracer(p *Provider) *Tracer {
	return &Tracer{p: p, names: memo.New(func(k spanNameKey) string { return k.method + " " + k.name })}
}

// The server span's names and attributes. The keys follow the
// OpenTelemetry semantic conventions for MCP, RPC and HTTP where they
// exist; mcpdecl.* are this server's own.
const (
	keyMethod          = attribute.Key("mcp.method.name")
	keyProtocolVersion = attribute.Key("mcp.protocol.version")
	keyRequestID       = attribute.Key("jsonrpc.request.id")
	keyToolName        = attribute.Key("gen_ai.tool.name")
	keyPromptName      = attribute.Key("gen_ai.prompt.name")
	keyOperation       = attribute.Key("gen_ai.operation.name")
	keyResourceName    = attribute.Key("mcpdecl.resource.name")
	keyCompletionRef   = attribute.Key("mcpdecl.completion.ref")
	keyTransport       = attribute.Key("network.transport")
	keyOutcome         = attribute.Key("mcpdecl.outcome")
	keyErrorType       = attribute.Key("error.type")
	keyBackend         = attribute.Key("mcpdecl.backend.name")
	keyBackendKind     = attribute.Key("mcpdecl.backend.kind")
	keyStep            = attribute.Key("mcpdecl.step.name")
	keyStatusCode      = attribute.Key("http.response.status_code")
)

// StartCall implements server.Tracer: a server span named after the
// method and the configured name ("tools/call search"), whose parent is
// the caller's trace context (see parentOf) or else the one ctx holds.
func (t *Tracer) StartCall(ctx context.Context, req *mcp.Request, kind, name string) context.Context {
	parent, link := t.parentOf(req)
	if !parent.IsValid() {
		parent = trace.SpanContextFromContext(ctx)
	}
	ctx, s := t.p.startIn(ctx, parent, t.names.Get(spanNameKey{req.Method, name}), trace.SpanKindServer)
	if s == nil {
		return ctx // not sampled: nothing is recorded
	}
	// Written in place: nothing else holds the span yet.
	if link.IsValid() {
		s.links = append(s.links, trace.Link{SpanContext: link})
	}
	s.attrs = callAttributes(s.attrs, req, kind, name)
	return ctx
}

// callAttributes appends a server span's attributes to attrs.
func callAttributes(attrs []attribute.KeyValue, req *mcp.Request, kind, name string) []attribute.KeyValue {
	// The protocol version tells the era too; an attribute of its own
	// would cost every span a little for what a query can derive.
	attrs = append(attrs, keyMethod.String(req.Method), keyProtocolVersion.String(req.ProtocolVersion))
	if id := requestID(req.ID); id != "" {
		attrs = append(attrs, keyRequestID.String(id))
	}
	switch kind {
	case server.KindTool:
		attrs = append(attrs, keyToolName.String(name), operationExecuteTool)
	case server.KindPrompt:
		attrs = append(attrs, keyPromptName.String(name))
	case server.KindResource:
		attrs = append(attrs, keyResourceName.String(name))
	case server.KindCompletion:
		attrs = append(attrs, keyCompletionRef.String(name))
	}
	if req.Header != nil {
		attrs = append(attrs, transportTCP)
	} else {
		attrs = append(attrs, transportPipe)
	}
	// ok until EndCall says otherwise: no span is exported before it ends,
	// and a call that succeeds then adds no attribute (which would copy
	// them all).
	return append(attrs, outcomeOK)
}

// The attributes whose values are fixed, made once.
var (
	operationExecuteTool = keyOperation.String("execute_tool")
	transportTCP         = keyTransport.String("tcp")
	transportPipe        = keyTransport.String("pipe")
)

// parentOf is the caller's trace context: params._meta's traceparent
// when it is valid (the MCP client's own, which also crosses stdio and
// proxies), else the HTTP request's. When both are valid and differ, the
// HTTP one is returned as a link. With neither, the span keeps the
// parent its context may already have.
func (t *Tracer) parentOf(req *mcp.Request) (parent, link trace.SpanContext) {
	var fromHeader, fromMeta trace.SpanContext
	// The header map is read directly: Get would canonicalise the key on
	// every call, and net/http has already stored it canonically.
	if req.Header != nil && len(req.Header["Traceparent"]) > 0 {
		fromHeader = trace.SpanContextFromContext(t.prop.Extract(context.Background(), propagation.HeaderCarrier(req.Header)))
	}
	if req.Trace != nil {
		carrier := metaCarrier{parent: req.Trace.Parent, state: req.Trace.State}
		fromMeta = trace.SpanContextFromContext(t.prop.Extract(context.Background(), carrier))
	}
	switch {
	case fromMeta.IsValid():
		if fromHeader.IsValid() && !fromHeader.Equal(fromMeta) {
			return fromMeta, fromHeader
		}
		return fromMeta, trace.SpanContext{}
	case fromHeader.IsValid():
		return fromHeader, trace.SpanContext{}
	}
	return trace.SpanContext{}, trace.SpanContext{}
}

// maxRequestID is the longest JSON-RPC id a span records.
const maxRequestID = 128

// metaCarrier reads the trace context of params._meta.
type metaCarrier struct{ parent, state string }

func (c metaCarrier) Get(key string) string {
	switch key {
	case "traceparent":
		return c.parent
	case "tracestate":
		return c.state
	}
	return ""
}

func (metaCarrier) Set(string, string) {}
func (metaCarrier) Keys() []string     { return []string{"traceparent", "tracestate"} }

// requestID is a JSON-RPC id as text: a string's value, a number's
// digits; "" for one longer than maxRequestID, which a client could make
// as long as a request body to fill the span buffer with.
func requestID(raw []byte) string {
	if len(raw) == 0 || len(raw) > maxRequestID+2 {
		return ""
	}
	if raw[0] == '"' {
		if s, err := strconv.Unquote(string(raw)); err == nil {
			return s
		}
		return ""
	}
	return string(raw)
}

// EndCall implements server.Tracer: the outcome, and for a failure the
// error type and an error status. A cancelled call is no error of the
// server's.
func (t *Tracer) EndCall(ctx context.Context, outcome, errorType string) {
	span := trace.SpanFromContext(ctx)
	switch {
	case errorType != "":
		span.SetAttributes(keyOutcome.String(outcome), keyErrorType.String(errorType))
		span.SetStatus(codes.Error, outcome)
	case outcome != server.OutcomeOK:
		span.SetAttributes(keyOutcome.String(outcome))
	}
	span.End()
}

// outcomeOK is the outcome every span starts with.
var outcomeOK = keyOutcome.String("ok")

// LogIDs implements server.Tracer.
func (t *Tracer) LogIDs(ctx context.Context) (traceID, spanID string) {
	sc := trace.SpanContextFromContext(ctx)
	if !sc.IsValid() {
		return "", ""
	}
	return sc.TraceID().String(), sc.SpanID().String()
}

// backendSpan is what every span of one backend call has.
type backendSpan struct {
	name  string
	step  string
	attrs []attribute.KeyValue // copied into each span
}

// backendSpanOf is made once per call block and kept in its summary's
// memo: a call block is one step's, or its owner's own, so its step is
// always the same (a summary that actions share, made for those that
// have none, is rebuilt when the step differs).
func (t *Tracer) backendSpanOf(s *adapter.CallSummary, step string) *backendSpan {
	if b, ok := s.Memo.Load().(*backendSpan); ok && b.step == step {
		return b
	}
	attrs := make([]attribute.KeyValue, 0, len(s.Attributes)+4)
	attrs = append(attrs, keyBackendKind.String(s.Kind))
	if s.Backend != "" {
		attrs = append(attrs, keyBackend.String(s.Backend))
	}
	if step != "" {
		attrs = append(attrs, keyStep.String(step))
	}
	attrs = append(attrs, outcomeOK) // until CallEnded says otherwise
	for _, a := range s.Attributes {
		switch v := a.Value.(type) {
		case string:
			attrs = append(attrs, attribute.String(a.Key, v))
		case int:
			attrs = append(attrs, attribute.Int(a.Key, v))
		}
	}
	b := &backendSpan{name: s.Operation, step: step, attrs: attrs}
	s.Memo.Store(b)
	return b
}

// CallStarted implements adapter.Observer: a client span, child of the
// call's, named by the summary ("GET /books/{args.isbn}").
func (t *Tracer) CallStarted(ctx context.Context, c *dispatch.BackendCall) context.Context {
	b := t.backendSpanOf(c.Summary, c.Step)
	ctx, s := t.p.startIn(ctx, trace.SpanContextFromContext(ctx), b.name, trace.SpanKindClient)
	if s != nil {
		s.attrs = append(s.attrs, b.attrs...) // in place: the span is not shared yet
	}
	if c.Summary.Kind != "http" {
		return ctx
	}
	return &backendCtx{Context: ctx} // for the status of the last answer
}

// backendCtx is a backend call's context: its span's, and the status of
// the last HTTP answer (a retry may follow a failed one).
type backendCtx struct {
	context.Context
	status int
}

type backendCtxKey struct{}

func (c *backendCtx) Value(key any) any {
	if key == (backendCtxKey{}) {
		return c
	}
	return c.Context.Value(key)
}

// CallEnded implements adapter.Observer: a call without an answer, or
// whose answer the adapter calls failed, is an error; the type of an
// HTTP failure is its status code (the HTTP conventions).
func (t *Tracer) CallEnded(ctx context.Context, c *dispatch.BackendCall) {
	span := trace.SpanFromContext(ctx)
	switch c.Outcome {
	case adapter.OutcomeOK:
	case adapter.OutcomeCancelled:
		span.SetAttributes(keyOutcome.String(c.Outcome))
	default:
		span.SetStatus(codes.Error, c.Outcome)
		errorType := c.Outcome
		if bc, ok := ctx.Value(backendCtxKey{}).(*backendCtx); ok && bc.status >= 400 && c.Outcome == adapter.OutcomeFailure {
			errorType = strconv.Itoa(bc.status)
		}
		span.SetAttributes(keyOutcome.String(c.Outcome), keyErrorType.String(errorType))
	}
	span.End()
}

// SendingHTTP implements adapter.Observer: the backend span's context as
// a W3C traceparent (and tracestate).
func (t *Tracer) SendingHTTP(ctx context.Context, h http.Header) {
	t.prop.Inject(ctx, propagation.HeaderCarrier(h))
}

// AnsweredHTTP implements adapter.Observer: the status code of the last
// answer.
func (t *Tracer) AnsweredHTTP(ctx context.Context, status int) {
	trace.SpanFromContext(ctx).SetAttributes(keyStatusCode.Int(status))
	if bc, ok := ctx.Value(backendCtxKey{}).(*backendCtx); ok {
		bc.status = status
	}
}
