package server

import (
	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/mcp"
)

// The conversions below are how the server shapes a table's results for
// the protocol. They are exported so that a call made without the protocol
// (mcpdecl call, mcpdecl test) shows exactly what a client would receive.

// ToolResult is a table's tool result as a tools/call result.
func ToolResult(r *dispatch.ToolResult) *mcp.CallToolResult { return toolResult(r) }

// ResourceResult is a table's resource contents as a resources/read result.
func ResourceResult(contents []dispatch.Contents) *mcp.ReadResourceResult {
	out := &mcp.ReadResourceResult{Contents: make([]mcp.ResourceContents, len(contents))}
	for i, c := range contents {
		out.Contents[i] = resourceContents(c)
	}
	return out
}

// PromptResult is a table's prompt as a prompts/get result.
func PromptResult(r *dispatch.PromptResult) *mcp.GetPromptResult {
	out := &mcp.GetPromptResult{Description: r.Description, Messages: make([]mcp.PromptMessage, len(r.Messages))}
	for i, m := range r.Messages {
		out.Messages[i] = mcp.PromptMessage{Role: m.Role, Content: contentBlock(m.Content)}
	}
	return out
}

// ProtocolError is a call's *dispatch.CallError as the protocol error a
// client receives; any other error is returned as it is. Outside a served
// table there is no token verifier, so a missing scope carries no HTTP
// challenge.
func ProtocolError(err error) error { return new(state).protocolError(err) }
