package mcpadapter

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/mcp"
)

// Invoke calls the remote tool: the loop check, the arguments, the
// session (connecting when needed), then tools/call with a progress token
// whose notifications reach the caller, within the call's deadline. A
// cancelled ctx cancels the remote call (notifications/cancelled).
func (a *Action) Invoke(ctx context.Context, req *adapter.Request) (*adapter.Result, error) {
	b := a.Backend
	if b == nil || req == nil {
		return nil, fmt.Errorf("%s: the call names no backend", a.Owner)
	}
	hops := mcp.HopsFrom(ctx)
	if err := b.refuseLoop(hops); err != nil {
		return nil, err
	}
	args, err := a.arguments(req)
	if err != nil {
		return nil, err
	}
	timeout := a.timeout(ctx, req)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	cs, err := b.conn.session(ctx)
	if err != nil {
		return nil, a.unreachable(ctx, err, timeout)
	}
	token, stop := b.conn.watchProgress(req.Progress)
	defer stop()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{
		Name:      a.Tool,
		Arguments: args,
		Meta:      sdk.Meta{mcp.MetaProgressToken: token, mcp.MetaHops: hopsAfter(hops)},
	})
	if err != nil {
		return nil, a.failed(ctx, err, timeout)
	}
	return answer(res)
}

// timeout is the call's one limit: the tool's, else the call block's,
// else the backend's, cut to an outer deadline that comes sooner.
func (a *Action) timeout(ctx context.Context, req *adapter.Request) time.Duration {
	timeout := a.Backend.Timeout
	if a.Timeout > 0 {
		timeout = a.Timeout
	}
	if req.Timeout > 0 {
		return req.Timeout
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < timeout {
		timeout = time.Until(dl)
	}
	return timeout
}

// arguments evaluates the arguments expression to JSON text of an object;
// an argument passed on as it is keeps the client's own JSON.
func (a *Action) arguments(req *adapter.Request) (json.RawMessage, error) {
	if a.Arguments == nil {
		return json.RawMessage("{}"), nil
	}
	text, err := eval.JSONText(a.Arguments, req.ArgsJSON, func(e hcl.Expression) (cty.Value, error) {
		v, diags := eval.Value(e, req.Context(e))
		if diags.HasErrors() {
			return cty.NilVal, notSent("the arguments could not be computed (%s)", strings.TrimSuffix(diags[0].Summary+": "+diags[0].Detail, "."))
		}
		v, _ = v.Unmark()
		if !v.IsWhollyKnown() {
			return cty.NilVal, notSent("the arguments are not known")
		}
		return v, nil
	})
	if err != nil {
		var ce *adapter.CallError
		if errors.As(err, &ce) {
			return nil, ce
		}
		return nil, notSent("the arguments cannot be sent as JSON: %s", err)
	}
	if text == nil {
		return json.RawMessage("{}"), nil
	}
	if t := bytes.TrimSpace(text); len(t) == 0 || t[0] != '{' {
		return nil, notSent("the arguments are not an object")
	}
	return text, nil
}

// noToken describes a request that was not sent because the backend's
// client credentials got no token (the token endpoint's refusal, with
// what may help); nil for any other failure.
func (a *Action) noToken(err error) *adapter.CallError {
	var ce *adapter.CallError
	if !errors.As(err, &ce) {
		return nil
	}
	return &adapter.CallError{Retryable: ce.Retryable, Err: ce.Err, Message: fmt.Sprintf(
		"The MCP server of backend %q was not called, so neither was %q. %s", a.Backend.Name, a.Tool, ce.Message)}
}

func notSent(format string, a ...any) *adapter.CallError {
	return &adapter.CallError{Message: "The call was not sent: " + fmt.Sprintf(format, a...) + "."}
}

// unreachable describes a session that could not be had.
func (a *Action) unreachable(ctx context.Context, err error, timeout time.Duration) error {
	if ce := a.noToken(err); ce != nil {
		return ce
	}
	if ce := a.stopped(ctx, err, timeout); ce != nil {
		return ce
	}
	return &adapter.CallError{Retryable: true, Err: err, Message: fmt.Sprintf(
		"The MCP server of backend %q could not be reached, so %q was not called. Retrying later may help.", a.Backend.Name, a.Tool)}
}

// failed describes a tools/call without a result: a protocol error the
// server answered (an unknown tool, invalid arguments), a deadline, a
// cancellation, or a session that broke.
func (a *Action) failed(ctx context.Context, err error, timeout time.Duration) error {
	if ce := a.noToken(err); ce != nil {
		return ce
	}
	if ce := a.stopped(ctx, err, timeout); ce != nil {
		return ce
	}
	var rpc *jsonrpc.Error
	if errors.As(err, &rpc) {
		return &adapter.CallError{Err: err, Message: fmt.Sprintf(
			"The MCP server of backend %q refused the call of its tool %q: %s (error %d).", a.Backend.Name, a.Tool, strings.TrimSuffix(rpc.Message, "."), rpc.Code)}
	}
	return &adapter.CallError{Retryable: true, Err: err, Message: fmt.Sprintf(
		"The connection to the MCP server of backend %q broke during the call of %q; it is opened again on the next call. Retrying may help.", a.Backend.Name, a.Tool)}
}

// stopped describes a call that ran out of time or was cancelled; nil
// for any other failure.
func (a *Action) stopped(ctx context.Context, err error, timeout time.Duration) *adapter.CallError {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		return &adapter.CallError{Retryable: true, Err: context.DeadlineExceeded, Message: fmt.Sprintf(
			"The MCP server of backend %q gave no answer within %s. It may be overloaded or down; retrying later may help.", a.Backend.Name, adapter.RoundLimit(timeout))}
	case errors.Is(ctx.Err(), context.Canceled) || errors.Is(err, context.Canceled):
		return &adapter.CallError{Err: context.Canceled, Message: fmt.Sprintf(
			"The call was cancelled before the MCP server of backend %q answered.", a.Backend.Name)}
	}
	return nil
}

// answer turns the remote result into ours: its blocks and structured
// content for the programs, its text blocks as the default text, its
// structuredContent as the default structured content, and isError as a
// failure that an error rule may rewrite.
func answer(res *sdk.CallToolResult) (*adapter.Result, error) {
	content := make([]any, 0, len(res.Content))
	var texts []string
	var media *adapter.Media
	for _, blk := range res.Content {
		v, err := asJSON(blk)
		if err != nil {
			return nil, err
		}
		content = append(content, v)
		switch c := blk.(type) {
		case *sdk.TextContent:
			texts = append(texts, c.Text)
		case *sdk.ImageContent:
			media = firstMedia(media, c.MIMEType, c.Data)
		case *sdk.AudioContent:
			media = firstMedia(media, c.MIMEType, c.Data)
		}
	}
	text := strings.Join(texts, "\n")
	structured, err := asJSON(res.StructuredContent)
	if err != nil {
		return nil, err
	}
	out := &adapter.Result{
		Fields: map[string]any{"content": content, "structured_content": structured, "text": text, "is_error": res.IsError},
		Text:   text,
	}
	if m, ok := structured.(map[string]any); ok {
		out.Structured = m
	}
	if len(texts) == 0 && media != nil {
		out.Media = media
	}
	if res.IsError {
		out.Failure = text
		if out.Failure == "" {
			out.Failure = "The remote tool reported an error without saying what went wrong."
		}
	}
	return out, nil
}

func firstMedia(m *adapter.Media, mime string, data []byte) *adapter.Media {
	if m != nil {
		return m
	}
	return &adapter.Media{MimeType: mime, Data: data}
}

// asJSON is v as the generic values programs read (objects, arrays,
// strings, json.Number, bool, nil).
func asJSON(v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}
