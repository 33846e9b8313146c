package mcpadapter_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// taskCall sends a 2026-07-28 tools/call of tool to url from a client
// that declares the tasks extension, with hops (nil: none) as the _meta
// hop list an mcpdecl front sends, polls the task it creates until it
// ends, and returns the task as tasks/get answered it, as JSON text.
func taskCall(t *testing.T, url, tool string, hops []string) string {
	t.Helper()
	meta := map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": map[string]any{"extensions": map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}},
	}
	if hops != nil {
		meta["dev.mcpdecl/hops"] = hops
	}
	post := func(method, name string, params map[string]any) map[string]any {
		t.Helper()
		params["_meta"] = meta
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(string(body)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", method)
		req.Header.Set("Mcp-Name", name)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		var m struct {
			Result map[string]any `json:"result"`
			Error  map[string]any `json:"error"`
		}
		if err := json.Unmarshal(raw, &m); err != nil || m.Error != nil {
			t.Fatalf("%s %s: %s", method, name, raw)
		}
		return m.Result
	}
	created := post("tools/call", tool, map[string]any{"name": tool, "arguments": map[string]any{}})
	id, _ := created["taskId"].(string)
	if id == "" {
		t.Fatalf("%s did not become a task: %v", tool, created)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		got := post("tasks/get", id, map[string]any{"taskId": id})
		if got["status"] != "working" {
			text, _ := json.Marshal(got)
			return string(text)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the task of %s did not end: %v", tool, got)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// loopThroughTasks is a configuration of a server fronting its peer,
// whose tools run as tasks too.
func loopThroughTasks(self, peer, peerAddr string) string {
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

tool "ping_later" {
  description = "ping, as a task."
  task {
    mode = "required"
  }
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

tool "peer_name_later" {
  description = "Asks the other server which server it is, as a task."
  task {
    mode = "required"
  }
  mcp %[2]q {
    tool = "name"
  }
}
`, self, peer, peerAddr)
}

// TestLoopThroughTaskRefused: a tool called as a task whose mcp call
// comes back to this server through another is refused as the direct
// loop is (TestLoopBetweenTwoServersRefused), the refusal being the
// task's result; a chain through a task that ends passes.
func TestLoopThroughTaskRefused(t *testing.T) {
	addrA, addrB := freeAddr(t), freeAddr(t)
	urlA := serveHTTP(t, writeConfig(t, loopThroughTasks("a", "b", addrB)), addrA)
	serveHTTP(t, writeConfig(t, loopThroughTasks("b", "a", addrA)), addrB)
	if got := taskCall(t, urlA, "peer_name_later", nil); !strings.Contains(got, `"status":"completed"`) || !strings.Contains(got, `"text":"b"`) {
		t.Fatalf("peer_name_later: %s: a chain that ends must pass", got)
	}
	got := taskCall(t, urlA, "ping_later", nil)
	if !strings.Contains(got, `"isError":true`) || !strings.Contains(got, "leads back to this server") {
		t.Errorf("ping_later: %s, want the loop refused", got)
	}
}

// TestTaskKeepsHopList: a task created by a call that has already passed
// through max_hops servers (its _meta hop list) is refused when its mcp
// call would pass it on, as the call would be if it ran at once: a task
// carries on the hop list of the request that created it (the task
// runner's context keeps the request's values).
func TestTaskKeepsHopList(t *testing.T) {
	addrA, addrB := freeAddr(t), freeAddr(t)
	urlA := serveHTTP(t, writeConfig(t, loopThroughTasks("a", "b", addrB)), addrA)
	serveHTTP(t, writeConfig(t, loopThroughTasks("b", "a", addrA)), addrB)
	hops := make([]string, 8)
	for i := range hops {
		hops[i] = fmt.Sprintf("mcpdecl-elsewhere-%d", i)
	}
	got := taskCall(t, urlA, "peer_name_later", hops)
	if !strings.Contains(got, `"isError":true`) || !strings.Contains(got, "already passed through 8 MCP servers") {
		t.Errorf("peer_name_later after 8 servers: %s, want it refused (max_hops)", got)
	}
	if got := taskCall(t, urlA, "peer_name_later", hops[:7]); !strings.Contains(got, `"text":"b"`) {
		t.Errorf("peer_name_later after 7 servers: %s, want it passed", got)
	}
}
