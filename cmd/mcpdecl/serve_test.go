package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const reloadConfigA = `
server {
  name    = "reload"
  version = "1.0.0"
}

tool "greet" {
  description = "Greet someone."
  arg "name" {
    type = string
  }
  result {
    text = "'Hello ' + args.name"
  }
}
`

const reloadExtraTool = `
tool "shout" {
  description = "Shout a word."
  arg "word" {
    type = string
  }
  result {
    text = "upper(args.word) + '!'"
  }
}
`

// A result expression naming something that does not exist fails to load.
const reloadBroken = `
tool "bad" {
  description = "Broken."
  result {
    text = "no_such_name"
  }
}
`

// lockedBuffer collects the child's stderr.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestServeReloadOnSIGHUP runs the built binary over stdio as a legacy
// client would, rewrites its configuration and sends SIGHUP: the session
// gets notifications/tools/list_changed and lists the new tool. A broken
// rewrite is logged on stderr and the previous tools keep being served.
func TestServeReloadOnSIGHUP(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	config := filepath.Join(dir, "config.hcl")
	writeFile(t, config, reloadConfigA)

	cmd := exec.Command(bin, "serve", config)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		select {
		case <-exited:
		default:
			cmd.Process.Kill()
		}
	}()
	lines := make(chan string, 16)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	send := func(s string) {
		t.Helper()
		if _, err := io.WriteString(stdin, s+"\n"); err != nil {
			t.Fatalf("writing to the server: %v; stderr:\n%s", err, stderr)
		}
	}
	read := func(what string) map[string]any {
		t.Helper()
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("%s: stdout closed; stderr:\n%s", what, stderr)
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("%s: stdout carries a non-JSON line %q", what, line)
			}
			return m
		case <-time.After(15 * time.Second):
			t.Fatalf("%s: nothing on stdout within 15s; stderr:\n%s", what, stderr)
		}
		return nil
	}
	id := 0
	listTools := func() []string {
		t.Helper()
		id++
		send(`{"jsonrpc":"2.0","id":` + itoa(id) + `,"method":"tools/list"}`)
		m := read("tools/list")
		if m["id"] != float64(id) {
			t.Fatalf("want the answer to tools/list %d, got %v", id, m)
		}
		var names []string
		for _, tool := range m["result"].(map[string]any)["tools"].([]any) {
			names = append(names, tool.(map[string]any)["name"].(string))
		}
		return names
	}
	hangup := func() {
		t.Helper()
		if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
	}

	id++
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	if m := read("initialize"); m["result"] == nil {
		t.Fatalf("initialize failed: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if diff := cmp.Diff([]string{"greet"}, listTools()); diff != "" {
		t.Errorf("tools before reload mismatch (-want +got):\n%s", diff)
	}

	writeFile(t, config, reloadConfigA+reloadExtraTool)
	hangup()
	if m := read("list_changed after SIGHUP"); m["method"] != "notifications/tools/list_changed" || m["id"] != nil {
		t.Fatalf("want notifications/tools/list_changed, got %v", m)
	}
	if diff := cmp.Diff([]string{"greet", "shout"}, listTools()); diff != "" {
		t.Errorf("tools after reload mismatch (-want +got):\n%s", diff)
	}
	id++
	send(`{"jsonrpc":"2.0","id":` + itoa(id) + `,"method":"tools/call","params":{"name":"shout","arguments":{"word":"hey"}}}`)
	if m := read("tools/call shout"); !strings.Contains(mustJSONString(m), `"text":"HEY!"`) {
		t.Errorf("tools/call of the new tool = %v", m)
	}

	writeFile(t, config, reloadConfigA+reloadExtraTool+reloadBroken)
	hangup()
	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(stderr.String(), "reload failed") {
		if time.Now().After(deadline) {
			t.Fatalf("no reload error on stderr after a broken rewrite:\n%s", stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(stderr.String(), "no_such_name") {
		t.Errorf("stderr does not show the diagnostic for the broken file:\n%s", stderr)
	}
	// The next line must be the answer, not a list_changed: nothing changed.
	if diff := cmp.Diff([]string{"greet", "shout"}, listTools()); diff != "" {
		t.Errorf("tools after a broken reload mismatch (-want +got):\n%s", diff)
	}

	stdin.Close()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("mcpdecl serve exited with %v; stderr:\n%s", err, stderr)
		}
	case <-time.After(15 * time.Second):
		t.Errorf("mcpdecl serve did not exit on stdin EOF")
	}
}

// TestServeSIGHUPWhileLoading sends SIGHUP while the first configuration
// is still loading (a large one, so the window is wide). The signal must
// not kill the server: it answers initialize afterwards. Before the fix in
// serve.go, SIGHUP was only caught once serving had begun, and its default
// action terminated the process.
func TestServeSIGHUPWhileLoading(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	var big strings.Builder
	for i := range 4000 {
		big.WriteString(strings.ReplaceAll(reloadExtraTool, `"shout"`, `"shout`+itoa(i)+`"`))
	}
	config := filepath.Join(dir, "big.hcl")
	writeFile(t, config, big.String())
	cmd := exec.Command(bin, "serve", "--log-level", "debug", config)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}` + "\n")
	var stdout lockedBuffer
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	// The server says when SIGHUP stops being fatal, just before the load;
	// a fixed sleep was too short on a loaded machine.
	for !strings.Contains(stderr.String(), "SIGHUP from now on reloads it") {
		if cmd.ProcessState != nil || time.Since(started) > 60*time.Second {
			t.Fatalf("the server never said it handles SIGHUP; stderr:\n%s", stderr)
		}
		time.Sleep(2 * time.Millisecond)
	}
	if strings.Contains(stderr.String(), "serving") {
		t.Log("the configuration loaded before the signal; the test proves less on this machine")
	}
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("mcpdecl serve died on an early SIGHUP: %v; stderr:\n%s", err, stderr)
		}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("mcpdecl serve did not finish; stderr:\n%s", stderr)
	}
	if !strings.Contains(stdout.String(), `"protocolVersion":"2025-11-25"`) {
		t.Errorf("no initialize answer after an early SIGHUP; stdout %q; stderr:\n%s", stdout.String(), stderr)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

func mustJSONString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
