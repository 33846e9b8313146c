package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// jsonLogsConfig has a call of each kind: a tool that runs a command, one
// its timeout stops, a tool answered from its arguments with a refused
// argument, a static resource and a prompt.
const jsonLogsConfig = `
server {
  name    = "jsonlogs"
  version = "1.0.0"
}

tool "echo" {
  description = "Says the word back."
  arg "word" {
    type       = string
    max_length = 10
  }
  shell {
    command = ["echo", args.word]
  }
}

tool "stuck" {
  description = "Never answers in time."
  timeout     = "200ms"
  shell {
    command = ["sleep", "5"]
  }
}

resource "motd" {
  uri       = "note://motd"
  name      = "motd"
  mime_type = "text/plain"
  text      = "Hello."
}

prompt "greet" {
  description = "Greets."
  message "user" {
    text = "Hello there."
  }
}
`

// jsonLines parses every line of stderr as exactly one JSON object and
// returns them; a line that is not fails the test.
func jsonLines(t *testing.T, stderr string) []map[string]any {
	t.Helper()
	if stderr != "" && !strings.HasSuffix(stderr, "\n") {
		t.Errorf("stderr does not end with a newline: %q", stderr[max(0, len(stderr)-80):])
	}
	var out []map[string]any
	for i, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
		if line == "" && stderr == "" {
			break
		}
		dec := json.NewDecoder(strings.NewReader(line))
		var obj map[string]any
		if err := dec.Decode(&obj); err != nil || obj == nil {
			t.Errorf("stderr line %d is not a JSON object: %q (%v)", i+1, line, err)
			continue
		}
		if dec.More() {
			t.Errorf("stderr line %d holds more than one JSON value: %q", i+1, line)
		}
		for _, k := range []string{"time", "level", "msg"} {
			if _, ok := obj[k]; !ok {
				t.Errorf("stderr line %d has no %q: %q", i+1, k, line)
			}
		}
		out = append(out, obj)
	}
	return out
}

// findLine is the first line whose fields hold every want (values
// compared as printed), or nil.
func findLine(lines []map[string]any, want map[string]string) map[string]any {
	for _, l := range lines {
		ok := true
		for k, v := range want {
			if got, has := l[k]; !has || fmt.Sprint(got) != v {
				ok = false
				break
			}
		}
		if ok {
			return l
		}
	}
	return nil
}

// TestServeJSONLogLines runs the binary with --log-format json and debug
// level through start (with metrics on a listener of their own), calls of
// each kind, a broken SIGHUP reload and shutdown: every line it writes is
// one JSON object, and the lines say what happened, a call line for every
// call with the outcome metrics give it.
func TestServeJSONLogLines(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	config := filepath.Join(dir, "config.hcl")
	writeFile(t, config, jsonLogsConfig)
	p := startHTTPServeNamed(t, bin, config, "jsonlogs", "--log-format", "json", "--log-level", "debug", "--metrics-addr", "127.0.0.1:0")

	if got := string(callModern(t, p.url, "echo", `"arguments":{"word":"hi"}`, `{}`)); !strings.Contains(got, "hi") {
		t.Errorf("echo: %s", got)
	}
	callModern(t, p.url, "stuck", `"arguments":{}`, `{}`)
	callModern(t, p.url, "echo", `"arguments":{"word":"far too long a word"}`, `{}`)
	callModern(t, p.url, "nosuchtool", `"arguments":{}`, `{}`)
	readModern(t, p.url, "note://motd")
	postModern(t, p.url, "prompts/get", "greet", `"name":"greet"`, `{}`)

	writeFile(t, config, jsonLogsConfig+"\ntool \"broken\" {\n")
	p.cmd.Process.Signal(syscall.SIGHUP)
	p.waitLog(t, "reload failed")
	p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve exited with %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop on SIGTERM")
	}

	lines := jsonLines(t, p.stderr.String())
	for _, want := range []map[string]string{
		{"level": "INFO", "server": "jsonlogs", "url": p.url},
		{"level": "INFO", "url": metricsURLOf(lines)},
		{"msg": "call", "kind": "tool", "name": "echo", "outcome": "ok"},
		{"msg": "call", "kind": "tool", "name": "stuck", "outcome": "timeout"},
		{"msg": "backend call", "target": "tool stuck", "outcome": "timeout"},
		{"msg": "call", "kind": "tool", "name": "echo", "outcome": "tool_error"}, // a refused argument
		{"msg": "call", "kind": "tool", "name": "unknown", "outcome": "protocol_error"},
		{"msg": "call", "kind": "resource", "name": "motd", "outcome": "ok"},
		{"msg": "call", "kind": "prompt", "name": "greet", "outcome": "ok"},
		{"msg": "configuration error", "level": "ERROR"},
		{"msg": "reload failed; still serving the previous configuration", "level": "ERROR"},
		{"msg": "shutting down; finishing calls and tasks in flight", "drain_timeout": "30s"},
	} {
		if findLine(lines, want) == nil {
			t.Errorf("no line with %v", want)
		}
	}
	if l := findLine(lines, map[string]string{"msg": "reload failed; still serving the previous configuration"}); l != nil {
		if e := fmt.Sprint(l["error"]); !strings.Contains(e, "config.hcl:") {
			t.Errorf("the reload's line does not say what is wrong: %v", l)
		}
	}
	for _, l := range lines {
		if l["msg"] == "call" {
			if _, ok := l["duration_ms"].(float64); !ok || l["request_id"] == nil {
				t.Errorf("a call line without duration_ms or request_id: %v", l)
			}
		}
	}
	if t.Failed() {
		t.Logf("stderr:\n%s", p.stderr)
	}
}

// metricsURLOf is the url of the "metrics on" line.
func metricsURLOf(lines []map[string]any) string {
	for _, l := range lines {
		if u, _ := l["url"].(string); strings.HasSuffix(u, "/metrics") {
			return u
		}
	}
	return "(no metrics line)"
}

// startHTTPServeNamed is startHTTPServe for a server of another name.
func startHTTPServeNamed(t *testing.T, bin, config, name string, flags ...string) *servedProcess {
	t.Helper()
	args := append([]string{"serve", "--http", "127.0.0.1:0"}, flags...)
	p := &servedProcess{cmd: exec.Command(bin, append(args, config)...), stderr: &lockedBuffer{}}
	p.cmd.Stderr = p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.cmd.Process.Kill(); p.cmd.Wait() })
	p.waitLog(t, "serving "+name+" on")
	p.url = servingOn.FindStringSubmatch(p.stderr.String())[1]
	return p
}

// TestServeJSONStartError: with --log-format json, whatever stops serve
// before it serves is written as JSON lines, each ending in a newline:
// a command-line error, a configuration with errors (one line per
// diagnostic), a weak signing key, a port in use, and an unreachable
// Redis task store (go-redis's own lines included).
func TestServeJSONStartError(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "good.hcl")
	writeFile(t, good, jsonLogsConfig)
	broken := filepath.Join(dir, "broken.hcl")
	writeFile(t, broken, "server {\n  name = \"b\"\n}\ntool \"x\" {\n  description = 1\n")
	weak := filepath.Join(dir, "weak.keys")
	writeFile(t, weak, b64(strings.Repeat("changeme", 5))+"\n")
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	closed := closedAddr(t)

	for _, tc := range []struct {
		name string
		args []string
		want []map[string]string
	}{
		{"an unknown flag", []string{"serve", "--log-format", "json", "--no-such-flag", good},
			[]map[string]string{{"msg": "serve failed", "level": "ERROR"}}},
		{"a broken configuration", []string{"serve", "--log-format=json", broken},
			[]map[string]string{{"msg": "configuration error", "file": broken}, {"msg": "serve failed"}}},
		{"a weak signing key", []string{"serve", "--log-format", "json", "--state-key-file", weak, good},
			[]map[string]string{{"msg": "serve failed"}}},
		{"a port in use", []string{"serve", "--log-format", "json", "--http", busy.Addr().String(), good},
			[]map[string]string{{"msg": "serve failed"}}},
		{"Redis unreachable", []string{"serve", "--log-format", "json", "--http", "127.0.0.1:0", "--task-store", "redis://" + closed + "/0", good},
			[]map[string]string{{"msg": "redis client", "level": "WARN"}, {"msg": "serve failed"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, tc.args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			cmd.Env = append(os.Environ(), "MCPDECL_STATE_KEYS=", "MCPDECL_STATE_KEY_FILE=", "MCPDECL_TASK_STORE=")
			err := cmd.Run()
			if err == nil {
				t.Fatalf("serve started:\n%s", stderr.String())
			}
			lines := jsonLines(t, stderr.String())
			for _, want := range tc.want {
				if findLine(lines, want) == nil {
					t.Errorf("no line with %v in:\n%s", want, stderr.String())
				}
			}
			if l := findLine(lines, map[string]string{"msg": "serve failed"}); l == nil || fmt.Sprint(l["error"]) == "" {
				t.Errorf("the failure line does not say why: %v", l)
			}
			if stdout.Len() > 0 {
				t.Errorf("stdout: %q", stdout.String())
			}
		})
	}
}

// closedAddr is a loopback address nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}
