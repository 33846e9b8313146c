package wiretest

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	mcpgoclient "github.com/mark3labs/mcp-go/client"
	mcpgotransport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdecl/mcpdecl/mcp"
)

// StartMCPGo starts an mcp-go client on tr and initializes it for
// version (2026-07-28 lets the client choose), failing the test when that
// does not work. It returns the client and the negotiated version.
func StartMCPGo(t testing.TB, tr mcpgotransport.Interface, version, name string) (*mcpgoclient.Client, string) {
	t.Helper()
	var opts []mcpgoclient.ClientOption
	if version != mcp.Version20260728 {
		opts = append(opts, mcpgoclient.WithProtocolVersion(version))
	}
	c := mcpgoclient.NewClient(tr, opts...)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatalf("mcp-go Start: %v", err)
	}
	req := mcpgo.InitializeRequest{}
	req.Params.ClientInfo = mcpgo.Implementation{Name: name, Version: "1.2.1"}
	req.Params.ProtocolVersion = version
	res, err := c.Initialize(ctx, req)
	if err != nil {
		c.Close()
		t.Fatalf("mcp-go Initialize(%s): %v", version, err)
	}
	return c, res.ProtocolVersion
}

// SyncBuffer is a bytes.Buffer safe for concurrent writers (a server's log
// while the test reads it).
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
