package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	mcpgoclient "github.com/mark3labs/mcp-go/client"
	mcpgotransport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpdecl/mcpdecl/testkit/wiretest"
)

// toolResult is what a client made of a tools/call result.
type toolResult struct {
	Text       string // the text blocks, joined by newlines
	Structured any    // structuredContent decoded as JSON (nil when absent)
	IsError    bool
}

// client is what the scenarios need from an SDK client.
type client interface {
	version() string
	listTools(ctx context.Context) ([]string, error)
	callTool(ctx context.Context, name string, args map[string]any) (toolResult, error)
	// readResource returns the text of the single content and its MIME type.
	readResource(ctx context.Context, uri string) (text, mimeType string, err error)
	// getPrompt renders each message as "role: text" or
	// "role: resource <uri> <text>".
	getPrompt(ctx context.Context, name string, args map[string]string) ([]string, error)
	close()
}

// normJSON turns a decoded JSON value of any Go shape into plain
// map[string]any / []any / float64 values.
func normJSON(v any) any {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("unmarshalable %T: %v", v, err)
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// go-sdk ----------------------------------------------------------------------

type sdkClient struct{ cs *sdkmcp.ClientSession }

func connectSDK(t *testing.T, tr sdkmcp.Transport, version string) client {
	t.Helper()
	c := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "e2e-go-sdk", Version: "1.8.0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, tr, &sdkmcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("go-sdk Connect(%s): %v", version, err)
	}
	t.Cleanup(func() { cs.Close() })
	return &sdkClient{cs}
}

func (c *sdkClient) version() string { return c.cs.InitializeResult().ProtocolVersion }
func (c *sdkClient) close()          { c.cs.Close() }

func (c *sdkClient) listTools(ctx context.Context) ([]string, error) {
	var names []string
	for tool, err := range c.cs.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		names = append(names, tool.Name)
	}
	return names, nil
}

func (c *sdkClient) callTool(ctx context.Context, name string, args map[string]any) (toolResult, error) {
	res, err := c.cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return toolResult{}, err
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdkmcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	return toolResult{Text: strings.Join(texts, "\n"), Structured: normJSON(res.StructuredContent), IsError: res.IsError}, nil
}

func (c *sdkClient) readResource(ctx context.Context, uri string) (string, string, error) {
	res, err := c.cs.ReadResource(ctx, &sdkmcp.ReadResourceParams{URI: uri})
	if err != nil {
		return "", "", err
	}
	if len(res.Contents) != 1 {
		return "", "", fmt.Errorf("%d contents", len(res.Contents))
	}
	return res.Contents[0].Text, res.Contents[0].MIMEType, nil
}

func (c *sdkClient) getPrompt(ctx context.Context, name string, args map[string]string) ([]string, error) {
	res, err := c.cs.GetPrompt(ctx, &sdkmcp.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range res.Messages {
		switch ct := m.Content.(type) {
		case *sdkmcp.TextContent:
			out = append(out, string(m.Role)+": "+ct.Text)
		case *sdkmcp.EmbeddedResource:
			out = append(out, string(m.Role)+": resource "+ct.Resource.URI+" "+ct.Resource.Text)
		default:
			out = append(out, fmt.Sprintf("%s: %T", m.Role, ct))
		}
	}
	return out, nil
}

// mcp-go ----------------------------------------------------------------------

type mcpgoClient struct {
	c   *mcpgoclient.Client
	ver string
}

func connectMCPGo(t *testing.T, tr mcpgotransport.Interface, version string) client {
	t.Helper()
	c, ver := wiretest.StartMCPGo(t, tr, version, "e2e-mcp-go")
	t.Cleanup(func() { c.Close() })
	return &mcpgoClient{c: c, ver: ver}
}

func (c *mcpgoClient) version() string { return c.ver }
func (c *mcpgoClient) close()          { c.c.Close() }

func (c *mcpgoClient) listTools(ctx context.Context) ([]string, error) {
	res, err := c.c.ListTools(ctx, mcpgo.ListToolsRequest{})
	if err != nil {
		return nil, err
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return names, nil
}

func (c *mcpgoClient) callTool(ctx context.Context, name string, args map[string]any) (toolResult, error) {
	req := mcpgo.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.c.CallTool(ctx, req)
	if err != nil {
		return toolResult{}, err
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(mcpgo.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	return toolResult{Text: strings.Join(texts, "\n"), Structured: normJSON(res.StructuredContent), IsError: res.IsError}, nil
}

func (c *mcpgoClient) readResource(ctx context.Context, uri string) (string, string, error) {
	req := mcpgo.ReadResourceRequest{}
	req.Params.URI = uri
	res, err := c.c.ReadResource(ctx, req)
	if err != nil {
		return "", "", err
	}
	if len(res.Contents) != 1 {
		return "", "", fmt.Errorf("%d contents", len(res.Contents))
	}
	tc, ok := res.Contents[0].(mcpgo.TextResourceContents)
	if !ok {
		return "", "", fmt.Errorf("contents of type %T", res.Contents[0])
	}
	return tc.Text, tc.MIMEType, nil
}

func (c *mcpgoClient) getPrompt(ctx context.Context, name string, args map[string]string) ([]string, error) {
	req := mcpgo.GetPromptRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.c.GetPrompt(ctx, req)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range res.Messages {
		switch ct := m.Content.(type) {
		case mcpgo.TextContent:
			out = append(out, string(m.Role)+": "+ct.Text)
		case mcpgo.EmbeddedResource:
			if tr, ok := ct.Resource.(mcpgo.TextResourceContents); ok {
				out = append(out, string(m.Role)+": resource "+tr.URI+" "+tr.Text)
			} else {
				out = append(out, fmt.Sprintf("%s: resource %T", m.Role, ct.Resource))
			}
		default:
			out = append(out, fmt.Sprintf("%s: %T", m.Role, ct))
		}
	}
	return out, nil
}
