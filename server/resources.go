package server

import (
	"context"

	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/observe/logs"
)

// ReadResource implements mcp.Handler. An unknown URI is a protocol error
// whose code depends on the era (the mcp package shapes it).
func (s *Server) ReadResource(ctx context.Context, req *mcp.Request, p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
	ctx = logs.WithRequest(ctx, traceparent(req))
	st := s.acquire()
	defer st.release()
	o := s.observe(KindResource)
	if o.watched() {
		o.name = resourceName(st.table, p.URI)
		ctx = o.trace(ctx, req)
	}
	start := auditStart(st)
	contents, err := dispatch.ReadResource(ctx, st.table, p.URI, s.callInput(ctx, st, req, nil, mcp.MRTR{}))
	if st.hooks != nil && st.hooks.audit != nil {
		s.auditCall(ctx, st, req, start, resourceName(st.table, p.URI), p.URI, nil, err)
	}
	if o.watched() {
		o.end(ctx, st, err, false, false)
	}
	if err != nil {
		return nil, st.protocolError(err)
	}
	res := ResourceResult(contents)
	if len(contents) > 0 && contents[0].CacheScope != "" {
		// A resource's own scope: private when it depends on the caller.
		res.Cache = &mcp.CacheHint{TTLMs: st.info.CacheTTLMs, Scope: contents[0].CacheScope}
	}
	return res, nil
}

// HasResource implements mcp.ResourceLookup: whether a resource or a
// template serves uri, so that subscribing to anything else is refused.
func (s *Server) HasResource(uri string) bool {
	return s.state.Load().table.HasResource(uri)
}
