package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
)

// cluster is three `mcpdecl serve` replicas sharing a key file behind
// nginx, started by scripts/replicas.sh with the shipped nginx config.
type cluster struct {
	url      string
	replicas []string // each replica's own endpoint, bypassing nginx
	dir      string   // logs and pids (one line per replica)
}

// startCluster starts the replicas of config, each with the serve flags.
func startCluster(t *testing.T, config string, flags ...string) *cluster {
	t.Helper()
	testenv.Command(t, "nginx", "apt-get install nginx-light (the test starts its own; .ci/run installs it)")
	dir := t.TempDir()
	script := repoPath(t, "scripts/replicas.sh")
	out, err := exec.Command(script, append([]string{"start", dir, fmt.Sprint(freePort(t)), "3", binPath, config}, flags...)...).Output()
	t.Cleanup(func() { exec.Command(script, "stop", dir).Run() })
	if err != nil {
		t.Fatalf("replicas.sh start: %v\n%s", err, stderrOf(err))
	}
	c := &cluster{url: strings.TrimSpace(string(out)), dir: dir}
	for i := 1; i <= 3; i++ {
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("replica-%d.log", i)))
		if err != nil {
			t.Fatal(err)
		}
		log := string(b)
		_, addr, _ := strings.Cut(log, "on http://")
		addr, _, _ = strings.Cut(addr, "/mcp")
		c.replicas = append(c.replicas, "http://"+addr+"/mcp")
	}
	return c
}

// A 2026-07-28 multi-round call whose rounds land on different replicas
// completes; a 2025 client (go-sdk) is asked a question during a call
// through the proxy; a 2025 session id minted by one replica is accepted
// by every other.
func TestReplicasBehindNginx(t *testing.T) {
	c := startCluster(t, repoPath(t, "testdata/conformance/everything.hcl"))

	t.Run("2026 rounds on different replicas", func(t *testing.T) {
		const tool = "test_input_required_result_multi_round"
		first, up1 := postRound(t, c.url, tool, "", `{}`)
		state := stateOf(t, first)
		var second json.RawMessage
		var up2 string
		// Requests without a session id are spread at random: send the
		// answer until another replica takes it (a state may be replayed).
		for i := 0; i < 30 && (up2 == "" || up2 == up1); i++ {
			second, up2 = postRound(t, c.url, tool, state, `{"step1":{"action":"accept","content":{"name":"Ada"}}}`)
		}
		if up2 == up1 {
			t.Fatalf("30 answers all landed on %s", up1)
		}
		state = stateOf(t, second)
		var third json.RawMessage
		var up3 string
		for i := 0; i < 30 && (up3 == "" || up3 == up2); i++ {
			third, up3 = postRound(t, c.url, tool, state, `{"step2":{"action":"accept","content":{"color":"teal"}}}`)
		}
		if !strings.Contains(string(third), "Ada likes teal") {
			t.Fatalf("rounds on %s, %s, %s gave %s", up1, up2, up3, third)
		}
	})

	t.Run("2025 elicitation through the proxy", func(t *testing.T) {
		client := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "replicas", Version: "1"}, &sdkmcp.ClientOptions{
			ElicitationHandler: func(ctx context.Context, req *sdkmcp.ElicitRequest) (*sdkmcp.ElicitResult, error) {
				return &sdkmcp.ElicitResult{Action: "accept", Content: map[string]any{"username": "ada", "email": "ada@example.com"}}, nil
			},
		})
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		cs, err := client.Connect(ctx, &sdkmcp.StreamableClientTransport{Endpoint: c.url}, &sdkmcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		for i := 0; i < 3; i++ {
			res, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "test_elicitation", Arguments: map[string]any{"message": "Who?"}})
			if err != nil || res.IsError || !strings.Contains(res.Content[0].(*sdkmcp.TextContent).Text, "action=accept") {
				t.Fatalf("call %d: %+v, %v", i, res, err)
			}
		}
	})

	t.Run("a 2025 session id on every replica", func(t *testing.T) {
		resp := postSession(t, c.url, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
		sid := resp.Header.Get("Mcp-Session-Id")
		if sid == "" {
			t.Fatal("initialize gave no session id")
		}
		for _, r := range c.replicas {
			if got := postSession(t, r, sid, `{"jsonrpc":"2.0","id":2,"method":"ping"}`).StatusCode; got != 200 {
				t.Errorf("%s: ping with the session id: %d", r, got)
			}
			if got := postSession(t, r, sid+"x", `{"jsonrpc":"2.0","id":3,"method":"ping"}`).StatusCode; got != 404 {
				t.Errorf("%s: a changed session id: %d, want 404", r, got)
			}
		}
	})
}

// postRound sends one 2026-07-28 round of tool and returns its result and
// the replica nginx chose.
func postRound(t *testing.T, url, tool, state, answers string) (json.RawMessage, string) {
	t.Helper()
	params := fmt.Sprintf(`"name":%q,"arguments":{}`, tool)
	if state != "" {
		params += fmt.Sprintf(`,"requestState":%q,"inputResponses":%s`, state, answers)
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + params +
		`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}}}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", tool)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	raw, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(raw, &m); err != nil || m.Error != nil {
		t.Fatalf("round of %s: %d %s", tool, resp.StatusCode, raw)
	}
	return m.Result, resp.Header.Get("X-Upstream")
}

func stateOf(t *testing.T, result json.RawMessage) string {
	t.Helper()
	var ir struct {
		ResultType   string `json:"resultType"`
		RequestState string `json:"requestState"`
	}
	if json.Unmarshal(result, &ir) != nil || ir.ResultType != "input_required" || ir.RequestState == "" {
		t.Fatalf("want input_required, got %s", result)
	}
	return ir.RequestState
}

func postSession(t *testing.T, url, sid, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}
