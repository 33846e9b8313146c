package main

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
)

const limitedConfig = metricsConfig + `
limit "echo_per_tool" {
  per   = "tool"
  rate  = "2/hour"
  tools = ["echo"]
}
`

// TestServeAuditAndLimits runs `serve --http --metrics --audit FILE`
// (with --limit-store on Redis when MCPDECL_TEST_REDIS_URL is set): the
// third echo is refused with a tool error, the refusal is counted, and
// after SIGTERM the trail holds one chained record per call, which
// `audit verify` accepts.
func TestServeAuditAndLimits(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	config, trail := filepath.Join(dir, "limited.hcl"), filepath.Join(dir, "audit.jsonl")
	writeFile(t, config, limitedConfig)
	args := []string{"serve", "--http", "127.0.0.1:0", "--metrics", "--audit", trail}
	if url := testenv.Redis.Optional(t, "--limit-store on Redis"); url != "" {
		args = append(args, "--limit-store", testenv.OwnKeys(t, url))
	}
	cmd := exec.Command(bin, append(args, config)...)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	base := waitListening(t, stderr)
	for i := 0; i < 2; i++ {
		if res := callModern(t, base+"/mcp", "echo", `"arguments":{"text":"hi"}`, `{}`); strings.Contains(string(res), `"isError":true`) {
			t.Fatalf("call %d: %s", i, res)
		}
	}
	res := callModern(t, base+"/mcp", "echo", `"arguments":{"text":"hi"}`, `{}`)
	if !strings.Contains(string(res), `"isError":true`) || !strings.Contains(string(res), `Refused by the limit \"echo_per_tool\"`) {
		t.Fatalf("third call: %s", res)
	}
	callModern(t, base+"/mcp", "fail", `"arguments":{}`, `{}`)
	status, body := get(t, base+"/metrics")
	if status != http.StatusOK {
		t.Fatalf("/metrics: %d", status)
	}
	if got := value(parseExposition(t, body), "mcpdecl_limit_refusals_total", "scope=tool,tool=echo"); got != 1 {
		t.Errorf("mcpdecl_limit_refusals_total{scope=tool,tool=echo} = %v, want 1", got)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve: %v\n%s", err, stderr.String())
	}
	data, err := os.ReadFile(trail)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n != 5 || !strings.Contains(string(data), `"outcome":"refused","limit":"echo_per_tool"`) || !strings.Contains(string(data), `"name":"fail","arguments":{},"outcome":"tool_error"`) {
		t.Fatalf("trail (%d lines):\n%s", n, data)
	}
	out, err := exec.Command(bin, "audit", "verify", trail).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "4 records, chain intact") {
		t.Fatalf("audit verify: %v\n%s", err, out)
	}
}

// TestServeAuditStdoutNeedsHTTP: over stdio, stdout is the protocol's.
func TestServeAuditStdoutNeedsHTTP(t *testing.T) {
	bin := buildBinary(t)
	config := filepath.Join(t.TempDir(), "limited.hcl")
	writeFile(t, config, limitedConfig)
	out, err := exec.Command(bin, "serve", "--audit", "-", config).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "--audit - writes to stdout, which carries the protocol over stdio") {
		t.Fatalf("serve --audit - over stdio: %v\n%s", err, out)
	}
}
