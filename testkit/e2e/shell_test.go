package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
)

// The shell backend end to end: examples/commands.hcl and the shell
// configurations of testdata served to real clients over stdio (the
// binary) and Streamable HTTP (in process), every server message checked
// against the official schemas.
//
//	go test ./testkit/e2e/ -run 'Shell|Commands'
//	go test ./testkit/e2e/ -run '^$' -bench ShellTool

// hostileShellValues are argument values a shell would interpret: command
// separators, substitutions, pipes, globs, a newline, options.
var hostileShellValues = []string{
	"; rm -rf /", "a; touch pwned", "$(id)", "`id`", "a | cat /etc/passwd", "a && touch pwned", "a || true",
	"a\nb", "a\r\nb", "--help", "-la", "-", "--", "*", "?", "~", "$HOME", "${PATH}", "a b", "'single'", `"double"`,
	"\\", "> out", "< /etc/passwd", "&", "../..", "ünïcödé", "",
}

// procGone reports whether the process pid no longer runs: it does not
// exist, or it is a zombie nobody reaped yet (in a container, PID 1 may
// never reap orphans). A copy of adapters/shell's test helper.
func procGone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	// The state follows the command name in parentheses: "123 (sleep) Z ...".
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && (s[i+2] == 'Z' || s[i+2] == 'X')
}

// checkGone fails the test unless every pid is gone within d.
func checkGone(t *testing.T, what string, pids []int, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for _, pid := range pids {
		for !procGone(pid) {
			if time.Now().After(deadline) {
				t.Errorf("%s: process %d still runs %s later", what, pid, d)
				syscall.Kill(pid, syscall.SIGKILL)
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// waitPIDs waits until file holds n complete lines of PIDs and returns them.
func waitPIDs(t *testing.T, file string, n int, d time.Duration) []int {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		b, _ := os.ReadFile(file)
		if lines := strings.Split(string(b), "\n"); len(lines) > n {
			var pids []int
			for _, l := range lines[:n] {
				pid, err := strconv.Atoi(l)
				if err != nil {
					t.Fatalf("%s: %q is not a PID", file, l)
				}
				pids = append(pids, pid)
			}
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s holds %q after %s; want %d PIDs", file, b, d, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// 1. examples/commands.hcl ----------------------------------------------------

// TestCommandsExample serves examples/commands.hcl to every client,
// transport and era: word_count, list_files and disk_usage on a projects
// directory of the test's own, du's failure through the error rule, and
// hostile directory names refused by the pattern before anything runs.
func TestCommandsExample(t *testing.T) {
	requireSchemas(t)
	cfg := repoPath(t, "examples/commands.hcl")
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			projects := t.TempDir()
			alpha := filepath.Join(projects, "alpha")
			for _, d := range []string{alpha, filepath.Join(projects, "empty")} {
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for _, f := range []string{"b.txt", "a.txt", "c.md"} {
				if err := os.WriteFile(filepath.Join(alpha, f), bytes.Repeat([]byte("x"), 5000), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			canary := filepath.Join(projects, "canary")
			if err := os.WriteFile(canary, []byte("still here"), 0o644); err != nil {
				t.Fatal(err)
			}
			srv := s.connect(t, cfg, map[string]string{"projects_dir": projects}, nil)
			c := srv.c
			ctx := testCtx(t)
			names, err := c.listTools(ctx)
			if err != nil {
				t.Fatalf("tools/list: %v", err)
			}
			if diff := cmp.Diff([]string{"disk_usage", "word_count", "list_files"}, names); diff != "" {
				t.Errorf("tools/list (-want +got):\n%s", diff)
			}

			// word_count: the text goes to wc's stdin.
			for _, tc := range []struct {
				text  string
				lines float64
				out   string // wc's output, trimmed, spaces squeezed
			}{
				{"one two\nthree\n", 2, "2 3 14"},
				{"hello world", 0, "0 2 11"},
				{"$(id); `id` | rm -rf /\n", 1, "1 6 23"},
			} {
				res, err := c.callTool(ctx, "word_count", map[string]any{"text": tc.text})
				if err != nil {
					t.Fatalf("word_count %q: %v", tc.text, err)
				}
				got := toolResult{Text: strings.Join(strings.Fields(res.Text), " "), Structured: res.Structured, IsError: res.IsError}
				want := toolResult{Text: tc.out, Structured: map[string]any{"lines": tc.lines}}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("word_count %q (-want +got, spaces squeezed):\n%s", tc.text, diff)
				}
			}

			// list_files: output = "lines".
			res, err := c.callTool(ctx, "list_files", map[string]any{"dir": "alpha"})
			if err != nil {
				t.Fatalf("list_files alpha: %v", err)
			}
			want := toolResult{Text: "a.txt\nb.txt\nc.md", Structured: map[string]any{"files": []any{"a.txt", "b.txt", "c.md"}}}
			if diff := cmp.Diff(want, res); diff != "" {
				t.Errorf("list_files alpha (-want +got):\n%s", diff)
			}
			res, err = c.callTool(ctx, "list_files", map[string]any{"dir": "empty"})
			if err != nil {
				t.Fatalf("list_files empty: %v", err)
			}
			if diff := cmp.Diff(toolResult{Structured: map[string]any{"files": []any{}}}, res); diff != "" {
				t.Errorf("list_files of an empty folder (-want +got):\n%s", diff)
			}

			// disk_usage: du's own output.
			res, err = c.callTool(ctx, "disk_usage", map[string]any{"dir": "alpha"})
			if err != nil {
				t.Fatalf("disk_usage alpha: %v", err)
			}
			if re := regexp.MustCompile(`^\d+(\.\d+)?[KMG]?\t` + regexp.QuoteMeta(alpha) + `$`); res.IsError || !re.MatchString(res.Text) || res.Structured != nil {
				t.Errorf("disk_usage alpha = %+v; want du -sh's line %s", res, re)
			}

			// du fails: the error rule quotes its stderr.
			res, err = c.callTool(ctx, "disk_usage", map[string]any{"dir": "missing"})
			if err != nil {
				t.Fatalf("disk_usage missing: %v", err)
			}
			wantMsg := "du failed: du: cannot access '" + filepath.Join(projects, "missing") + "': No such file or directory"
			if diff := cmp.Diff(toolResult{Text: wantMsg, IsError: true}, res); diff != "" {
				t.Errorf("disk_usage of a missing folder (-want +got):\n%s", diff)
			}

			// Hostile names never pass the pattern, except option-like ones
			// ("-la", "--help": the pattern allows "-"), which the example's
			// "--" makes operands: a folder of that name, or none.
			pattern := regexp.MustCompile(`^[a-z0-9_-]+$`)
			for _, v := range hostileShellValues {
				for _, tool := range []string{"list_files", "disk_usage"} {
					res, err := c.callTool(ctx, tool, map[string]any{"dir": v})
					switch {
					case err != nil:
						t.Errorf("%s %q: %v", tool, v, err)
					case pattern.MatchString(v):
						if !res.IsError || !strings.Contains(res.Text, "cannot access '") || !strings.Contains(res.Text, v+"': No such file or directory") {
							t.Errorf("%s %q = %+v; want the value taken as a missing folder, not an option", tool, v, res)
						}
					case !res.IsError || !strings.Contains(res.Text, "dir") || !strings.Contains(res.Text, "^[a-z0-9_-]+$"):
						t.Errorf("%s %q = %+v; want an error naming dir and its pattern", tool, v, res)
					}
				}
			}
			if err := os.Mkdir(filepath.Join(projects, "--help"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(projects, "--help", "inside.txt"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			res, err = c.callTool(ctx, "list_files", map[string]any{"dir": "--help"})
			if diff := cmp.Diff(toolResult{Text: "inside.txt", Structured: map[string]any{"files": []any{"inside.txt"}}}, res); err != nil || diff != "" {
				t.Errorf("list_files of a folder named --help (%v) (-want +got):\n%s", err, diff)
			}
			if b, err := os.ReadFile(canary); err != nil || string(b) != "still here" {
				t.Errorf("canary file: %q, %v", b, err)
			}
			srv.wire.verify(t, handshake(s.era), revision(s.era)+" tools/list", revision(s.era)+" tools/call")
		})
	}
}

// TestShellArgvLiteral serves testdata/shell_argv.hcl, whose arguments
// have no pattern, to every setup: each hostile value reaches the program
// (a script recording its argv) as exactly one argv element, alone or
// inside a larger element, and nothing of mcpdecl's environment reaches it.
func TestShellArgvLiteral(t *testing.T) {
	requireSchemas(t)
	cfg := repoPath(t, "testkit/e2e/testdata/shell_argv.hcl")
	t.Setenv("E2E_SHELL_LEAK", "must-not-leak")
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			dir := t.TempDir()
			script, out := filepath.Join(dir, "rec.sh"), filepath.Join(dir, "argv")
			body := "#!/bin/sh\nprintf '%s\\0' \"$@\" > \"$ARGV_OUT\"\nenv > \"$ARGV_OUT.env\"\necho \"recorded $# arguments\"\n"
			if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
				t.Fatal(err)
			}
			pwned := filepath.Join(dir, "pwned")
			srv := s.connect(t, cfg, map[string]string{"script": script, "out": out}, map[string]string{"E2E_SHELL_LEAK": "must-not-leak"})
			c := srv.c
			ctx := testCtx(t)
			recorded := func() []string {
				b, err := os.ReadFile(out)
				if err != nil {
					return []string{"not run: " + err.Error()}
				}
				os.Remove(out)
				return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
			}
			for _, v := range hostileShellValues {
				res, err := c.callTool(ctx, "record", map[string]any{"value": v})
				if err != nil || res.IsError || res.Text != "recorded 1 arguments" {
					t.Errorf("record %q = %+v, %v; want one argument recorded", v, res, err)
				}
				if diff := cmp.Diff([]string{v}, recorded()); diff != "" {
					t.Errorf("record %q: argv (-want +got):\n%s", v, diff)
				}
				res, err = c.callTool(ctx, "record_joined", map[string]any{"value": v})
				if err != nil || res.IsError || res.Text != "recorded 2 arguments" {
					t.Errorf("record_joined %q = %+v, %v; want two arguments recorded", v, res, err)
				}
				if diff := cmp.Diff([]string{"--value=" + v, "end"}, recorded()); diff != "" {
					t.Errorf("record_joined %q: argv (-want +got):\n%s", v, diff)
				}
			}
			// A NUL cannot be passed: refused, nothing run.
			res, err := c.callTool(ctx, "record", map[string]any{"value": "a\x00b"})
			if err != nil || !res.IsError || !strings.Contains(res.Text, "NUL") {
				t.Errorf("record with a NUL = %+v, %v; want a refusal", res, err)
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("record with a NUL ran the program (%v)", err)
			}
			if _, err := os.Stat(pwned); err == nil {
				t.Errorf("a value was run by a shell: %s exists", pwned)
			}
			// The environment: what the backend lists, PATH and LANG; what
			// sh adds itself (PWD) aside.
			b, err := os.ReadFile(out + ".env")
			if err != nil {
				t.Fatal(err)
			}
			var env []string
			for _, kv := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				if !strings.HasPrefix(kv, "PWD=") && !strings.HasPrefix(kv, "OLDPWD=") && !strings.HasPrefix(kv, "SHLVL=") && !strings.HasPrefix(kv, "_=") {
					env = append(env, kv)
				}
			}
			slices.Sort(env)
			wantEnv := []string{"ARGV_OUT=" + out, "LANG=C.UTF-8", "PATH=/usr/local/bin:/usr/bin:/bin"}
			if diff := cmp.Diff(wantEnv, env); diff != "" {
				t.Errorf("the command's environment (-want +got):\n%s", diff)
			}
			srv.wire.verify(t, revision(s.era)+" tools/call")
		})
	}
}

// go-sdk sessions with handlers -----------------------------------------------

// sdkShellSetup is one way of reaching testdata/shell_tools.hcl with a
// go-sdk client whose notification handlers the test sets.
type sdkShellSetup struct {
	name     string
	era      mcp.Era
	stdio    bool
	sessions bool // HTTP: stateful legacy sessions (serve --legacy-sessions)
}

var sdkShellSetups = []sdkShellSetup{
	{"go-sdk/stdio/legacy", mcp.EraLegacy, true, false},
	{"go-sdk/stdio/modern", mcp.EraModern, true, false},
	{"go-sdk/http/legacy", mcp.EraLegacy, false, false},
	{"go-sdk/http/modern", mcp.EraModern, false, false},
	{"go-sdk/http-sessions/legacy", mcp.EraLegacy, false, true},
}

// statelessLegacy reports whether this setup is a 2025 client served
// statelessly over HTTP (no session, so logging/setLevel is forgotten).
func (s sdkShellSetup) statelessLegacy() bool {
	return !s.stdio && !s.sessions && s.era == mcp.EraLegacy
}

// serveHTTPInProcessOpts is serveHTTPInProcess with HTTP options.
func serveHTTPInProcessOpts(t testing.TB, path string, vars map[string]string, opts *mcp.HTTPOptions, wire *wireLog, logs io.Writer) string {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	proto := mcp.NewServer(openServer(t, path, vars, nil, &server.Options{Logger: logger}), nil)
	ts := httptest.NewServer(&httpTap{next: proto.HTTPHandler(opts), log: wire})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = proto.Shutdown(ctx)
		ts.Close()
	})
	return ts.URL + "/mcp"
}

// notifRev is the revision the taps validate this setup's notifications
// under: the request's over HTTP; on stdio, the negotiated legacy one
// (stdioTap cannot tie a notification to its request).
func (s sdkShellSetup) notifRev() string {
	if s.stdio {
		return mcp.Version20251125
	}
	return revision(s.era)
}

// connect serves path with vars (the binary over stdio, or in process
// over HTTP) and connects a go-sdk client with opts.
func (s sdkShellSetup) connect(t *testing.T, path string, vars map[string]string, opts *sdkmcp.ClientOptions) (*sdkmcp.ClientSession, *wireLog) {
	t.Helper()
	wire := &wireLog{}
	var tr sdkmcp.Transport
	if s.stdio {
		p := startStdio(t, path, vars, nil, wire)
		tr = &sdkmcp.IOTransport{Reader: p.stdout, Writer: p.stdin}
	} else {
		tr = &sdkmcp.StreamableClientTransport{Endpoint: serveHTTPInProcessOpts(t, path, vars, &mcp.HTTPOptions{LegacySessions: s.sessions}, wire, &syncBuffer{})}
	}
	c := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "e2e-go-sdk", Version: "1.8.0"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, tr, &sdkmcp.ClientSessionOptions{ProtocolVersion: revision(s.era)})
	if err != nil {
		t.Fatalf("go-sdk Connect(%s): %v", revision(s.era), err)
	}
	t.Cleanup(func() { cs.Close() })
	if got := cs.InitializeResult().ProtocolVersion; got != revision(s.era) {
		t.Fatalf("negotiated %q, want %q", got, revision(s.era))
	}
	return cs, wire
}

func shellToolsVars(t *testing.T) (vars map[string]string, pidFile string) {
	pidFile = filepath.Join(t.TempDir(), "pids")
	return map[string]string{"pid_file": pidFile}, pidFile
}

// sdkText joins the text blocks of a go-sdk result.
func sdkText(res *sdkmcp.CallToolResult) string {
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdkmcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// arrivals records, in order, what a client's handlers saw.
type arrivals struct {
	mu       sync.Mutex
	order    []string
	progress []sdkmcp.ProgressNotificationParams
	logs     []sdkmcp.LoggingMessageParams
}

func (a *arrivals) options() *sdkmcp.ClientOptions {
	return &sdkmcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *sdkmcp.ProgressNotificationClientRequest) {
			a.mu.Lock()
			defer a.mu.Unlock()
			a.order = append(a.order, "progress")
			a.progress = append(a.progress, *r.Params)
		},
		LoggingMessageHandler: func(_ context.Context, r *sdkmcp.LoggingMessageRequest) {
			a.mu.Lock()
			defer a.mu.Unlock()
			a.order = append(a.order, "log")
			a.logs = append(a.logs, *r.Params)
		},
	}
}

func (a *arrivals) add(what string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.order = append(a.order, what)
}

// take returns what arrived since the last take and forgets it.
func (a *arrivals) take() (order []string, progress []sdkmcp.ProgressNotificationParams, logs []sdkmcp.LoggingMessageParams) {
	a.mu.Lock()
	defer a.mu.Unlock()
	order, progress, logs = a.order, a.progress, a.logs
	a.order, a.progress, a.logs = nil, nil, nil
	return
}

// wireSequence returns, in the order the tap saw them, the notifications
// and tools/call answers the server sent ("result" for an answer).
func wireSequence(l *wireLog) []string {
	var out []string
	for _, m := range l.All() {
		switch {
		case strings.HasPrefix(m.Method, "notifications/"):
			out = append(out, m.Method)
		case m.Method == "tools/call":
			out = append(out, "result")
		}
	}
	return out
}

// 2. Streaming ----------------------------------------------------------------

// TestShellStreaming calls the stream tool (three progress lines on
// stdout, three stderr lines, 100 ms apart) with a progress token and a
// log level, set with logging/setLevel (2025-11-25) or the request's
// _meta (2026-07-28), over stdio and HTTP: every progress and log
// notification reaches go-sdk's handlers before the result. Without a
// token and a level, none is sent.
func TestShellStreaming(t *testing.T) {
	requireSchemas(t)
	cfg := repoPath(t, "testkit/e2e/testdata/shell_tools.hcl")
	for _, s := range sdkShellSetups {
		t.Run(s.name, func(t *testing.T) {
			vars, _ := shellToolsVars(t)
			var got arrivals
			cs, wire := s.connect(t, cfg, vars, got.options())
			ctx := testCtx(t)
			meta := sdkmcp.Meta{"progressToken": "tok-stream"}
			if s.era == mcp.EraLegacy {
				if err := cs.SetLoggingLevel(ctx, &sdkmcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
					t.Fatalf("logging/setLevel: %v", err)
				}
			} else {
				meta[sdkmcp.MetaKeyLogLevel] = "debug"
			}
			res, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "stream", Arguments: map[string]any{}, Meta: meta})
			got.add("result")
			if err != nil {
				t.Fatalf("tools/call stream: %v", err)
			}
			if res.IsError || sdkText(res) != "progress 1/3\nprogress 2/3\nprogress 3/3\ndone" {
				t.Errorf("stream result: isError %v, text %q", res.IsError, sdkText(res))
			}
			order, progress, logs := got.take()
			wantProgress := []sdkmcp.ProgressNotificationParams{
				{ProgressToken: "tok-stream", Progress: 1, Total: 3, Message: "progress 1/3"},
				{ProgressToken: "tok-stream", Progress: 2, Total: 3, Message: "progress 2/3"},
				{ProgressToken: "tok-stream", Progress: 3, Total: 3, Message: "progress 3/3"},
			}
			if diff := cmp.Diff(wantProgress, progress); diff != "" {
				t.Errorf("notifications/progress (-want +got):\n%s", diff)
			}
			if s.statelessLegacy() && len(logs) == 0 {
				if diff := cmp.Diff([]string{"progress", "progress", "progress", "result"}, order); diff != "" {
					t.Errorf("arrival order (-want +got):\n%s", diff)
				}
				wire.verify(t, revision(s.era)+" tools/call", s.notifRev()+" notifications/progress")
				t.Fatal("a 2025 client served statelessly over HTTP (serve --http without --legacy-sessions) gets {} for logging/setLevel " +
					"and the logging capability, but the level is forgotten and no stderr line is ever sent as notifications/message; " +
					"either refuse or do not advertise logging there, or document it next to elicitation's note in docs/language.md")
			}
			wantLogs := []sdkmcp.LoggingMessageParams{
				{Level: "info", Logger: "mcpdecl", Data: "working on step 1"},
				{Level: "info", Logger: "mcpdecl", Data: "working on step 2"},
				{Level: "info", Logger: "mcpdecl", Data: "working on step 3"},
			}
			if diff := cmp.Diff(wantLogs, logs); diff != "" {
				t.Errorf("notifications/message (-want +got):\n%s", diff)
			}
			if len(order) != 7 || order[6] != "result" {
				t.Errorf("arrival order %v; want 6 notifications, then the result", order)
			}

			// No token, no level: nothing but the result (a legacy session
			// keeps its level: log lines only).
			res, err = cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "stream", Arguments: map[string]any{}})
			got.add("result")
			if err != nil || res.IsError {
				t.Fatalf("tools/call stream without a token: %+v, %v", res, err)
			}
			order, progress, logs = got.take()
			wantOrder := []string{"result"}
			if s.era == mcp.EraLegacy {
				wantOrder = []string{"log", "log", "log", "result"}
			}
			if diff := cmp.Diff(wantOrder, order); diff != "" || len(progress) != 0 {
				t.Errorf("without a progress token: arrivals (-want +got):\n%s\nprogress: %+v, logs: %+v", diff, progress, logs)
			}
			cs.Close() // ends a session's GET stream, so that the tap has seen everything
			wire.verify(t, revision(s.era)+" tools/call", s.notifRev()+" notifications/progress", s.notifRev()+" notifications/message")
			// On the wire: per step a progress and a log line (stdout and
			// stderr are read apart, so either may come first), then the
			// result; then three log lines (legacy) and the second result.
			seq := wireSequence(wire)
			for i := 0; i+1 < len(seq) && i < 6; i += 2 {
				if seq[i] == "notifications/message" && seq[i+1] == "notifications/progress" {
					seq[i], seq[i+1] = seq[i+1], seq[i]
				}
			}
			wantSeq := slices.Concat(slices.Repeat([]string{"notifications/progress", "notifications/message"}, 3), []string{"result"})
			if s.era == mcp.EraLegacy {
				wantSeq = append(wantSeq, slices.Repeat([]string{"notifications/message"}, 3)...)
			}
			wantSeq = append(wantSeq, "result")
			if diff := cmp.Diff(wantSeq, seq); diff != "" {
				t.Errorf("server messages in order (-want +got, each step's pair sorted):\n%s", diff)
			}
		})
	}
}

// sseEvent is one event of a raw SSE response and when it was read.
type sseEvent struct {
	data []byte
	at   time.Duration
}

// rawModernCall POSTs one 2026-07-28 tools/call of tool with the given
// _meta additions to endpoint and returns the response; the caller reads
// and closes the body.
func rawModernCall(ctx context.Context, endpoint, tool string, id int, meta map[string]any) (*http.Response, error) {
	m := map[string]any{
		"io.modelcontextprotocol/protocolVersion":    mcp.Version20260728,
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
	}
	for k, v := range meta {
		m[k] = v
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call",
		"params": map[string]any{"name": tool, "arguments": map[string]any{}, "_meta": m}})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", mcp.Version20260728)
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", tool)
	return http.DefaultClient.Do(req)
}

// readSSE reads the events of body as they arrive.
func readSSE(body io.Reader, start time.Time) ([]sseEvent, error) {
	var events []sseEvent
	var data []string
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if line == "" {
			if len(data) > 0 {
				events = append(events, sseEvent{[]byte(strings.Join(data, "\n")), time.Since(start)})
			}
			data = nil
			continue
		}
		if d, ok := strings.CutPrefix(line, "data:"); ok {
			data = append(data, strings.TrimPrefix(d, " "))
		}
	}
	return events, sc.Err()
}

// TestShellStreamingRawSSE makes the streaming call with a raw POST: the
// answer is an SSE stream whose events come as the command runs, the six
// notifications first and the result last.
func TestShellStreamingRawSSE(t *testing.T) {
	requireSchemas(t)
	vars, _ := shellToolsVars(t)
	wire := &wireLog{}
	endpoint := serveHTTPInProcess(t, repoPath(t, "testkit/e2e/testdata/shell_tools.hcl"), vars, nil, wire, &syncBuffer{})
	start := time.Now()
	resp, err := rawModernCall(testCtx(t), endpoint, "stream", 7, map[string]any{"progressToken": 42, "io.modelcontextprotocol/logLevel": "info"})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("status %d, Content-Type %q; want 200 text/event-stream", resp.StatusCode, ct)
	}
	events, err := readSSE(resp.Body, start)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, ev := range events {
		var m struct {
			ID     *int   `json:"id"`
			Method string `json:"method"`
			Params struct {
				Token    any     `json:"progressToken"`
				Progress float64 `json:"progress"`
				Data     any     `json:"data"`
			} `json:"params"`
		}
		if err := json.Unmarshal(ev.data, &m); err != nil {
			t.Fatalf("event %q: %v", ev.data, err)
		}
		switch {
		case m.Method == "notifications/progress":
			kinds = append(kinds, fmt.Sprintf("progress %v token %v", m.Params.Progress, m.Params.Token))
		case m.Method == "notifications/message":
			kinds = append(kinds, fmt.Sprintf("log %v", m.Params.Data))
		case m.ID != nil:
			kinds = append(kinds, fmt.Sprintf("result %d", *m.ID))
		default:
			kinds = append(kinds, string(ev.data))
		}
	}
	// stdout and stderr are read by two goroutines: within a step, the
	// progress and the log line may come in either order.
	want := []string{"progress 1 token 42", "log working on step 1", "progress 2 token 42", "log working on step 2",
		"progress 3 token 42", "log working on step 3", "result 7"}
	for i := 0; i+1 < len(kinds) && i+1 < 6; i += 2 {
		if strings.HasPrefix(kinds[i], "log") && strings.HasPrefix(kinds[i+1], "progress") {
			kinds[i], kinds[i+1] = kinds[i+1], kinds[i]
		}
	}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("SSE events (-want +got, each step's pair sorted):\n%s", diff)
	}
	// Streamed, not buffered: the first notification came well before the
	// result (the script sleeps 300 ms in all).
	if len(events) == 7 {
		if gap := events[6].at - events[0].at; gap < 150*time.Millisecond {
			t.Errorf("the first notification came %s before the result; want it streamed as the command ran (≥ 150ms)", gap)
		}
	}
	wire.verify(t, mcp.Version20260728+" tools/call", mcp.Version20260728+" notifications/progress", mcp.Version20260728+" notifications/message")
}

// 3. Cancellation -------------------------------------------------------------

// TestShellCancel starts the sleeper tool (sh and a sleep child), cancels
// the call (go-sdk sends notifications/cancelled, or drops the HTTP
// request) and checks both processes are gone within 3 seconds and the
// session still answers.
func TestShellCancel(t *testing.T) {
	requireSchemas(t)
	cfg := repoPath(t, "testkit/e2e/testdata/shell_tools.hcl")
	for _, s := range sdkShellSetups {
		t.Run(s.name, func(t *testing.T) {
			vars, pidFile := shellToolsVars(t)
			cs, wire := s.connect(t, cfg, vars, nil)
			ctx, cancel := context.WithCancel(testCtx(t))
			done := make(chan error, 1)
			go func() {
				_, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "sleeper", Arguments: map[string]any{}})
				done <- err
			}()
			pids := waitPIDs(t, pidFile, 2, 10*time.Second)
			cancel()
			select {
			case err := <-done:
				if err == nil {
					t.Errorf("a cancelled call returned no error")
				}
			case <-time.After(5 * time.Second):
				t.Errorf("CallTool did not return 5s after its context was cancelled")
			}
			checkGone(t, "cancelled call", pids, 3*time.Second)
			res, err := cs.CallTool(testCtx(t), &sdkmcp.CallToolParams{Name: "truth", Arguments: map[string]any{}})
			if err != nil || res.IsError {
				t.Errorf("tools/call truth after a cancelled call: %+v, %v", res, err)
			}
			cs.Close() // ends a session's GET stream, so that the tap has seen everything
			wire.verify(t, revision(s.era)+" tools/call")
		})
	}
	t.Run("raw-http/modern", func(t *testing.T) {
		vars, pidFile := shellToolsVars(t)
		wire := &wireLog{}
		endpoint := serveHTTPInProcess(t, cfg, vars, nil, wire, &syncBuffer{})
		ctx, cancel := context.WithCancel(testCtx(t))
		done := make(chan error, 1)
		go func() {
			resp, err := rawModernCall(ctx, endpoint, "sleeper", 1, nil)
			if err == nil {
				_, err = io.ReadAll(resp.Body)
				resp.Body.Close()
			}
			done <- err
		}()
		pids := waitPIDs(t, pidFile, 2, 10*time.Second)
		cancel()
		if err := <-done; err == nil {
			t.Errorf("a cancelled POST returned no error")
		}
		checkGone(t, "closed POST", pids, 3*time.Second)
		resp, err := rawModernCall(testCtx(t), endpoint, "truth", 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || bytes.Contains(b, []byte(`"isError":true`)) {
			t.Errorf("truth after a closed POST: %d %s", resp.StatusCode, b)
		}
		wire.verify(t, mcp.Version20260728+" tools/call")
	})
}

// 4. Timeouts and floods ------------------------------------------------------

// TestShellTimeoutAndFlood: a command ignoring SIGTERM past its 1s timeout
// is killed, with an error result saying so and no process left; 10 MiB
// on stdout are cut to max_output_bytes (1 MiB) with a notice; 10 MiB on
// stderr are no problem; the server answers afterwards.
func TestShellTimeoutAndFlood(t *testing.T) {
	requireSchemas(t)
	cfg := repoPath(t, "testkit/e2e/testdata/shell_tools.hcl")
	for _, s := range setups {
		switch s.name {
		case "go-sdk/stdio/legacy", "go-sdk/http/modern", "mcp-go/http/legacy", "mcp-go/stdio/legacy":
		default:
			continue
		}
		t.Run(s.name, func(t *testing.T) {
			vars, pidFile := shellToolsVars(t)
			srv := s.connect(t, cfg, vars, nil)
			c := srv.c
			ctx := testCtx(t)

			start := time.Now()
			res, err := c.callTool(ctx, "stubborn", map[string]any{})
			took := time.Since(start)
			if err != nil {
				t.Fatalf("stubborn: %v", err)
			}
			if diff := cmp.Diff(toolResult{Text: "The command did not finish within 1s and was stopped.", IsError: true}, res); diff != "" {
				t.Errorf("stubborn (-want +got):\n%s", diff)
			}
			if took < time.Second || took > 10*time.Second {
				t.Errorf("stubborn took %s; want its 1s timeout and the 2s grace before SIGKILL", took)
			}
			checkGone(t, "timed out command", waitPIDs(t, pidFile, 2, time.Second), time.Second)

			res, err = c.callTool(ctx, "flood", map[string]any{})
			if err != nil {
				t.Fatalf("flood: %v", err)
			}
			notice := "\n[output cut: 9437184 more bytes]"
			if res.IsError || !strings.HasSuffix(res.Text, notice) || len(res.Text) != 1<<20-1+len(notice) ||
				!strings.HasPrefix(res.Text, "0123456789abcde\n0123456789abcde\n") {
				head := res.Text[:min(len(res.Text), 40)]
				tail := res.Text[max(0, len(res.Text)-60):]
				t.Errorf("flood: isError %v, %d bytes of text %q…%q; want 1 MiB and the notice %q", res.IsError, len(res.Text), head, tail, notice)
			}

			res, err = c.callTool(ctx, "flood_stderr", map[string]any{})
			if err != nil || res.IsError || res.Text != "finished" {
				t.Errorf("flood_stderr = %+v, %v; want the text finished", res, err)
			}
			res, err = c.callTool(ctx, "truth", map[string]any{})
			if err != nil || res.IsError {
				t.Errorf("truth after the floods = %+v, %v", res, err)
			}
			srv.wire.verify(t, revision(s.era)+" tools/call")
		})
	}
}

// TestShellFloodLogs: with logging asked for, 10 MiB of stderr lines give
// log notifications for the first max_output_bytes only (64 KiB of 16-byte
// lines: 4096), all before the result.
func TestShellFloodLogs(t *testing.T) {
	requireSchemas(t)
	cfg := repoPath(t, "testkit/e2e/testdata/shell_tools.hcl")
	for _, s := range []sdkShellSetup{sdkShellSetups[0], sdkShellSetups[3]} {
		t.Run(s.name, func(t *testing.T) {
			vars, _ := shellToolsVars(t)
			var got arrivals
			cs, wire := s.connect(t, cfg, vars, got.options())
			ctx := testCtx(t)
			params := &sdkmcp.CallToolParams{Name: "flood_stderr", Arguments: map[string]any{}}
			if s.era == mcp.EraLegacy {
				if err := cs.SetLoggingLevel(ctx, &sdkmcp.SetLoggingLevelParams{Level: "info"}); err != nil {
					t.Fatalf("logging/setLevel: %v", err)
				}
			} else {
				params.Meta = sdkmcp.Meta{sdkmcp.MetaKeyLogLevel: "info"}
			}
			res, err := cs.CallTool(ctx, params)
			got.add("result")
			if err != nil || res.IsError || sdkText(res) != "finished" {
				t.Fatalf("flood_stderr: %+v, %v", res, err)
			}
			_, _, logs := got.take()
			for i, l := range logs {
				if l.Data != "0123456789abcde" {
					t.Errorf("log notification %d: %+v", i, l)
					break
				}
			}
			cs.Close() // ends a session's GET stream, so that the tap has seen everything
			wire.verify(t, revision(s.era)+" tools/call", s.notifRev()+" notifications/message")
			// On the wire: 4096 log lines, then the result.
			want := append(slices.Repeat([]string{"notifications/message"}, 4096), "result")
			if diff := cmp.Diff(want, wireSequence(wire)); diff != "" {
				t.Errorf("server messages in order (-want +got):\n%s", diff)
			}
			// go-sdk runs notification handlers concurrently with the
			// response: under load some reach the handler after CallTool
			// returned. All of them must arrive.
			deadline := time.Now().Add(5 * time.Second)
			for len(logs) < 4096 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
				_, _, late := got.take()
				logs = append(logs, late...)
			}
			if len(logs) != 4096 {
				t.Errorf("go-sdk's handler got %d log notifications; want 4096", len(logs))
			}
		})
	}
}

// 5. Benchmark ----------------------------------------------------------------

// shellCaller returns a function making one modern tools/call of tool
// through the HTTP handler of testdata/shell_tools.hcl.
func shellCaller(tb testing.TB, tool string) (call func(), w *benchWriter) {
	vars := map[string]string{"pid_file": filepath.Join(tb.TempDir(), "pids")}
	h := mcp.NewServer(openServer(tb, repoPath(tb, "testkit/e2e/testdata/shell_tools.hcl"), vars, nil, nil), nil).HTTPHandler(nil)
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":{},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	header := http.Header{}
	header.Set("Content-Type", "application/json")
	header.Set("Accept", "application/json, text/event-stream")
	header.Set("MCP-Protocol-Version", mcp.Version20260728)
	header.Set("Mcp-Method", "tools/call")
	header.Set("Mcp-Name", tool)
	target, _ := url.Parse("http://127.0.0.1/mcp")
	ctx := context.Background()
	w = &benchWriter{header: http.Header{}}
	var rd strings.Reader
	return func() {
		rd.Reset(body)
		clear(w.header)
		w.code = http.StatusOK
		w.body.Reset()
		req := &http.Request{Method: http.MethodPost, URL: target, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: header, Body: io.NopCloser(&rd), ContentLength: int64(len(body)), Host: target.Host, RequestURI: "/mcp"}
		h.ServeHTTP(w, req.WithContext(ctx))
	}, w
}

// checkTruthAnswer fails unless w holds a successful, schema-valid answer.
func checkTruthAnswer(tb testing.TB, w *benchWriter) {
	tb.Helper()
	if w.code != http.StatusOK || !strings.Contains(w.body.String(), `"result"`) || strings.Contains(w.body.String(), `"isError":true`) {
		tb.Fatalf("tools/call truth: %d %s", w.code, w.body.String())
	}
	for _, msg := range splitHTTPMessages(w.header.Get("Content-Type"), w.body.Bytes()) {
		for _, err := range checkSent(mcp.Version20260728, "tools/call", msg) {
			tb.Error(err)
		}
	}
}

// sameAsShell returns a function running `true` the way the shell adapter
// does: the path resolved once, only PATH and LANG in the environment, its
// own process group, stdout and stderr read through pipes. exec.Command("true").Run() instead looks the program
// up in the test's PATH and copies the test's whole environment each time.
func sameAsShell(tb testing.TB) func() error {
	path, err := exec.LookPath("true")
	if err != nil {
		tb.Fatal(err)
	}
	env := []string{"LANG=C.UTF-8", "PATH=/usr/local/bin:/usr/bin:/bin"}
	return func() error {
		var stdout, stderr bytes.Buffer
		cmd := exec.Command(path)
		cmd.Env = env
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		return cmd.Run()
	}
}

// BenchmarkShellTool compares a tools/call of the truth tool (`true`)
// through the in-process HTTP handler with exec.Command("true").Run() in
// the same run; the mcpdecl line reports added-ns/op and added-cpu-ns/op.
//
//	go test ./testkit/e2e/ -run '^$' -bench ShellTool -benchmem
func BenchmarkShellTool(b *testing.B) {
	call, w := shellCaller(b, "truth")
	call()
	checkTruthAnswer(b, w)
	var base baseline
	b.Run("exec", func(b *testing.B) {
		base.ns, base.cpu, base.bytes = measure(b, func() {
			if err := exec.Command("true").Run(); err != nil {
				b.Fatal(err)
			}
		})
	})
	run := sameAsShell(b)
	b.Run("exec-same", func(b *testing.B) {
		measure(b, func() {
			if err := run(); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("mcpdecl", func(b *testing.B) {
		base.reportAdded(b)(measure(b, call))
	})
}

// TestShellToolOverhead runs the benchmark's two sides in an ordinary
// run and logs what mcpdecl adds to running `true`; the goal is 300 µs.
// Time on a shared machine is not stable, so it reports and never fails
// on time.
func TestShellToolOverhead(t *testing.T) {
	if testing.Short() {
		t.Skip("measures time")
	}
	requireSchemas(t)
	call, w := shellCaller(t, "truth")
	call()
	checkTruthAnswer(t, w)
	same := sameAsShell(t)
	var failed error
	sides := []struct {
		name string
		fn   func()
	}{
		{"exec.Command(\"true\").Run()", func() {
			if err := exec.Command("true").Run(); err != nil {
				failed = err
			}
		}},
		{"exec as the adapter does", func() {
			if err := same(); err != nil {
				failed = err
			}
		}},
		{"mcpdecl tools/call", call},
	}
	// Interleaved rounds, so that load changes hit every side; the best
	// round of each counts.
	best := make([]testing.BenchmarkResult, len(sides))
	cpu := make([]float64, len(sides))
	for range 2 {
		for i, side := range sides {
			var c float64
			r := testing.Benchmark(func(b *testing.B) { _, c, _ = measure(b, side.fn) })
			if best[i].N == 0 || r.NsPerOp() < best[i].NsPerOp() {
				best[i], cpu[i] = r, c
			}
		}
	}
	if failed != nil {
		t.Fatal(failed)
	}
	for i, side := range sides {
		t.Logf("%-28s %10s/op  cpu %10s/op  %6d B/op %4d allocs/op", side.name, time.Duration(best[i].NsPerOp()),
			time.Duration(cpu[i]), best[i].AllocedBytesPerOp(), best[i].AllocsPerOp())
	}
	m := best[2].NsPerOp()
	added := time.Duration(m - best[0].NsPerOp())
	addedSame := time.Duration(m - best[1].NsPerOp())
	t.Logf("added by mcpdecl: %s over exec.Command(\"true\").Run(), %s over the same exec (cpu %s, %s); goal ≤ 300µs",
		added, addedSame, time.Duration(cpu[2]-cpu[0]), time.Duration(cpu[2]-cpu[1]))
	_ = addedSame // reported above; speed is measured, not asserted (see BenchmarkShellTool)
}
