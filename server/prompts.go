package server

import (
	"context"
	"errors"

	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/observe/logs"
	"github.com/mcpdecl/mcpdecl/table"
)

// GetPrompt implements mcp.Handler. Missing required arguments are a
// protocol error (-32602), as the protocol says.
func (s *Server) GetPrompt(ctx context.Context, req *mcp.Request, p *mcp.GetPromptParams) (*mcp.GetPromptResult, error) {
	ctx = logs.WithRequest(ctx, traceparent(req))
	st := s.acquire()
	defer st.release()
	o := s.observe(KindPrompt)
	if o.watched() {
		o.name = promptName(st.table, p.Name)
		ctx = o.trace(ctx, req)
	}
	start := auditStart(st)
	res, err := dispatch.GetPrompt(ctx, st.table, p.Name, p.Arguments, s.callInput(ctx, st, req, nil, p.MRTR))
	if st.hooks != nil && st.hooks.audit != nil {
		s.auditCall(ctx, st, req, start, promptName(st.table, p.Name), "", auditPromptArgs(st, p.Name, p.Arguments), err)
	}
	if o.watched() {
		o.end(ctx, st, withoutInputRequest(err), false, false)
	}
	if err != nil {
		var more *needInput
		if errors.As(err, &more) {
			return &mcp.GetPromptResult{InputRequired: more.input}, nil
		}
		return nil, st.protocolError(err)
	}
	return PromptResult(res), nil
}

// Complete implements mcp.Handler: values for a prompt argument or a
// template variable, from its completion call, completions list or enum,
// filtered by prefix.
func (s *Server) Complete(ctx context.Context, req *mcp.Request, p *mcp.CompleteParams) (*mcp.CompleteResult, error) {
	ctx = logs.WithRequest(ctx, traceparent(req))
	st := s.acquire()
	defer st.release()
	name := p.Ref.Name
	if p.Ref.Type == "ref/resource" {
		name = p.Ref.URI
	}
	o := s.observe(KindCompletion)
	if o.watched() {
		o.name = completionName(st.table, p.Ref.Type, name)
		ctx = o.trace(ctx, req)
	}
	// A completion that runs a backend call is recorded in the audit
	// trail; one filtering a list of the configuration reads no data.
	var audited *table.Arg
	start := auditStart(st)
	if !start.IsZero() {
		if a := completionArg(st.table, p.Ref.Type, name, p.Argument.Name); a != nil && a.Complete != nil {
			audited = a
		}
	}
	values, err := dispatch.Complete(ctx, st.table, p.Ref.Type, name, p.Argument.Name, p.Argument.Value, s.callInput(ctx, st, req, nil, mcp.MRTR{}))
	if o.watched() {
		o.end(ctx, st, err, false, false)
	}
	if audited != nil {
		s.auditCompletion(ctx, st, req, p, audited, start, err)
	}
	if err != nil {
		return nil, st.protocolError(err)
	}
	total := len(values)
	return &mcp.CompleteResult{Values: values, Total: &total, HasMore: false}, nil
}
