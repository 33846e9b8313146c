package mcpadapter_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// frontTools are tools of a configuration fronting the everything server
// through the backend "everything".
const frontTools = `
server {
  name    = "front"
  version = "1.0.0"
}

tool "echo" {
  description = "Echoes a message through the remote server."
  arg "message" { type = string }
  mcp "everything" {
    tool      = "echo"
    arguments = { message = args.message }
  }
}

tool "add" {
  description = "Adds two numbers on the remote server."
  arg "a" { type = number }
  arg "b" { type = number }
  mcp "everything" {
    tool      = "get-sum"
    arguments = { a = args.a, b = args.b }
  }
}

tool "weather" {
  description = "Reads the remote server's structured weather."
  arg "city" { type = string }
  mcp "everything" {
    tool      = "get-structured-content"
    arguments = { location = args.city }
  }
  result {
    structured = "{city: args.city, celsius: structured_content.temperature}"
  }
}

tool "sum_then_echo" {
  description = "Adds on the remote server in a step, then echoes the sum."
  arg "a" { type = number }
  arg "b" { type = number }
  step "sum" {
    mcp "everything" {
      tool      = "get-sum"
      arguments = { a = args.a, b = args.b }
    }
  }
  mcp "everything" {
    tool      = "echo"
    arguments = { message = "sum said: ${steps.sum.text}" }
  }
}

tool "broken" {
  description = "Calls the remote echo without its message, which it refuses."
  mcp "everything" {
    tool = "echo"
  }
  error {
    when    = "is_error"
    message = "The remote echo failed: {{ text }}"
  }
}

tool "long" {
  description = "Runs the remote long-running operation, with progress."
  mcp "everything" {
    tool      = "trigger-long-running-operation"
    arguments = { duration = 1, steps = 4 }
  }
}
`

func TestEverythingOverStdio(t *testing.T) {
	node, entry := everything(t)
	config := writeConfig(t, fmt.Sprintf(`
backend "mcp" "everything" {
  command = [%q, %q, "stdio"]
}
`, node, entry)+frontTools)
	c := connect(t, serveHTTP(t, config, ""))
	checkFront(t, c)
}

func TestEverythingOverStreamableHTTP(t *testing.T) {
	node, entry := everything(t)
	addr := freeAddr(t)
	startEverythingHTTP(t, node, entry, addr)
	config := writeConfig(t, fmt.Sprintf(`
backend "mcp" "everything" {
  url     = "http://%s/mcp"
  headers = { "X-Test" = "front" }
}
`, addr)+frontTools)
	c := connect(t, serveHTTP(t, config, ""))
	checkFront(t, c)
}

func checkFront(t *testing.T, c *client) {
	if got, _, isErr := c.call(t, "echo", map[string]any{"message": "hello"}); got != "Echo: hello" || isErr {
		t.Errorf("echo = %q (isError %v), want Echo: hello", got, isErr)
	}
	if got, _, _ := c.call(t, "add", map[string]any{"a": 2, "b": 3.5}); got != "The sum of 2 and 3.5 is 5.5." {
		t.Errorf("add = %q", got)
	}
	_, structured, isErr := c.call(t, "weather", map[string]any{"city": "Chicago"})
	m, _ := structured.(map[string]any)
	if isErr || m["city"] != "Chicago" || m["celsius"] == nil {
		t.Errorf("weather structured = %v (isError %v), want the city and the remote temperature", structured, isErr)
	}
	if got, _, _ := c.call(t, "sum_then_echo", map[string]any{"a": 1, "b": 2}); got != "Echo: sum said: The sum of 1 and 2 is 3." {
		t.Errorf("sum_then_echo = %q", got)
	}
	got, _, isErr := c.call(t, "broken", nil)
	if !isErr || !strings.HasPrefix(got, "The remote echo failed: ") || !strings.Contains(got, "message") {
		t.Errorf("broken = %q (isError %v), want the error block's message with the remote's", got, isErr)
	}
	checkProgress(t, c)
}

// checkProgress calls the long-running operation with a progress token:
// the remote's progress notifications reach this client.
func checkProgress(t *testing.T, c *client) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	params := &sdk.CallToolParams{Name: "long", Arguments: map[string]any{}}
	params.SetProgressToken("outer-token")
	res, err := c.cs.CallTool(ctx, params)
	if err != nil || res.IsError {
		t.Fatalf("long: %v %v", err, res)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var steps []float64
	for _, p := range c.progress {
		if p.ProgressToken == "outer-token" {
			steps = append(steps, p.Progress)
			if p.Total != 4 {
				t.Errorf("progress total = %v, want the remote's 4", p.Total)
			}
		}
	}
	if len(steps) == 0 {
		t.Fatalf("no progress reached the client; got %v", c.progress)
	}
	for i := 1; i < len(steps); i++ {
		if steps[i] <= steps[i-1] {
			t.Errorf("progress went %v, not increasing", steps)
		}
	}
}

// startEverythingHTTP runs the everything server's Streamable HTTP
// transport on addr.
func startEverythingHTTP(t *testing.T, node, entry, addr string) {
	t.Helper()
	_, port, _ := strings.Cut(addr, ":")
	cmd := execCommand(node, entry, "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+port)
	logs := &syncBuffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	for i := 0; !strings.Contains(logs.String(), "listening on port"); i++ {
		if i == 600 {
			t.Fatalf("the everything server did not start:\n%s", logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
