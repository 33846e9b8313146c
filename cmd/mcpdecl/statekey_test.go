package main

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

const elicitingConfig = `
server {
  name    = "replica"
  version = "1.0.0"
}

tool "confirm" {
  description = "Asks before answering."
  elicit {
    message          = "Sure?"
    requested_schema = { type = "object", properties = { ok = { type = "boolean" } } }
  }
  result {
    text = "'action=' + elicit.action"
  }
}
`

// Three serve processes behind no balancer: the round that asks lands on
// one, the answer on another. Replicas sharing the key file accept each
// other's states; a replica with another key refuses them; after a
// rotation (new key first, old key kept, SIGHUP) old states still work.
func TestServeSharedStateKeys(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	config := filepath.Join(dir, "config.hcl")
	writeFile(t, config, elicitingConfig)
	oldKey, newKey := randomKey(t), randomKey(t)
	shared, other := filepath.Join(dir, "shared.keys"), filepath.Join(dir, "other.keys")
	writeFile(t, shared, oldKey+"\n")
	writeFile(t, other, newKey+"\n")

	a := startHTTPServe(t, bin, config, "--state-key-file", shared)
	b := startHTTPServe(t, bin, config, "--state-key-file", shared)
	c := startHTTPServe(t, bin, config, "--state-key-file", other)

	if got := answerRound(t, b.url, askRound(t, a.url)); got != "action=accept" {
		t.Errorf("a replica sharing the key: %s", got)
	}
	if got := answerRound(t, c.url, askRound(t, a.url)); !strings.Contains(got, "requestState refused") {
		t.Errorf("a replica with another key: %s", got)
	}

	writeFile(t, shared, newKey+"\n"+oldKey+"\n")
	b.cmd.Process.Signal(syscall.SIGHUP)
	b.waitLog(t, "signing keys reloaded")
	if got := answerRound(t, b.url, askRound(t, a.url)); got != "action=accept" {
		t.Errorf("the previous key during the rotation: %s", got)
	}
	if got := answerRound(t, c.url, askRound(t, b.url)); got != "action=accept" {
		t.Errorf("the new key on a replica that has it: %s", got)
	}
	if got := answerRound(t, a.url, askRound(t, b.url)); !strings.Contains(got, "requestState refused") {
		t.Errorf("a state signed with the new key on a replica without it: %s", got)
	}

	writeFile(t, shared, "not a key\n")
	b.cmd.Process.Signal(syscall.SIGHUP)
	b.waitLog(t, "signing keys not reloaded")
	if got := answerRound(t, b.url, askRound(t, c.url)); got != "action=accept" {
		t.Errorf("a broken key file replaced the keys: %s", got)
	}
}

type servedProcess struct {
	cmd    *exec.Cmd
	stderr *lockedBuffer
	url    string
}

var servingOn = regexp.MustCompile(`on (http://\S+/mcp)`)

func startHTTPServe(t *testing.T, bin, config string, flags ...string) *servedProcess {
	t.Helper()
	args := append([]string{"serve", "--http", "127.0.0.1:0"}, flags...)
	p := &servedProcess{cmd: exec.Command(bin, append(args, config)...), stderr: &lockedBuffer{}}
	p.cmd.Stderr = p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.cmd.Process.Kill(); p.cmd.Wait() })
	p.waitLog(t, "serving replica on")
	p.url = servingOn.FindStringSubmatch(p.stderr.String())[1]
	return p
}

func (p *servedProcess) waitLog(t *testing.T, text string) {
	t.Helper()
	for i := 0; i < 600; i++ {
		if strings.Contains(p.stderr.String(), text) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the server never logged %q:\n%s", text, p.stderr)
}

// askRound calls the tool and returns the requestState of its question.
func askRound(t *testing.T, url string) string {
	t.Helper()
	var ir struct {
		ResultType   string `json:"resultType"`
		RequestState string `json:"requestState"`
	}
	raw := callModern(t, url, "confirm", `"arguments":{}`, `{"elicitation":{}}`)
	if err := json.Unmarshal(raw, &ir); err != nil || ir.ResultType != "input_required" {
		t.Fatalf("first round: %s", raw)
	}
	return ir.RequestState
}

// answerRound sends the answer with state and returns the result's text,
// or the error message.
func answerRound(t *testing.T, url, state string) string {
	t.Helper()
	raw := callModern(t, url, "confirm", fmt.Sprintf(`"arguments":{},"requestState":%q,"inputResponses":{"elicit":{"action":"accept","content":{"ok":true}}}`, state), `{"elicitation":{}}`)
	var res struct {
		Content []struct{ Text string } `json:"content"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || len(res.Content) != 1 {
		return string(raw)
	}
	return res.Content[0].Text
}

func randomKey(t *testing.T) string {
	t.Helper()
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(key)
}
