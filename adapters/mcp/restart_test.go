package mcpadapter

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/checktest"
	"github.com/mcpdecl/mcpdecl/internal/testenv"
)

// everythingCommand is the command line of the everything server over
// stdio (scripts/mcp-everything.sh installs it).
func everythingCommand(t *testing.T) (string, string) {
	t.Helper()
	entry, _ := filepath.Abs(filepath.Join("..", "..", ".tools", "mcp-everything", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"))
	if d := os.Getenv("MCPDECL_TOOLS_DIR"); d != "" {
		entry = filepath.Join(d, "mcp-everything", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	}
	if _, err := os.Stat(entry); err != nil {
		testenv.Require(t, "@modelcontextprotocol/server-everything", "run ./scripts/mcp-everything.sh")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		testenv.Require(t, "node on PATH", "apt-get install nodejs")
	}
	return node, entry
}

// TestProgramDiesAndComesBack kills the backend's program between two
// calls: the next call starts it again, and closing the backend stops it.
func TestProgramDiesAndComesBack(t *testing.T) {
	node, entry := everythingCommand(t)
	c := checktest.Compile(t, New(), fmt.Sprintf(`
backend "mcp" "everything" {
  command = [%q, %q, "stdio"]
}
mcp "everything" {
  tool      = "echo"
  arguments = { message = "again" }
}
`, node, entry))
	if c.Diags.HasErrors() {
		t.Fatal(c.Diags)
	}
	b := c.Backends["everything"].(*Backend)
	ctx := context.Background()
	if err := b.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	call := func() string {
		t.Helper()
		res, err := c.Actions[0].Invoke(ctx, &adapter.Request{Args: cty.EmptyObjectVal, Progress: func(float64, float64, string) {}})
		if err != nil {
			t.Fatal(err)
		}
		return res.Text
	}
	if got := call(); got != "Echo: again" {
		t.Fatalf("first call = %q", got)
	}
	first := b.conn.pid()
	ended := b.conn.ended()
	if err := syscall.Kill(first, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ended:
	case <-time.After(30 * time.Second):
		t.Fatal("the session did not end when its program died")
	}
	if got := call(); got != "Echo: again" {
		t.Fatalf("call after the program died = %q", got)
	}
	second := b.conn.pid()
	if second == first || b.conn.starts != 2 {
		t.Errorf("pid %d then %d, %d starts: want a second program", first, second, b.conn.starts)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if syscall.Kill(second, 0) == nil {
		// Reaped by CommandTransport.Close, which waits for the program.
		t.Errorf("the program %d still runs after Close", second)
	}
	if _, err := c.Actions[0].Invoke(ctx, &adapter.Request{Args: cty.EmptyObjectVal, Progress: func(float64, float64, string) {}}); err == nil {
		t.Error("a call after Close succeeded")
	}
}
