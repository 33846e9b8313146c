package adapter

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"
)

// An Observer follows the backend calls of a request, for traces and
// metrics. Whoever runs a call sets it in Request.Observer; nil observes
// nothing. What it is told comes from the configuration (a CallSummary,
// a step's name) or from a fixed set (outcomes, status codes), never from
// arguments or answers. Its methods must be safe for concurrent use and
// quick: they run on every backend call.
type Observer interface {
	// CallStarted is told c begins; the call runs in the context it
	// returns (which may carry a span).
	CallStarted(ctx context.Context, c *Call) context.Context
	// CallEnded is told c ended, with c.Outcome set; ctx is the one
	// CallStarted returned.
	CallEnded(ctx context.Context, c *Call)
	// SendingHTTP is given the header of each HTTP request a call sends
	// (every attempt) before it goes, to add trace context to.
	SendingHTTP(ctx context.Context, h http.Header)
	// AnsweredHTTP is told the status code of each HTTP answer.
	AnsweredHTTP(ctx context.Context, status int)
}

// Call is one backend call being observed.
type Call struct {
	// Summary names what the call reaches; never nil.
	Summary *CallSummary
	// Step is the name of the step making the call; "" for the call of
	// a tool, resource, prompt or completion itself.
	Step  string
	Start time.Time
	// Outcome is how the call ended (an Outcome* constant), set before
	// CallEnded.
	Outcome string
}

// The outcomes of a backend call. A failure is an answer the adapter
// reports as failed (a non-2xx status, a non-zero exit); an error is no
// answer at all (a refused connection, a broken statement).
const (
	OutcomeOK        = "ok"
	OutcomeFailure   = "failure"
	OutcomeError     = "error"
	OutcomeTimeout   = "timeout"
	OutcomeCancelled = "cancelled"
)

// CallSummary names a backend call for traces and metrics. It is fixed
// when the call block compiles and holds no value of a call: no argument,
// no URL with values, no statement with parameters, no command line.
type CallSummary struct {
	// Kind is the adapter's ("http", "sql", "shell").
	Kind string
	// Backend is the backend block's name; "" when the call names none.
	Backend string
	// Operation names the call in a span: "GET /books/{args.isbn}",
	// "sqlite orders", a program's name.
	Operation string
	// Attributes follow the OpenTelemetry semantic conventions of the
	// kind (http.request.method, db.system.name, ...); each value is a
	// string or an int.
	Attributes []Attribute
	// Memo keeps what an observer builds from the summary once (a span's
	// attributes), so that it lives as long as the call block does.
	Memo atomic.Value
}

// Attribute is one key and value of a CallSummary.
type Attribute struct {
	Key   string
	Value any
}

// Summarizer is implemented by actions that summarize their call.
type Summarizer interface {
	Summary() *CallSummary
}

// SummaryOf is the summary of action, or one naming only its kind when
// it gives none.
func SummaryOf(action Action) *CallSummary {
	if s, ok := action.(Summarizer); ok {
		if sum := s.Summary(); sum != nil {
			return sum
		}
	}
	return unsummarized
}

var unsummarized = &CallSummary{Kind: "other", Operation: "backend call"}
