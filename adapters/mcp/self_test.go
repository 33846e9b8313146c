package mcpadapter_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// inner is a configuration served by one mcpdecl and fronted by another.
const inner = `
server {
  name    = "inner"
  version = "1.0.0"
}

tool "shout" {
  description = "Returns the word in capitals, as structured content."
  arg "word" { type = string }
  shell {
    command = ["printf", "{\"loud\": \"%s!\"}", args.word]
    output  = "json"
  }
}

tool "fail" {
  description = "Always fails with exit code 3."
  shell {
    command = ["false"]
  }
}
`

const frontOfInner = `
server {
  name    = "outer"
  version = "1.0.0"
}

tool "shout" {
  description = "Shouts through the inner server."
  arg "word" { type = string }
  mcp "inner" {
    tool      = "shout"
    arguments = { word = args.word }
  }
  result {
    text = "{{ structured_content.loud }} ({{ len(content) }} block)"
  }
}

tool "fail" {
  description = "Fails on the inner server."
  mcp "inner" {
    tool = "fail"
  }
  error {
    when    = "is_error"
    message = "inner failed"
  }
}

tool "missing" {
  description = "Calls a tool the inner server does not have."
  mcp "inner" {
    tool = "no_such_tool"
  }
}
`

func TestFrontMcpdeclOverStdio(t *testing.T) {
	innerConfig := writeConfig(t, inner)
	front := writeConfig(t, fmt.Sprintf(`
backend "mcp" "inner" {
  command = [%q, "serve", %q]
}
`, mcpdeclBinary(t), innerConfig)+frontOfInner)
	checkFrontOfInner(t, connect(t, serveHTTP(t, front, "")))
}

func TestFrontMcpdeclOverHTTP(t *testing.T) {
	innerURL := serveHTTP(t, writeConfig(t, inner), "")
	front := writeConfig(t, fmt.Sprintf(`
backend "mcp" "inner" {
  url = %q
}
`, innerURL)+frontOfInner)
	checkFrontOfInner(t, connect(t, serveHTTP(t, front, "")))
}

func checkFrontOfInner(t *testing.T, c *client) {
	if got, _, isErr := c.call(t, "shout", map[string]any{"word": "hey"}); got != "hey! (1 block)" || isErr {
		t.Errorf("shout = %q (isError %v)", got, isErr)
	}
	if got, _, isErr := c.call(t, "fail", nil); got != "inner failed" || !isErr {
		t.Errorf("fail = %q (isError %v), want the error block's message", got, isErr)
	}
	got, _, isErr := c.call(t, "missing", nil)
	if !isErr || !strings.Contains(got, `backend "inner" refused the call of its tool "no_such_tool"`) {
		t.Errorf("missing = %q (isError %v), want a tool error naming the refusal", got, isErr)
	}
}

// TestLoopBetweenTwoServersRefused serves two configurations whose tools
// call each other: the call that would come back is refused, and the
// refusal reaches the client as a tool error.
func TestLoopBetweenTwoServersRefused(t *testing.T) {
	addrA, addrB := freeAddr(t), freeAddr(t)
	loop := func(self, peer, peerAddr string) string {
		return fmt.Sprintf(`
backend "mcp" %[2]q {
  url = "http://%[3]s/mcp"
}

tool "ping" {
  description = "Calls ping on the other server, which calls this one back."
  mcp %[2]q {
    tool = "ping"
  }
}

tool "name" {
  description = "Says which server this is, without calling any other."
  shell {
    command = ["echo", %[1]q]
  }
}

tool "peer_name" {
  description = "Asks the other server which server it is."
  mcp %[2]q {
    tool = "name"
  }
}
`, self, peer, peerAddr)
	}
	urlA := serveHTTP(t, writeConfig(t, loop("a", "b", addrB)), addrA)
	serveHTTP(t, writeConfig(t, loop("b", "a", addrA)), addrB)
	c := connect(t, urlA)
	if got, _, isErr := c.call(t, "peer_name", nil); got != "b" || isErr {
		t.Fatalf("peer_name = %q (isError %v): a chain that ends must pass", got, isErr)
	}
	got, _, isErr := c.call(t, "ping", nil)
	if !isErr || !strings.Contains(got, "leads back to this server") {
		t.Errorf("ping = %q (isError %v), want the loop refused", got, isErr)
	}
}

// TestCancellationReachesRemote cancels a call at the outer client: the
// remote tool's context ends.
func TestCancellationReachesRemote(t *testing.T) {
	started, cancelled := make(chan struct{}, 1), make(chan struct{}, 1)
	remote := sdk.NewServer(&sdk.Implementation{Name: "remote", Version: "1"}, nil)
	sdk.AddTool(remote, &sdk.Tool{Name: "wait", Description: "Waits until cancelled."},
		func(ctx context.Context, _ *sdk.CallToolRequest, _ map[string]any) (*sdk.CallToolResult, any, error) {
			started <- struct{}{}
			<-ctx.Done()
			cancelled <- struct{}{}
			return nil, nil, ctx.Err()
		})
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return remote }, nil))
	t.Cleanup(ts.Close)
	front := writeConfig(t, fmt.Sprintf(`
backend "mcp" "remote" {
  url     = "%s"
  timeout = "10m" # only the cancellation ends the call
}

tool "wait" {
  description = "Waits on the remote server until cancelled."
  mcp "remote" {
    tool = "wait"
  }
}
`, ts.URL))
	c := connect(t, serveHTTP(t, front, ""))
	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error, 1)
	go func() {
		_, err := c.cs.CallTool(ctx, &sdk.CallToolParams{Name: "wait", Arguments: map[string]any{}})
		errs <- err
	}()
	select {
	case <-started:
	case <-time.After(60 * time.Second):
		t.Fatal("the remote tool was not called")
	}
	cancel()
	select {
	case <-cancelled:
	case <-time.After(60 * time.Second):
		t.Fatal("the cancellation did not reach the remote tool")
	}
	<-errs
}
