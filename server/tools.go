package server

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/observe/logs"
	"github.com/mcpdecl/mcpdecl/tasks"
)

// CallTool implements mcp.Handler: the table runs the call; this shapes
// its result for the protocol.
func (s *Server) CallTool(ctx context.Context, req *mcp.Request, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	ctx = logs.WithRequest(ctx, traceparent(req))
	st := s.acquire()
	defer st.release()
	o := s.observe(KindTool)
	if o.watched() {
		o.name = toolName(st.table, p.Name)
		ctx = o.trace(ctx, req)
	}
	res, timedOut, err := s.callTool(ctx, st, req, p)
	if o.watched() {
		o.end(ctx, st, err, res != nil && res.IsError, timedOut)
	}
	return res, err
}

// callTool runs the call, and says whether the tool's own deadline
// stopped it.
func (s *Server) callTool(ctx context.Context, st *state, req *mcp.Request, p *mcp.CallToolParams) (*mcp.CallToolResult, bool, error) {
	if tool := st.table.Tool(p.Name); tool != nil && tool.Task != nil {
		task, err := tasks.Wanted(req, p, tool.Task)
		if err != nil {
			return nil, false, err
		}
		if task {
			res, err := s.callAsTask(ctx, req, p, tool)
			return res, false, err
		}
	}
	res, err := dispatch.CallTool(ctx, st.table, p.Name, s.callInput(ctx, st, req, p.Arguments, p.MRTR))
	if err != nil {
		var more *needInput
		if errors.As(err, &more) {
			return &mcp.CallToolResult{InputRequired: more.input}, false, nil
		}
		return nil, false, st.protocolError(err)
	}
	return toolResult(res), res.TimedOut, nil
}

// callInput is what the table needs of a request: its arguments, headers,
// a way to reach the client, and the server's logger and default timeout.
// The input and its client are one allocation.
func (s *Server) callInput(ctx context.Context, st *state, req *mcp.Request, args json.RawMessage, mrtr mcp.MRTR) *dispatch.CallInput {
	c := &toolCaller{client: requestClient{s: s, req: req, mrtr: mrtr}}
	c.in = dispatch.CallInput{
		Arguments:      args,
		Header:         st.inboundHeader(req.Header),
		Identity:       st.identity(ctx),
		Client:         &c.client,
		Logger:         s.log,
		DefaultTimeout: s.timeout,
		Backends:       s.backends,
	}
	return &c.in
}

type toolCaller struct {
	in     dispatch.CallInput
	client requestClient
}

// requestClient reaches the client of one request.
type requestClient struct {
	s    *Server
	req  *mcp.Request
	mrtr mcp.MRTR
}

func (c *requestClient) Progress(progress, total float64, message string) {
	_ = c.req.Notifier.Progress(context.Background(), progress, total, message)
}

func (c *requestClient) Log(level string, data any) {
	_ = c.req.Notifier.Log(context.Background(), level, "mcpdecl", data)
}

func (c *requestClient) Ask(ctx context.Context, a *dispatch.Asking) (map[string]json.RawMessage, error) {
	return c.s.askQuestions(ctx, c.req, a, c.mrtr)
}

// protocolError turns a table's CallError into the protocol's error; any
// other error (already a protocol error) passes as it is.
func (st *state) protocolError(err error) error {
	var ce *dispatch.CallError
	if !errors.As(err, &ce) {
		return err
	}
	switch ce.Code {
	case dispatch.InsufficientScope:
		return st.scopeError(ce)
	case dispatch.InvalidParams:
		return mcp.InvalidParams("%s", ce.Message)
	case dispatch.NotFound:
		e := mcp.ResourceNotFound(ce.URI)
		if ce.Message != "" {
			e.Message = ce.Message
		}
		return e
	}
	return mcp.Errorf(mcp.CodeInternalError, "%s", ce.Message)
}

func toolResult(r *dispatch.ToolResult) *mcp.CallToolResult {
	out := &mcp.CallToolResult{IsError: r.IsError, StructuredContent: r.Structured, Content: make([]mcp.ContentBlock, len(r.Content))}
	for i, b := range r.Content {
		out.Content[i] = contentBlock(b)
	}
	return out
}

func contentBlock(b dispatch.Block) mcp.ContentBlock {
	out := mcp.ContentBlock{Type: b.Kind, Text: b.Text, Data: b.Data, MimeType: b.MimeType}
	if b.Link != nil {
		out.Link = &mcp.Resource{URI: b.Link.URI, Name: b.Link.Name, MimeType: b.Link.MimeType, Description: b.Link.Description}
	}
	if b.Resource != nil {
		c := resourceContents(*b.Resource)
		out.Resource = &c
	}
	return out
}

func resourceContents(c dispatch.Contents) mcp.ResourceContents {
	out := mcp.ResourceContents{URI: c.URI, MimeType: c.MimeType, Text: c.Text, Blob: c.Blob}
	if c.UI != nil {
		out.Meta = mustJSON(map[string]any{"ui": c.UI})
	}
	return out
}
