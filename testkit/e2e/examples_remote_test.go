package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
	"github.com/mcpdecl/mcpdecl/mcp"
)

// everythingCommand is the command that starts the official "everything"
// server that scripts/mcp-everything.sh installs (pinned by its lock
// file), as the HCL list a list(string) variable takes. The test is
// skipped, naming the script, when it is not installed.
func everythingCommand(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("MCPDECL_TOOLS_DIR")
	if dir == "" {
		dir = repoPath(t, ".tools")
	}
	entry := filepath.Join(dir, "mcp-everything", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(entry); err != nil {
		testenv.Require(t, "@modelcontextprotocol/server-everything in "+filepath.Join(dir, "mcp-everything"), "run ./scripts/mcp-everything.sh")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		testenv.Require(t, "node on PATH", "apt-get install nodejs")
	}
	return fmt.Sprintf("[%q, %q, \"stdio\"]", node, entry)
}

// TestRemoteExample serves examples/remote.hcl, the file README's "Other
// MCP servers as backends" points at, over HTTP with its everything
// variable set to the pinned everything server (the default fetches it
// with npx from the network): a go-sdk client's calls of add and shout
// reach the remote's get-sum and echo, and their answers come back as
// this server's.
func TestRemoteExample(t *testing.T) {
	command := everythingCommand(t)
	endpoint := serveHTTPInProcess(t, repoPath(t, "examples/remote.hcl"), map[string]string{"everything": command}, nil, &wireLog{}, &syncBuffer{})
	c := connectSDK(t, &sdkmcp.StreamableClientTransport{Endpoint: endpoint, DisableStandaloneSSE: true}, mcp.Version20251125)
	defer c.close()
	ctx := testCtx(t)
	res, err := c.callTool(ctx, "add", map[string]any{"a": 2, "b": 3.5})
	if err != nil || res.IsError || res.Text != "The sum of 2 and 3.5 is 5.5." {
		t.Errorf("add: %+v, %v", res, err)
	}
	res, err = c.callTool(ctx, "shout", map[string]any{"message": "hello"})
	if err != nil || res.IsError || res.Text != "Echo: HELLO" {
		t.Errorf("shout: %+v, %v", res, err)
	}
}
