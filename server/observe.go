package server

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/mcpdecl/mcpdecl/table"
)

// Observer is told of every call the server runs and of every reload, for
// metrics. Names are those of the configuration (a tool's, a resource's or
// template's, a prompt's), or "unknown" for a name it does not have, so
// what an observer keeps is bounded by the configuration and never holds
// arguments or URIs. Its methods must be safe for concurrent use and
// quick: they run on every call.
type Observer interface {
	// CallStarted is told a call of kind (a Kind* constant) began.
	CallStarted(kind string)
	// CallEnded is told how it ended (an Outcome* constant) and how long
	// it took.
	CallEnded(kind, name, outcome string, took time.Duration)
	// Reloaded is told the result of a Reload: the generation now served
	// (1 is the table the server started with), or why none was loaded.
	Reloaded(generation uint64, err error)
}

// The kinds of call an Observer is told of.
const (
	KindTool       = "tool"
	KindResource   = "resource"
	KindPrompt     = "prompt"
	KindCompletion = "completion"
)

// The outcomes of a call. A tool result the model should act on
// (isError) is a tool error; an error the client gets instead of a result
// is a protocol error. A call that asks the client something first
// (elicitation) is ok: the server answered.
const (
	OutcomeOK            = "ok"
	OutcomeToolError     = "tool_error"
	OutcomeProtocolError = "protocol_error"
	OutcomeTimeout       = "timeout"
	OutcomeCancelled     = "cancelled"
)

// unknownName labels a call of a name the configuration does not have.
const unknownName = "unknown"

// observed is one call being watched; its obs, tracer and log are nil
// when the server has none of them, so that an unwatched call costs three
// comparisons. It is a value, so that watching a call allocates nothing.
type observed struct {
	obs    Observer
	tracer Tracer
	log    *slog.Logger // writes the call's debug line
	kind   string
	name   string // the configured name, set by the caller when watched
	start  time.Time
}

func (s *Server) observe(kind string) observed {
	if s.obs == nil && s.tracer == nil && s.callLog == nil {
		return observed{}
	}
	if s.obs != nil {
		s.obs.CallStarted(kind)
	}
	return observed{obs: s.obs, tracer: s.tracer, log: s.callLog, kind: kind, start: time.Now()}
}

// watched reports an observer, a tracer or a debug log: the caller then
// names the call (o.name) and starts its span (o.trace).
func (o *observed) watched() bool { return o.obs != nil || o.tracer != nil || o.log != nil }

// end reports the call with the outcome its context and err say; toolErr
// marks a result with isError, and timedOut one the table gave because
// the call's own deadline stopped it.
func (o *observed) end(ctx context.Context, st *state, err error, toolErr, timedOut bool) {
	took := time.Since(o.start)
	outcome := outcomeOf(ctx, err, toolErr, timedOut)
	if o.obs != nil {
		o.obs.CallEnded(o.kind, o.name, outcome, took)
	}
	if o.tracer != nil {
		o.tracer.EndCall(ctx, outcome, st.errorType(err, outcome))
	}
	if o.log != nil {
		o.logCall(ctx, err, outcome, took)
	}
}

// logCall writes the debug line of every call, whatever it reached (a
// backend, a static text, nothing for a refused argument or an unknown
// name), with the outcome metrics and spans give it.
func (o *observed) logCall(ctx context.Context, err error, outcome string, took time.Duration) {
	attrs := []slog.Attr{
		slog.String("kind", o.kind), slog.String("name", o.name), slog.String("outcome", outcome),
		slog.Float64("duration_ms", float64(took.Microseconds())/1000),
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", err.Error()))
	}
	o.log.LogAttrs(ctx, slog.LevelDebug, "call", attrs...)
}

func outcomeOf(ctx context.Context, err error, toolErr, timedOut bool) string {
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		return OutcomeCancelled
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return OutcomeTimeout
	case err != nil:
		return OutcomeProtocolError
	case toolErr && timedOut:
		// The table stopped the call at its deadline and answered the
		// model with an error result saying so.
		return OutcomeTimeout
	case toolErr:
		return OutcomeToolError
	}
	return OutcomeOK
}

// toolName is the label of a tools/call of name.
func toolName(t *table.Table, name string) string {
	if tool := t.Tool(name); tool != nil {
		return tool.Name
	}
	return unknownName
}

// resourceName is the label of a read of uri: the name of its resource or
// template, never the URI, which may carry values.
func resourceName(t *table.Table, uri string) string {
	if r := t.Resource(uri); r != nil {
		return r.Name
	}
	if tm, _ := t.MatchTemplate(uri); tm != nil {
		return tm.Name
	}
	return unknownName
}

func promptName(t *table.Table, name string) string {
	if p := t.Prompt(name); p != nil {
		return p.Name
	}
	return unknownName
}

// completionName labels a completion by the prompt or template it
// completes an argument of.
func completionName(t *table.Table, refType, name string) string {
	if refType == "ref/resource" {
		for _, tm := range t.Templates {
			if tm.URITemplate == name {
				return tm.Name
			}
		}
		return unknownName
	}
	return promptName(t, name)
}

// withoutInputRequest is err unless it asks the client for input first,
// which is an answer, not a failure.
func withoutInputRequest(err error) error {
	var more *needInput
	if errors.As(err, &more) {
		return nil
	}
	return err
}
