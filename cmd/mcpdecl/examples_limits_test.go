package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestLimitsExample serves examples/limits.hcl as README's "Limits and
// audit" does (serve --http --audit FILE): the costly lookup is refused
// on its sixth call by its own limit, with a tool error naming the limit
// and when to retry, while greet still answers (the refused call took
// nothing from the caller's budget); after SIGTERM the trail holds one
// chained record per call, the refusal among them, and audit verify
// accepts it.
func TestLimitsExample(t *testing.T) {
	bin := buildBinary(t)
	config, err := filepath.Abs("../../examples/limits.hcl")
	if err != nil {
		t.Fatal(err)
	}
	trail := filepath.Join(t.TempDir(), "audit.jsonl")
	cmd := exec.Command(bin, "serve", "--http", "127.0.0.1:0", "--audit", trail, config)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	endpoint := waitListening(t, stderr) + "/mcp"
	for i := range 5 {
		if res := callModern(t, endpoint, "lookup_word", `"arguments":{"word":"anvil"}`, `{}`); !strings.Contains(string(res), `anvil: 5 letters`) {
			t.Fatalf("lookup %d: %s", i+1, res)
		}
	}
	res := string(callModern(t, endpoint, "lookup_word", `"arguments":{"word":"anvil"}`, `{}`))
	if !strings.Contains(res, `"isError":true`) || !strings.Contains(res, `Refused by the limit \"costly_lookups\" (5/hour, per tool): retry in`) {
		t.Fatalf("the sixth lookup: %s", res)
	}
	if res := callModern(t, endpoint, "greet", `"arguments":{"name":"Ada"}`, `{}`); !strings.Contains(string(res), "Hello, Ada!") {
		t.Fatalf("greet after the refusal: %s", res)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve: %v\n%s", err, stderr.String())
	}
	data, err := os.ReadFile(trail)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(data), `"outcome":"refused","limit":"costly_lookups"`); got != 1 {
		t.Errorf("the trail records %d refusals by costly_lookups, want 1:\n%s", got, data)
	}
	out, err := exec.Command(bin, "audit", "verify", trail).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "7 records, chain intact") {
		t.Fatalf("audit verify: %v\n%s", err, out)
	}
}
