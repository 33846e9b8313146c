package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/observe/logs"
)

// A Tracer makes a span of every call the server runs and of every
// backend call those make (distributed tracing). Like an Observer it is
// told configured names and fixed values only, never arguments or URIs.
// Its methods must be safe for concurrent use and quick.
type Tracer interface {
	// StartCall begins the span of a call of kind under its configured
	// name (or "unknown"); req carries the caller's trace context (HTTP
	// headers, params._meta). The call runs in the context it returns.
	StartCall(ctx context.Context, req *mcp.Request, kind, name string) context.Context
	// EndCall ends the span in ctx with the call's outcome (an Outcome*
	// constant) and, when it failed, the type of the error: the JSON-RPC
	// code of a protocol error, "tool_error", "timeout".
	EndCall(ctx context.Context, outcome, errorType string)
	// LogIDs are the trace and span ids of the span in ctx, in hex, for
	// log lines; "" when ctx has none.
	LogIDs(ctx context.Context) (traceID, spanID string)
	// The backend calls of a call, each a child span of it.
	dispatch.BackendObserver
}

// BackendCallFunc is told of every backend call (metrics): the backend's
// configured name ("" when the call names none), its kind (http, sql,
// shell), how it ended (an adapter outcome: ok, failure, error, timeout,
// cancelled) and how long it took.
type BackendCallFunc func(backend, kind, outcome string, took time.Duration)

// backendObserver is what the table tells of its backend calls: the
// tracer, the counter, both or neither (nil).
func backendObserver(t Tracer, count BackendCallFunc) dispatch.BackendObserver {
	switch {
	case t != nil && count != nil:
		return tracedAndCounted{t, count}
	case t != nil:
		return t
	case count != nil:
		return counted(count)
	}
	return nil
}

// counted tells a BackendCallFunc of each backend call's end.
type counted BackendCallFunc

func (f counted) CallStarted(ctx context.Context, _ *dispatch.BackendCall) context.Context {
	return ctx
}

func (f counted) CallEnded(_ context.Context, c *dispatch.BackendCall) {
	f(c.Summary.Backend, c.Summary.Kind, c.Outcome, time.Since(c.Start))
}

func (counted) SendingHTTP(context.Context, http.Header) {}
func (counted) AnsweredHTTP(context.Context, int)        {}

type tracedAndCounted struct {
	Tracer
	count BackendCallFunc
}

func (tc tracedAndCounted) CallEnded(ctx context.Context, c *dispatch.BackendCall) {
	tc.Tracer.CallEnded(ctx, c)
	tc.count(c.Summary.Backend, c.Summary.Kind, c.Outcome, time.Since(c.Start))
}

// trace starts the span of the call o watches, when the server traces,
// and makes the call's log lines carry its ids.
func (o *observed) trace(ctx context.Context, req *mcp.Request) context.Context {
	if o.tracer == nil {
		return ctx
	}
	logs.TraceSpans(ctx, o.tracer)
	return o.tracer.StartCall(ctx, req, o.kind, o.name)
}

// errorType names a call's failure in its span: the JSON-RPC code of a
// protocol error, else the outcome itself.
func (st *state) errorType(err error, outcome string) string {
	switch outcome {
	case OutcomeOK, OutcomeCancelled:
		return ""
	case OutcomeProtocolError:
		var me *mcp.Error
		if errors.As(st.protocolError(err), &me) {
			return strconv.Itoa(me.Code)
		}
	}
	return outcome
}

// traceparent is the W3C trace context header of req, "" when none.
func traceparent(req *mcp.Request) string {
	if req == nil || req.Header == nil {
		return ""
	}
	// Header.Get would canonicalize the name, building a new string for
	// every call; the keys are canonical already.
	if v := req.Header["Traceparent"]; len(v) > 0 {
		return v[0]
	}
	return ""
}
