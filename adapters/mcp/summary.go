package mcpadapter

import "github.com/mcpdecl/mcpdecl/adapter"

var _ adapter.Summarizer = (*Action)(nil)

// Summary implements adapter.Summarizer: the method and the remote
// tool's name, as the OpenTelemetry conventions for MCP name them.
func (a *Action) Summary() *adapter.CallSummary { return a.summary }

func (a *Action) summarize() *adapter.CallSummary {
	s := &adapter.CallSummary{Kind: Kind, Operation: "tools/call " + a.Tool, Attributes: []adapter.Attribute{
		{Key: "mcp.method.name", Value: "tools/call"},
		{Key: "gen_ai.tool.name", Value: a.Tool},
	}}
	if a.Backend != nil {
		s.Backend = a.Backend.Name
	}
	return s
}
