// Package adapter defines the contract between the mcpdecl compiler and the
// backends (HTTP, SQL, shell) that run tool calls and resource reads.
//
// Package table hands each `backend` block and each call block (`http
// "catalog" { ... }`, `sql "orders" { ... }`, `shell { ... }`) to the
// [Adapter] registered for its kind. Compiling is pure: no connections, no
// processes, no network, so that `mcpdecl validate` is safe anywhere. I/O
// happens only in [Opener.Open] (when serving) and [Action.Invoke].
package adapter

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/eval"
)

// An Adapter compiles backend blocks and call blocks of one kind. Adapters
// are stateless; one value serves every block of its kind.
type Adapter interface {
	// Info describes the adapter. It has no side effects.
	Info() Info

	// CompileBackend checks a `backend "<kind>" "<name>"` block and returns
	// the backend its calls will use. It must not perform I/O.
	CompileBackend(b *BackendBlock) (Backend, hcl.Diagnostics)

	// CompileCall checks a call block and returns the action that runs it.
	// It must not perform I/O. Diagnostics point into the block. Calls of
	// different tools compile at the same time: what it records on the
	// call's backend must be safe for that.
	CompileCall(c *CallBlock) (Action, hcl.Diagnostics)
}

// Info describes an adapter.
type Info struct {
	// Name is the block type: "http", "sql" or "shell".
	Name string
	// Summary is one sentence for help texts.
	Summary string
	// NeedsBackend is true when call blocks must name a backend block.
	NeedsBackend bool
	// ResultEnv lists what `when`, `result` and `{{ }}` programs see after a
	// call, besides `args` (for example status, headers and body).
	ResultEnv []eval.EnvField
}

// Backend is a compiled backend block, shared by the calls that name it.
type Backend interface {
	// Describe returns the backend's settings for `mcpdecl inspect`, with
	// secrets left out.
	Describe() map[string]any
}

// Action runs one call. It is shared by concurrent requests.
type Action interface {
	// Describe returns the call's static settings for `mcpdecl inspect`.
	Describe() map[string]any
	// Invoke runs the call with validated arguments.
	Invoke(ctx context.Context, req *Request) (*Result, error)
}

// ReadOnlyAction is implemented by actions that can tell that a call
// changes nothing (an HTTP GET, an SQL statement in a read-only
// transaction). Steps that only read, and do not read each other's
// answers, may run at the same time; any other step runs alone, in order.
type ReadOnlyAction interface {
	ChangesNothing() bool
}

// SyntaxCompacter is implemented by actions that keep parsed expressions
// to evaluate per call: CompactSyntax replaces each with eval.Compact's
// copy, before any call runs (see table.Table.CompactSyntax).
type SyntaxCompacter interface {
	CompactSyntax()
}

// Checker is implemented by actions that can be checked against their
// live backend without running them (a SQL statement is prepared, not
// executed). `mcpdecl check` calls it after opening the backends.
type Checker interface {
	Check(ctx context.Context) hcl.Diagnostics
}

// Opener is implemented by backends that acquire resources (a connection
// pool) before serving. `mcpdecl validate` never calls it.
type Opener interface {
	Open(ctx context.Context) error
}

// Request is one call of an action.
type Request struct {
	// Args holds the validated arguments, as an object of the declared
	// types; absent optional arguments are null.
	Args cty.Value
	// ArgsJSON holds the same arguments as decoded JSON (for a command's
	// stdin, say).
	ArgsJSON map[string]any
	// Static evaluates expressions of the call block (variables, locals,
	// functions).
	Static *eval.Static
	// Vars are further variables of the call's HCL expressions, by root
	// name: "steps", the answers of the steps that ran before this call
	// (the roots Scope.Extra declared at load time). nil when there are
	// none.
	Vars map[string]cty.Value
	// Header holds the inbound HTTP request's headers; nil on stdio.
	Header http.Header
	// Timeout, when positive, is THE deadline of this call: the enclosing
	// tool's timeout. It replaces the call block's and the backend's own
	// timeouts (a tool's "2m" is not cut short by a backend's default
	// "30s"); ctx carries the same deadline. Zero: the adapter applies its
	// call's or backend's timeout.
	Timeout time.Duration
	// Progress reports progress of a long call; never nil (a no-op when the
	// client did not ask for progress).
	Progress func(progress, total float64, message string)
	// Log sends a log line to the client at a level (debug, info, notice,
	// warning, error); never nil (a no-op when the client asked for none).
	Log func(level string, data any)
	// AnswerOnly says that nothing will read the result's Fields (no
	// error rule, no result block, no step reads them): only Text,
	// Structured or StructuredJSON, Media and Failure count. An adapter
	// may then skip decoding the answer into values and give the
	// structured content as JSON text.
	AnswerOnly bool
	// Observer follows the call's backend traffic (trace context in HTTP
	// headers, status codes); nil when nobody does.
	Observer Observer
	// CallerToken is the caller's verified access token, set only for a
	// call of a backend whose CallerNeeds ask for it (see ForCaller); ""
	// otherwise and whenever no token was verified (stdio). It belongs to
	// this call alone: an adapter never sends it on as it is, never keeps
	// it past the call except under a key derived from it, and never
	// writes it into a message.
	CallerToken string
}

// Context returns the evaluation context of expr in this call: variables,
// locals, functions, args and Vars. A nil Static gives no variables or
// locals.
func (r *Request) Context(expr hcl.Expression) *hcl.EvalContext {
	static := r.Static
	if static == nil {
		static = &eval.Static{}
	}
	ctx := static.WithArgs(expr, r.Args)
	for k, v := range r.Vars {
		ctx.Variables[k] = v
	}
	return ctx
}

// Borrow is Context in an evaluation context taken from a pool: the
// caller gives it back with eval.Return once its values are computed and
// keeps nothing that refers to it (a value computed in it does not).
func (r *Request) Borrow(expr hcl.Expression) *hcl.EvalContext {
	static := r.Static
	if static == nil {
		static = &eval.Static{}
	}
	return static.Borrow(expr, r.Args, r.Vars)
}

// Result is what a call produced.
type Result struct {
	// Fields holds the values of the adapter's ResultEnv names (status,
	// headers, body; rows, columns; exit_code, stdout, ...), for the
	// `when`, `result` and `message` programs. A number a double cannot
	// hold as the backend wrote it (a decimal, a large integer) is a
	// json.Number with those digits; the programs keep it exact.
	Fields map[string]any
	// Text is the answer shown when no result block says otherwise.
	Text string
	// Structured is the default structuredContent (a JSON object), or nil.
	Structured map[string]any
	// StructuredJSON is the default structuredContent as JSON text of an
	// object, checked, in valid UTF-8, instead of Structured (only when
	// the request was AnswerOnly).
	StructuredJSON json.RawMessage
	// Media is binary content (an image, audio, any other blob) the call
	// produced instead of text; nil for text answers.
	Media *Media
	// Failure, when not empty, says the call failed in a way the model
	// should see as an error (a non-2xx status, a non-zero exit) unless an
	// error rule of the tool matches first.
	Failure string
}

// Media is binary content with its MIME type.
type Media struct {
	MimeType string
	Data     []byte
}

// CallError is an error whose message is written for the model: what
// happened and whether retrying may help. Invoke returns one for failures
// outside the backend's answer (refused connection, timeout, TLS, a
// database that is down); any other error is logged and reported to the
// model only as an internal failure.
type CallError struct {
	Message   string
	Retryable bool
	Err       error
}

func (e *CallError) Error() string { return e.Message }
func (e *CallError) Unwrap() error { return e.Err }

// BackendBlock is a backend block handed to CompileBackend.
type BackendBlock struct {
	Name      string
	Body      hcl.Body
	DeclRange hcl.Range
	Scope     *Scope
	// CallerScope is Scope with auth.* visible (the caller's subject,
	// scopes and claims, unknown at load time), for the blocks that make
	// the backend act for the caller (an SQL backend's identity). Without
	// an auth block in the configuration auth.* is refused with a message
	// saying what to add.
	CallerScope *Scope
}

// CallBlock is a call block handed to CompileCall.
type CallBlock struct {
	// Owner names the enclosing block for messages, e.g. `tool "search"`.
	Owner string
	// Backend is the compiled backend the call names; nil when it names none.
	Backend   Backend
	Body      hcl.Body
	DeclRange hcl.Range
	TypeRange hcl.Range
	Scope     *Scope
	// Timeout is the deadline the enclosing tool sets for each call (its
	// timeout attribute), 0 when it sets none. Invoke gets it again as
	// Request.Timeout; a limit the backend enforces outside the call's
	// context (a database's own statement timeout) must allow this long.
	Timeout time.Duration
}

// ArgsType returns the Go type of `args` inside expr-lang programs.
func (c *CallBlock) ArgsType() reflect.Type { return c.Scope.ArgsEnv }
