package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/table"
)

// The runtime side of the table: a call (tools/call, resources/read,
// prompts/get, completion/complete) is decoded, checked, run and mapped
// here, so that a call can be made and tested without the protocol. The
// server turns what comes back into protocol messages.

// CallInput is what one call gets from whoever serves it.
type CallInput struct {
	// Arguments are the client's arguments as sent: a JSON object, or empty.
	Arguments json.RawMessage
	// Header holds the inbound HTTP request's headers; nil on stdio.
	Header http.Header
	// Progress and Log reach the client while the call runs; nil drops
	// them. What they carry is redacted.
	Progress func(progress, total float64, message string)
	Log      func(level string, data any)
	// Ask asks the client the call's questions; nil when none can be asked.
	Ask Asker
	// Client, when set, stands for Progress, Log and Ask where those are
	// nil: one value instead of three closures built for every call.
	Client Client
	// Logger receives failures with their detail (the model sees only the
	// message written for it); nil discards them.
	Logger *slog.Logger
	// DefaultTimeout is the deadline of a call whose tool sets no timeout.
	DefaultTimeout time.Duration
	// Identity is who the caller's verified access token speaks for; nil
	// on stdio and over HTTP without an auth block. Scopes are checked
	// and auth.* is read only when it is set.
	Identity *auth.Identity

	// Backends, when set, is told of every backend call the call makes
	// (traces, metrics); nil costs a backend call nothing.
	Backends BackendObserver

	// identity is auth.* of this call, built from Identity when first
	// needed.
	identity *identityValue
}

// A Client reaches the caller while a call runs: CallInput's Progress,
// Log and Ask as methods of one value.
type Client interface {
	Progress(progress, total float64, message string)
	Log(level string, data any)
	Ask(ctx context.Context, a *Asking) (map[string]json.RawMessage, error)
}

// progress sends a progress notification, when anything can.
func (in *CallInput) progress(progress, total float64, message string) {
	switch {
	case in.Progress != nil:
		in.Progress(progress, total, message)
	case in.Client != nil:
		in.Client.Progress(progress, total, message)
	}
}

// log sends a log notification, when anything can.
func (in *CallInput) log(level string, data any) {
	switch {
	case in.Log != nil:
		in.Log(level, data)
	case in.Client != nil:
		in.Client.Log(level, data)
	}
}

// asker is what asks the client questions; nil when nothing can.
func (in *CallInput) asker() Asker {
	switch {
	case in.Ask != nil:
		return in.Ask
	case in.Client != nil:
		return in.Client.Ask
	}
	return nil
}

// An Asker asks the client questions (elicitation, sampling, roots) and
// returns the answers by key. An error of type *AskFailure ends the call
// with its message for the model; any other error (a protocol error, or
// the caller's own signal that the answers come in a later request) is
// returned as it is.
type Asker func(ctx context.Context, a *Asking) (map[string]json.RawMessage, error)

// Asking is one call's questions.
type Asking struct {
	// Target names the call ("tool search", "prompt review").
	Target    string
	Questions []*table.Question
	// Args are the call's decoded arguments (defaults applied), which a
	// multi-round answer must stay bound to.
	Args  map[string]any
	build func(*table.Question) (string, any, error)
}

// Build writes a question as sent: its method and params.
func (a *Asking) Build(q *table.Question) (method string, params any, err error) { return a.build(q) }

// AskFailure says why the client could not be asked, for the model.
type AskFailure struct{ Message string }

func (e *AskFailure) Error() string { return e.Message }

// ErrorCode classifies a CallError for the protocol layer.
type ErrorCode int

const (
	// InvalidParams: the caller's request is wrong.
	InvalidParams ErrorCode = iota + 1
	// NotFound: the resource does not exist (or the config turned the
	// read down); URI names it.
	NotFound
	// Internal: the server could not do it.
	Internal
	// InsufficientScope: the caller's token lacks scopes the call needs;
	// Scopes are those to ask the authorization server for.
	InsufficientScope
)

// CallError is a failure of a call that the protocol reports as an error
// rather than a tool result. Its message is written for the client and
// holds no secret.
type CallError struct {
	Code    ErrorCode
	Message string
	URI     string   // for NotFound
	Scopes  []string // for InsufficientScope
}

func (e *CallError) Error() string { return e.Message }

func callError(code ErrorCode, msg string) *CallError { return &CallError{Code: code, Message: msg} }

// logger returns the input's logger or one that discards.
func (in *CallInput) logger() *slog.Logger {
	if in.Logger == nil {
		return discard
	}
	return in.Logger
}

var discard = slog.New(slog.DiscardHandler)

// invoke runs an action and turns failures into messages for the model:
// an adapter.CallError's own message, or a generic one with the detail
// logged.
//
// A call has one deadline. When the tool sets a timeout (or the server has
// a default), that is the deadline, for the context and for the adapter
// (Request.Timeout), which then ignores its backend's; otherwise the
// adapter applies its call's or backend's timeout alone.
//
// step names the step making the call, "" for the call of the tool,
// resource, prompt or completion itself; req.Observer, when set, is told
// of the call under that name.
func invoke(ctx context.Context, log *slog.Logger, what, step string, action adapter.Action, req *adapter.Request) (*adapter.Result, string) {
	start := time.Now()
	var res *adapter.Result
	var err error
	if req.Observer != nil {
		res, err = observedInvoke(ctx, step, action, req, start)
	} else {
		res, err = action.Invoke(ctx, req)
	}
	if log.Enabled(ctx, slog.LevelDebug) {
		logBackendCall(ctx, log, what, step, time.Since(start), res, err)
	}
	if err == nil {
		return res, ""
	}
	var ce *adapter.CallError
	if errors.As(err, &ce) {
		log.WarnContext(ctx, "call failed", "target", what, "error", err, "cause", ce.Err)
		return nil, ce.Message
	}
	if ctx.Err() == context.DeadlineExceeded && req.Timeout > 0 {
		return nil, "The call did not finish within " + req.Timeout.String() + " and was stopped. Try a smaller request."
	}
	log.ErrorContext(ctx, "call failed", "target", what, "error", err)
	return nil, "The call failed inside the server (the details are in the server log). Retrying will probably not help."
}

// withDeadline applies a call's one deadline (the tool's timeout, else
// the server's default) to ctx and to req.
func withDeadline(ctx context.Context, timeout time.Duration, req *adapter.Request) (context.Context, context.CancelFunc) {
	if timeout > 0 {
		req.Timeout = timeout
	}
	return withTimeout(ctx, timeout)
}

// withTimeout is ctx with the deadline timeout from now; none when it is
// not positive.
func withTimeout(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	if timeout <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, timeout)
}

// logBackendCall writes the debug line of one backend call, with the
// outcome the backend-call metrics and spans give it (ok, failure, error,
// timeout, cancelled) and what failed.
func logBackendCall(ctx context.Context, log *slog.Logger, what, step string, took time.Duration, res *adapter.Result, err error) {
	attrs := []slog.Attr{
		slog.String("target", what), slog.String("outcome", backendOutcome(ctx, res, err)),
		slog.Float64("duration_ms", float64(took.Microseconds())/1000),
	}
	if step != "" {
		attrs = append(attrs, slog.String("step", step))
	}
	switch {
	case err != nil:
		attrs = append(attrs, slog.String("error", err.Error()))
	case res != nil && res.Failure != "":
		attrs = append(attrs, slog.String("error", res.Failure))
	}
	log.LogAttrs(ctx, slog.LevelDebug, "backend call", attrs...)
}

// adapterRequest is what an adapter gets for one call. What it sends the
// client while it runs (progress, log lines such as a command's stderr)
// is redacted like everything else the server writes.
func adapterRequest(ctx context.Context, t *table.Table, in *CallInput, args *callArgs) *adapter.Request {
	ar := &adapter.Request{Args: args.Cty, ArgsJSON: args.JSON, Static: t.Static, Header: in.Header, Vars: in.authVars(), Observer: in.Backends}
	own := CallSecrets(ctx)
	ar.Progress = func(progress, total float64, message string) {
		in.progress(progress, total, rule.RedactEach(message, own, t.Secrets))
	}
	ar.Log = func(level string, data any) {
		in.log(level, redactData(data, own, t.Secrets))
	}
	return ar
}
