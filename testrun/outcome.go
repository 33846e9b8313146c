package testrun

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"

	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
)

// Target is one call: a tool, a resource read or a prompt, with its
// arguments as a client would send them.
type Target struct {
	// Exactly one of Tool, Resource and Prompt is set.
	Tool, Resource, Prompt string
	// Arguments of a tool: a JSON object, or empty.
	Arguments json.RawMessage
	// PromptArgs are the arguments of a prompt (strings, as the protocol
	// carries them).
	PromptArgs map[string]string
	// Answers are the client's answers to the call's questions
	// (elicitation, sampling, roots) by key, as the client would send
	// them. A question without an answer is one the client cannot answer.
	Answers map[string]json.RawMessage
	// Identity is the caller's verified access token (the test's auth);
	// nil for a call without a token, as over stdio.
	Identity *auth.Identity
}

// Outcome is what the client receives: one of the three results, or a
// protocol error.
type Outcome struct {
	Tool     *mcp.CallToolResult
	Resource *mcp.ReadResourceResult
	Prompt   *mcp.GetPromptResult
	// Err is the protocol error (JSON-RPC error) the client would get.
	Err *mcp.Error
}

// CallerTokenPlaceholder is the access token of a test's caller (its
// auth = { subject = ... }): clearly not a real one, so that a token
// exchange the test's mocks answer can be checked for it.
func CallerTokenPlaceholder(subject string) string { return "mcpdecl-test-caller-token-" + subject }

// Failed reports whether the client would see a failure: a protocol error
// or a tool result with isError.
func (o *Outcome) Failed() bool {
	return o.Err != nil || o.Tool != nil && o.Tool.IsError
}

// Run makes the call on table, whose backends are open, and shapes the
// result as the server does. log receives the detail of failures (the
// client sees only their message); nil discards it.
func Run(ctx context.Context, tbl *table.Table, t *Target, log *slog.Logger) (*Outcome, error) {
	in := &dispatch.CallInput{Arguments: t.Arguments, Logger: log, Ask: answersFrom(t.Answers), Identity: t.Identity}
	if t.Identity != nil {
		// The test's caller has no real access token; a backend that
		// exchanges the caller's token (token_exchange) sends this one
		// to its token URL, which the test mocks like any request.
		ctx = auth.WithToken(ctx, CallerTokenPlaceholder(t.Identity.Subject))
	}
	var out Outcome
	var err error
	switch {
	case t.Tool != "":
		var r *dispatch.ToolResult
		if r, err = dispatch.CallTool(ctx, tbl, t.Tool, in); r != nil {
			out.Tool = server.ToolResult(r)
		}
	case t.Prompt != "":
		in.Arguments = nil
		var r *dispatch.PromptResult
		if r, err = dispatch.GetPrompt(ctx, tbl, t.Prompt, t.PromptArgs, in); r != nil {
			out.Prompt = server.PromptResult(r)
		}
	default:
		in.Arguments = nil
		var cs []dispatch.Contents
		if cs, err = dispatch.ReadResource(ctx, tbl, t.Resource, in); err == nil {
			out.Resource = server.ResourceResult(cs)
		}
	}
	if err == nil {
		return &out, nil
	}
	var pe *mcp.Error
	if errors.As(server.ProtocolError(err), &pe) {
		out.Err = pe
		return &out, nil
	}
	return nil, err
}

// answersFrom is an Asker that answers from a fixed set; nil when there
// are no answers, so that a call with questions says it cannot ask.
func answersFrom(answers map[string]json.RawMessage) dispatch.Asker {
	if len(answers) == 0 {
		return nil
	}
	return func(_ context.Context, a *dispatch.Asking) (map[string]json.RawMessage, error) {
		out := map[string]json.RawMessage{}
		for _, q := range a.Questions {
			if raw, ok := answers[q.Key]; ok {
				out[q.Key] = raw
			}
		}
		return out, nil
	}
}

// JSON is the result as the protocol carries it (the "result" member of
// the response), or {"error": ...} for a protocol error.
func (o *Outcome) JSON() ([]byte, error) {
	var v any
	switch {
	case o.Err != nil:
		v = map[string]any{"error": o.Err}
	case o.Tool != nil:
		v = o.Tool
	case o.Resource != nil:
		v = o.Resource
	default:
		v = o.Prompt
	}
	return json.MarshalIndent(v, "", "  ")
}
