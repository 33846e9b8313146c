package server_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/mcp"
)

const askingTools = `
tool "confirm" {
  description = "Asks the user first."
  elicit {
    message          = "Go on?"
    requested_schema = { type = "object", properties = { ok = { type = "boolean" } } }
  }
  result {
    text = "'asked'"
  }
}

tool "summarize" {
  description = "Asks the client's model first."
  sample {
    prompt     = "Say hi"
    max_tokens = 10
  }
  result {
    text = "sample.text"
  }
}

tool "where" {
  description = "Asks the client's roots first."
  roots {}
  result {
    text = "'roots'"
  }
}
`

// TestHTTPUndeclaredCapabilityAnswersAtOnce: a 2025 client that declared
// no capability and calls a tool that must ask it something (elicitation,
// sampling, roots) gets -32021 naming the capability, instead of a request
// it has no handler for and a call waiting for its answer.
func TestHTTPUndeclaredCapabilityAnswersAtOnce(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		url, _ := startTableHTTP(t, askingTools, &mcp.HTTPOptions{LegacySessions: legacy})
		c := &rawClient{t: t, url: url, caps: "{}"}
		c.initialize("bare")
		for tool, capability := range map[string]string{"confirm": "elicitation", "summarize": "sampling", "where": "roots"} {
			t.Run(fmt.Sprintf("legacy_sessions=%v/%s", legacy, tool), func(t *testing.T) {
				// The deadline only ends a hang; the assertions are on the answer.
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				resp, err := c.post(ctx, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"`+tool+`","arguments":{}}}`)
				if err != nil {
					t.Fatalf("no answer: %v", err)
				}
				ms, err := messages(resp)
				if err != nil {
					t.Fatalf("reading the answer: %v", err)
				}
				for _, m := range ms {
					if m["method"] != nil {
						t.Errorf("the server sent the client a request it cannot answer: %v", m)
					}
				}
				if len(ms) == 0 {
					t.Fatal("an empty answer")
				}
				last := ms[len(ms)-1]
				e, _ := last["error"].(map[string]any)
				if e == nil || e["code"] != float64(mcp.CodeMissingRequiredClientCapability) {
					t.Fatalf("answer %v, want error -32021", last)
				}
				data, _ := e["data"].(map[string]any)
				req, _ := data["requiredCapabilities"].(map[string]any)
				if _, ok := req[capability]; !ok {
					t.Errorf("error data %v does not name %s", e["data"], capability)
				}
			})
		}
	}
}
