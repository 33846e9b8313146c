package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// stdioServer is `mcpdecl serve` run as a host runs it: JSON-RPC lines on
// its stdin and stdout, logs on stderr.
type stdioServer struct {
	t      *testing.T
	stdin  io.WriteCloser
	lines  chan string
	stderr *lockedBuffer
	id     int
}

func startStdio(t *testing.T, bin string, args ...string) *stdioServer {
	t.Helper()
	cmd := exec.Command(bin, args...)
	s := &stdioServer{t: t, lines: make(chan string, 16), stderr: &lockedBuffer{}}
	cmd.Stderr = s.stderr
	var err error
	if s.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.stdin.Close(); _ = cmd.Wait() })
	go func() {
		defer close(s.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
	}()
	s.call("initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}`)
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

func (s *stdioServer) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.stdin, line+"\n"); err != nil {
		s.t.Fatalf("writing to the server: %v; stderr:\n%s", err, s.stderr)
	}
}

// read returns the next message, within 15 s.
func (s *stdioServer) read(what string) map[string]any {
	s.t.Helper()
	select {
	case line, ok := <-s.lines:
		if !ok {
			s.t.Fatalf("%s: stdout closed; stderr:\n%s", what, s.stderr)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			s.t.Fatalf("%s: a non-JSON line %q", what, line)
		}
		return m
	case <-time.After(15 * time.Second):
		s.t.Fatalf("%s: nothing on stdout within 15s; stderr:\n%s", what, s.stderr)
	}
	return nil
}

// call sends a request and returns its result; notifications that come
// first are skipped.
func (s *stdioServer) call(method, params string) map[string]any {
	s.t.Helper()
	s.id++
	s.send(`{"jsonrpc":"2.0","id":` + itoa(s.id) + `,"method":"` + method + `","params":` + params + `}`)
	for {
		m := s.read(method)
		if m["id"] == float64(s.id) {
			res, ok := m["result"].(map[string]any)
			if !ok {
				s.t.Fatalf("%s failed: %v", method, m)
			}
			return res
		}
	}
}

func (s *stdioServer) tools() []string {
	s.t.Helper()
	var names []string
	for _, tool := range s.call("tools/list", "{}")["tools"].([]any) {
		names = append(names, tool.(map[string]any)["name"].(string))
	}
	return names
}

// waitStderr waits until stderr holds text.
func (s *stdioServer) waitStderr(text string) {
	s.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(s.stderr.String(), text) {
		if time.Now().After(deadline) {
			s.t.Fatalf("stderr never said %q:\n%s", text, s.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// replaceFile writes content to path as careful editors save: a complete
// new file renamed over the old, so that no poll sees it half written
// (os.WriteFile truncates first, and a loaded machine can leave the empty
// file there longer than the test's short interval, which is a change of
// its own).
func replaceFile(t *testing.T, path, content string) {
	t.Helper()
	tmp := path + ".new"
	writeFile(t, tmp, content)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// TestServeWatch serves over stdio with --watch, as a host that cannot
// send signals would start it (one binary for both cases).
func TestServeWatch(t *testing.T) {
	bin := buildBinary(t)
	t.Run("file", func(t *testing.T) { watchFile(t, bin) })
	t.Run("directory and app page", func(t *testing.T) { watchDirectoryAndAppPage(t, bin) })
}

// watchFile: a rewrite of the configuration brings list_changed and the
// new tool; a broken rewrite is logged and the old tools keep being
// served; a fix is picked up again.
func watchFile(t *testing.T, bin string) {
	config := filepath.Join(t.TempDir(), "config.hcl")
	writeFile(t, config, reloadConfigA)
	s := startStdio(t, bin, "serve", "--watch", "--watch-interval", "50ms", config)
	if diff := cmp.Diff([]string{"greet"}, s.tools()); diff != "" {
		t.Fatalf("tools before the change (-want +got):\n%s", diff)
	}

	replaceFile(t, config, reloadConfigA+reloadExtraTool)
	if m := s.read("list_changed after the rewrite"); m["method"] != "notifications/tools/list_changed" {
		t.Fatalf("want notifications/tools/list_changed, got %v", m)
	}
	if diff := cmp.Diff([]string{"greet", "shout"}, s.tools()); diff != "" {
		t.Errorf("tools after the change (-want +got):\n%s", diff)
	}
	if !strings.Contains(s.stderr.String(), "configuration changed; reloading") {
		t.Errorf("stderr does not say why it reloaded:\n%s", s.stderr)
	}

	replaceFile(t, config, reloadConfigA+reloadExtraTool+reloadBroken)
	s.waitStderr("reload failed; still serving the previous configuration")
	if !strings.Contains(s.stderr.String(), "no_such_name") {
		t.Errorf("stderr does not show the diagnostic of the broken file:\n%s", s.stderr)
	}
	if diff := cmp.Diff([]string{"greet", "shout"}, s.tools()); diff != "" {
		t.Errorf("tools after a broken change (-want +got):\n%s", diff)
	}

	replaceFile(t, config, reloadConfigA)
	if m := s.read("list_changed after the fix"); m["method"] != "notifications/tools/list_changed" {
		t.Fatalf("want notifications/tools/list_changed, got %v", m)
	}
	if diff := cmp.Diff([]string{"greet"}, s.tools()); diff != "" {
		t.Errorf("tools after the fix (-want +got):\n%s", diff)
	}
}

// watchDirectoryAndAppPage: a directory's new .hcl file is picked up, a
// new test file is not, and a change of an app's page (a file the
// configuration names) is served after the reload.
func watchDirectoryAndAppPage(t *testing.T, bin string) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.hcl"), reloadConfigA+`
app "board" {
  uri  = "ui://reload/board"
  file = "board.html"
}
`)
	writeFile(t, filepath.Join(dir, "board.html"), "<p>first</p>")
	s := startStdio(t, bin, "serve", "--watch", "--watch-interval", "50ms", dir)
	page := func() string {
		res := s.call("resources/read", `{"uri":"ui://reload/board"}`)
		return res["contents"].([]any)[0].(map[string]any)["text"].(string)
	}
	if got := page(); !strings.Contains(got, "<p>first</p>") {
		t.Fatalf("page before the change: %q", got)
	}

	replaceFile(t, filepath.Join(dir, "board.html"), "<p>second, longer</p>")
	s.waitStderr("configuration reloaded")
	if got := page(); !strings.Contains(got, "<p>second, longer</p>") {
		t.Errorf("page after the change: %q", got)
	}

	// A test file is not part of what is served: no reload for it.
	reloads := strings.Count(s.stderr.String(), "configuration reloaded")
	writeFile(t, filepath.Join(dir, "main_test.hcl"), "this is not even HCL {")
	replaceFile(t, filepath.Join(dir, "extra.hcl"), reloadExtraTool)
	s.waitStderr("extra.hcl")
	deadline := time.Now().Add(15 * time.Second)
	for strings.Count(s.stderr.String(), "configuration reloaded") == reloads {
		if time.Now().After(deadline) {
			t.Fatalf("no reload for the new file:\n%s", s.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if strings.Contains(s.stderr.String(), "main_test.hcl") {
		t.Errorf("the test file was watched:\n%s", s.stderr)
	}
	// The directory's files are read in name order: extra.hcl first.
	if diff := cmp.Diff([]string{"shout", "greet"}, s.tools()); diff != "" {
		t.Errorf("tools after a new file (-want +got):\n%s", diff)
	}
}

func TestServeWatchIntervalMustBePositive(t *testing.T) {
	code, _, errOut := runCLI("serve", "--watch", "--watch-interval", "0s", "../../examples/orders.hcl")
	if code == 0 || !strings.Contains(errOut, "--watch-interval 0s: give a positive duration") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
