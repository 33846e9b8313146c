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

func TestParseStateKeys(t *testing.T) {
	key := randomKey(t)
	raw := make([]byte, 40)
	rand.Read(raw)
	urlKey := base64.RawURLEncoding.EncodeToString(raw)
	keys, err := parseStateKeys("# rotated 2026-12-01\n"+key+"\n\n  "+urlKey+"  \n", "keys")
	if err != nil || len(keys) != 2 || len(keys[0]) != 32 || len(keys[1]) != 40 {
		t.Fatalf("got %d keys, %v", len(keys), err)
	}
	fromEnv, err := (&stateKeyFlags{StateKeys: key + "," + urlKey}).keys()
	if err != nil || len(fromEnv) != 2 {
		t.Fatalf("MCPDECL_STATE_KEYS: got %d keys, %v", len(fromEnv), err)
	}
	short := base64.StdEncoding.EncodeToString([]byte("sixteen bytes!!!"))
	for text, want := range map[string]string{
		key + "\n" + short:   "keys:2: the key has 16 bytes; use at least 32",
		"not*base64":         "keys:1: the key is not base64",
		"# only a comment\n": "keys: no key found",
	} {
		_, err := parseStateKeys(text, "keys")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
		if err != nil && strings.Contains(err.Error(), short) {
			t.Errorf("the error shows the key: %v", err)
		}
	}
}

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

// TestStateKeyFileMustBeRegular: a --state-key-file that is a named pipe
// is refused at once; it is read again on every SIGHUP, which a pipe
// without a writer would hang forever.
func TestStateKeyFileMustBeRegular(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "keys")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := (&stateKeyFlags{StateKeyFile: fifo}).keys()
	if err == nil || !strings.Contains(err.Error(), "--state-key-file") || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("keys from a named pipe: %v", err)
	}
}
