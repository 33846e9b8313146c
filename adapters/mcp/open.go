package mcpadapter

import (
	"context"
	"fmt"
	"io"

	"github.com/hashicorp/hcl/v2"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/check"
)

var (
	_ adapter.Opener = (*Backend)(nil)
	_ io.Closer      = (*Backend)(nil)
)

// Open starts the program of a stdio backend and opens its session, so
// that a program that does not start stops serving from starting, and a
// reload from replacing what works. A URL backend connects on its first
// call instead, as an HTTP backend does: a remote that is down for a
// while fails its calls, not the server, and two configurations can
// front each other's tools without one waiting for the other to start.
func (b *Backend) Open(ctx context.Context) error {
	if b.URL != nil {
		return nil
	}
	if _, err := b.conn.session(ctx); err != nil {
		return fmt.Errorf("backend %q: the MCP server could not be reached: %w", b.Name, err)
	}
	return nil
}

// Close ends the session and stops the program.
func (b *Backend) Close() error { return b.conn.close() }

// CheckOpen connects as Open does and lists the server's tools, for the
// calls' Check (`mcpdecl check`).
func (b *Backend) CheckOpen(ctx context.Context) (string, hcl.Diagnostics) {
	cs, err := b.conn.session(ctx)
	if err != nil {
		return "", hcl.Diagnostics{check.Error("MCP server unreachable",
			fmt.Sprintf("The backend %q could not reach its MCP server: %s.", b.Name, err), b.declRange)}
	}
	ctx, cancel := context.WithTimeout(ctx, b.Timeout)
	defer cancel()
	tools := map[string]*sdk.Tool{}
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return "", hcl.Diagnostics{check.Error("MCP server did not list its tools",
				fmt.Sprintf("The MCP server of backend %q did not answer tools/list: %s.", b.Name, err), b.declRange)}
		}
		tools[t.Name] = t
	}
	b.conn.tools = tools
	info := cs.InitializeResult()
	server := "an MCP server"
	if info != nil && info.ServerInfo != nil {
		server = fmt.Sprintf("%s %s", info.ServerInfo.Name, info.ServerInfo.Version)
	}
	return fmt.Sprintf("backend %q: %s with %d tools", b.Name, server, len(tools)), nil
}
