package serving

import (
	"fmt"
	"net"
	"net/http"
	"sync"

	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/table"
)

// ToolsetPath is the path of a toolset's MCP endpoint: the toolsets
// segment and its name under the MCP endpoint's path (/mcp/toolsets/repos).
func ToolsetPath(endpoint, name string) string { return endpoint + "/toolsets/" + name }

// checkToolsets refuses --toolset names the configuration does not declare.
func checkToolsets(t *table.Table, names []string) error {
	for _, n := range names {
		if t.Toolset(n) == nil {
			if len(t.Toolsets) == 0 {
				return fmt.Errorf("--toolset %s: the configuration declares no toolset; add a toolset %q block", n, n)
			}
			return fmt.Errorf("--toolset %s: the configuration declares no such toolset.%s", n, rule.DidYouMean(n, t.ToolsetNames()))
		}
	}
	return nil
}

// toolsetEndpoints serves the endpoint of every toolset of the served
// configuration, each an MCP endpoint of its own (its sessions, its
// listen streams), made on its first request so that a reload that adds
// a toolset serves it.
type toolsetEndpoints struct {
	inst *Instance
	addr net.Addr

	mu  sync.Mutex
	eps map[string]*toolsetEndpoint
}

type toolsetEndpoint struct {
	proto   *mcp.Server
	handler http.Handler
}

func (e *toolsetEndpoints) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if e.inst.srv.Table().Toolset(name) == nil {
		http.Error(w, fmt.Sprintf("no toolset %q is served here", name), http.StatusNotFound)
		return
	}
	e.endpoint(name).handler.ServeHTTP(w, r)
}

func (e *toolsetEndpoints) endpoint(name string) *toolsetEndpoint {
	e.mu.Lock()
	defer e.mu.Unlock()
	if ep := e.eps[name]; ep != nil {
		return ep
	}
	i := e.inst
	view := i.srv.View([]string{name}, i.opts.Dynamic)
	proto := mcp.NewServer(view, &mcp.Options{Logger: i.log, OnRequest: i.onRequest(), OnOpen: i.onOpen()})
	ep := &toolsetEndpoint{proto: proto, handler: proto.HTTPHandler(i.mcpOptions(e.addr, i.keys, view.Guard))}
	if e.eps == nil {
		e.eps = map[string]*toolsetEndpoint{}
	}
	e.eps[name] = ep
	return ep
}

// protos are the protocol servers of the toolset endpoints made so far.
func (e *toolsetEndpoints) protos() []*mcp.Server {
	if e == nil {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]*mcp.Server, 0, len(e.eps))
	for _, ep := range e.eps {
		out = append(out, ep.proto)
	}
	return out
}

// mountToolsets serves the toolset endpoints under the MCP endpoint.
func (c *Instance) mountToolsets(mux *routeMux, addr net.Addr) {
	c.toolsets = &toolsetEndpoints{inst: c, addr: addr}
	mux.Handle(ToolsetPath(c.opts.Path, "{name}"), c.toolsets)
}

// allProtos are the protocol servers of every endpoint: the MCP
// endpoint's and the toolsets'.
func (i *Instance) allProtos() []*mcp.Server {
	return append([]*mcp.Server{i.proto}, i.toolsets.protos()...)
}
