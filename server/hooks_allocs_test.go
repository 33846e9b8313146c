package server

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/observe/logs"
	"github.com/mcpdecl/mcpdecl/table"
)

const hooksOffConfig = `
server {
  name    = "echo"
  version = "1.0.0"
}
tool "echo" {
  description = "Echoes the text back."
  arg "text" {
    type        = string
    description = "Text to echo."
  }
  content "text" {
    text = "echo: ${args.text}"
  }
}
resource "policy" {
  uri  = "library://policy"
  text = "Books are lent for three weeks."
}
`

// withoutHooks are CallTool and ReadResource as they were before limits
// and the audit trail: the same call, without the hooks' checks.
func (s *Server) callToolWithoutHooks(ctx context.Context, req *mcp.Request, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
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

func (s *Server) readResourceWithoutHooks(ctx context.Context, req *mcp.Request, p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
	ctx = logs.WithRequest(ctx, traceparent(req))
	st := s.acquire()
	defer st.release()
	o := s.observe(KindResource)
	if o.watched() {
		o.name = resourceName(st.table, p.URI)
		ctx = o.trace(ctx, req)
	}
	contents, err := dispatch.ReadResource(ctx, st.table, p.URI, s.callInput(ctx, st, req, nil, mcp.MRTR{}))
	if o.watched() {
		o.end(ctx, st, err, false, false)
	}
	if err != nil {
		return nil, st.protocolError(err)
	}
	res := ResourceResult(contents)
	if len(contents) > 0 && contents[0].CacheScope != "" {
		res.Cache = &mcp.CacheHint{TTLMs: st.info.CacheTTLMs, Scope: contents[0].CacheScope}
	}
	return res, nil
}

// TestHooksOffAllocateNothing: with no limit block and no audit trail,
// a call allocates exactly what the same call allocates without the
// hooks' code.
func TestHooksOffAllocateNothing(t *testing.T) {
	if raceDetectorOn {
		t.Skip("allocation counts vary under the race detector (sync.Pool drops at random); go test without -race measures them")
	}
	cfg, diags := lang.LoadSource("echo.hcl", []byte(hooksOffConfig))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, adapter.NewRegistry(), table.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	s := New(tbl, nil)
	if s.state.Load().hooks != nil {
		t.Fatal("hooks are on without limits or audit")
	}
	ctx := context.Background()
	req := &mcp.Request{Method: "tools/call", Era: mcp.EraModern, Notifier: nopNotifier{}}
	p := &mcp.CallToolParams{Name: "echo", Arguments: json.RawMessage(`{"text":"hi"}`)}
	hooked := testing.AllocsPerRun(200, func() { _, _ = s.CallTool(ctx, req, p) })
	bare := testing.AllocsPerRun(200, func() { _, _ = s.callToolWithoutHooks(ctx, req, p) })
	if hooked != bare {
		t.Errorf("tools/call allocates %v times with the hooks off, %v without them", hooked, bare)
	}
	rr := &mcp.ReadResourceParams{URI: "library://policy"}
	hooked = testing.AllocsPerRun(200, func() { _, _ = s.ReadResource(ctx, req, rr) })
	bare = testing.AllocsPerRun(200, func() { _, _ = s.readResourceWithoutHooks(ctx, req, rr) })
	if hooked != bare {
		t.Errorf("resources/read allocates %v times with the hooks off, %v without them", hooked, bare)
	}
}
