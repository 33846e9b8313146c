package shelladapter

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/internal/jsondec"
)

func TestArgumentsStayLiteral(t *testing.T) {
	echo := script(t, "argv", `for a; do printf '[%s]\n' "$a"; done`)
	dir := t.TempDir()
	pwned := filepath.Join(dir, "pwned")
	c := compileRun(t, strings.ReplaceAll(`
shell {
  command = ["ECHO", "--", args.query, "/srv/${args.dir}", args.n, args.flag]
}`, "ECHO", echo))
	values := []string{
		"; rm -rf /",
		"$(touch " + pwned + ")",
		"`touch " + pwned + "`",
		"a | touch " + pwned,
		"line one\nline two; touch " + pwned,
		"--output=/etc/passwd",
		"-rf",
		"' \" \\ * ? ~ & > <",
		"",
		"${HOME} $PATH %s",
	}
	for _, v := range values {
		t.Run(strconv.Quote(v), func(t *testing.T) {
			res := c.mustInvoke(t, 0, args(map[string]cty.Value{
				"query": cty.StringVal(v),
				"dir":   cty.StringVal("x; touch " + pwned),
				"n":     cty.NumberIntVal(42),
				"flag":  cty.True,
			}))
			want := "[--]\n[" + v + "]\n[/srv/x; touch " + pwned + "]\n[42]\n[true]\n"
			if diff := cmp.Diff(want, res.Fields["stdout"]); diff != "" {
				t.Errorf("argv (-want +got):\n%s", diff)
			}
			if res.Failure != "" {
				t.Errorf("Failure = %q", res.Failure)
			}
			if _, err := os.Stat(pwned); err == nil {
				t.Fatalf("%s was created: an argument ran as a command", pwned)
			}
		})
	}
}

// TestOptionValuesRefused: a value that starts an argv element where the
// program still reads options is refused when it starts with "-", before
// anything runs, even after a flag such as --oneline; after "--", with
// allow_options, or as an option's value it reaches the program.
func TestOptionValuesRefused(t *testing.T) {
	ran := filepath.Join(t.TempDir(), "ran")
	echo := script(t, "argv", `touch "$RAN"; for a; do printf '[%s]\n' "$a"; done`)
	c := compileRun(t, strings.ReplaceAll(strings.ReplaceAll(`
shell {
  command = ["ECHO", "--oneline", args.query]
  env     = { RAN = "MARK" }
}
shell {
  command       = ["ECHO", "--oneline", args.query]
  env           = { RAN = "MARK" }
  allow_options = true
}
shell {
  command = ["ECHO", "--oneline", "--format=${args.query}", "--", args.query, args.n]
  env     = { RAN = "MARK" }
}
shell {
  command = ["ECHO", args.n]
  env     = { RAN = "MARK" }
}`, "ECHO", echo), "MARK", ran))
	for _, tt := range []struct {
		i    int
		args map[string]cty.Value
		want string
	}{
		{0, map[string]cty.Value{"query": cty.StringVal("--output=/tmp/x")}, `element 3 of command (args.query) starts with "-"`},
		{0, map[string]cty.Value{"query": cty.StringVal("-")}, `element 3 of command (args.query) starts with "-"`},
		{3, map[string]cty.Value{"n": cty.NumberIntVal(-1)}, `element 2 of command (args.n) starts with "-"`},
	} {
		_, err := c.invoke(t, tt.i, args(tt.args))
		if ce := callError(t, err); !strings.Contains(ce.Message, tt.want) || !strings.Contains(ce.Message, "does not start with") {
			t.Errorf("action %d: message %q, want it to contain %q", tt.i, ce.Message, tt.want)
		}
		if _, err := os.Stat(ran); err == nil {
			t.Fatalf("action %d ran the command for a refused value", tt.i)
		}
	}
	for _, tt := range []struct {
		i    int
		args map[string]cty.Value
		want string
	}{
		{0, map[string]cty.Value{"query": cty.StringVal("main")}, "[--oneline]\n[main]\n"},
		{1, map[string]cty.Value{"query": cty.StringVal("--stat")}, "[--oneline]\n[--stat]\n"},
		{2, map[string]cty.Value{"query": cty.StringVal("-x"), "n": cty.NumberIntVal(-2)}, "[--oneline]\n[--format=-x]\n[--]\n[-x]\n[-2]\n"},
		{3, map[string]cty.Value{"n": cty.NumberIntVal(3)}, "[3]\n"},
	} {
		res := c.mustInvoke(t, tt.i, args(tt.args))
		if diff := cmp.Diff(tt.want, res.Fields["stdout"]); diff != "" {
			t.Errorf("action %d argv (-want +got):\n%s", tt.i, diff)
		}
	}
	if _, err := os.Stat(ran); err != nil {
		t.Errorf("the accepted calls did not run the command: %v", err)
	}
}

func TestArgvErrors(t *testing.T) {
	c := compileRun(t, `
shell {
  command = ["printf", "%s", args.query]
}
shell {
  command = ["printf", "%s", "/srv/${args.dir}"]
}
shell {
  command = ["printf", "%s", try(args.tags, "x")]
}`)
	tests := []struct {
		name string
		i    int
		args map[string]cty.Value
		want string
	}{
		{"null argument", 0, nil,
			"The command was not run: element 3 of command (args.query) has no value (it is null); give the argument it uses a value."},
		{"null in a template", 1, nil,
			`The command was not run: element 3 of command ("/srv/${args.dir}") could not be computed (Invalid template interpolation value: The expression result is null. Cannot include a null value in a string template).`},
		{"list", 2, map[string]cty.Value{"tags": cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})},
			`The command was not run: element 3 of command (try(args.tags, "x")) is list of string, not one value; each element of command is exactly one argument.`},
		{"NUL byte", 0, map[string]cty.Value{"query": cty.StringVal("a\x00b")},
			"The command was not run: element 3 of command (args.query) contains a NUL byte, which cannot be passed to a program."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.invoke(t, tt.i, args(tt.args))
			ce := callError(t, err)
			if diff := cmp.Diff(tt.want, ce.Message); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
		})
	}
}

// envLines runs env and returns the variables it printed, sorted.
func envLines(t *testing.T, res *adapter.Result) []string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(res.Fields["stdout"].(string)), "\n")
	slices.Sort(lines)
	return lines
}

func TestEnvironmentIsExplicit(t *testing.T) {
	t.Setenv("MCPDECL_SECRET_TEST", "s3cr3t")
	t.Setenv("MCPDECL_OTHER_TEST", "other")
	bin := t.TempDir()
	c := compileRun(t, strings.ReplaceAll(`
shell {
  command = ["env"]
}
shell {
  command = ["env"]
  env     = { SECRET = env("MCPDECL_SECRET_TEST"), QUERY = args.query, N = args.n, ABSENT = args.dir }
}
backend "shell" "tools" {
  path = "BIN:/usr/bin:/bin"
  env  = { LANG = "en_US.UTF-8", SHARED = "backend", TOKEN = "t" }
}
shell {
  backend = "tools"
  command = ["/usr/bin/env"]
  env     = { SHARED = "call" }
}
shell {
  command = ["env"]
  env     = merge({ COLOR = "blue", SHAPE = "round" }, { COLOR = args.query })
}`, "BIN", bin), "MCPDECL_SECRET_TEST")

	res := c.mustInvoke(t, 0, args(nil))
	want := []string{"LANG=C.UTF-8", "PATH=" + DefaultPath}
	if diff := cmp.Diff(want, envLines(t, res)); diff != "" {
		t.Errorf("environment without env (-want +got):\n%s", diff)
	}

	res = c.mustInvoke(t, 1, args(map[string]cty.Value{"query": cty.StringVal("a b=c"), "n": cty.NumberIntVal(7)}))
	want = []string{"LANG=C.UTF-8", "N=7", "PATH=" + DefaultPath, "QUERY=a b=c", "SECRET=s3cr3t"}
	if diff := cmp.Diff(want, envLines(t, res)); diff != "" {
		t.Errorf("environment with env (-want +got):\n%s", diff)
	}

	res = c.mustInvoke(t, 2, args(nil))
	want = []string{"LANG=en_US.UTF-8", "PATH=" + bin + ":/usr/bin:/bin", "SHARED=call", "TOKEN=t"}
	if diff := cmp.Diff(want, envLines(t, res)); diff != "" {
		t.Errorf("environment with a backend (-want +got):\n%s", diff)
	}

	// The names of an env written as one expression follow from its type;
	// the caller's value changes only a value.
	res = c.mustInvoke(t, 3, args(map[string]cty.Value{"query": cty.StringVal("GIT_CONFIG_COUNT=1")}))
	want = []string{"COLOR=GIT_CONFIG_COUNT=1", "LANG=C.UTF-8", "PATH=" + DefaultPath, "SHAPE=round"}
	if diff := cmp.Diff(want, envLines(t, res)); diff != "" {
		t.Errorf("environment from a computed map (-want +got):\n%s", diff)
	}
}

// TestComputedEnvNamesOnlyFromLoadTime hands computedEnv a value holding a
// name the config does not list, as a value whose type changed between
// load and call would: it is refused, not set.
func TestComputedEnvNamesOnlyFromLoadTime(t *testing.T) {
	c := compileRun(t, `
shell {
  command = ["env"]
  env     = merge({ COLOR = "blue" }, { COLOR = args.query })
}`)
	a := c.actions[0]
	a.EnvNames = []string{"SHAPE"}
	_, err := c.invoke(t, 0, args(map[string]cty.Value{"query": cty.StringVal("x")}))
	if ce := callError(t, err); !strings.Contains(ce.Message, `"COLOR"`) || !strings.Contains(ce.Message, "not one of the variables the config names") {
		t.Errorf("message %q", ce.Message)
	}
}

func TestDirAndStdin(t *testing.T) {
	dir := t.TempDir()
	c := compileRun(t, strings.ReplaceAll(`
shell {
  command = ["pwd"]
  dir     = "DIR"
}
shell {
  command = ["wc", "-c"]
  stdin   = args.query
}
shell {
  command = ["cat"]
}
backend "shell" "b" {
  dir = "DIR"
}
shell {
  backend = "b"
  command = ["pwd"]
}`, "DIR", dir))
	if got := c.mustInvoke(t, 0, args(nil)).Text; got != dir {
		t.Errorf("pwd = %q, want %q", got, dir)
	}
	if got := c.mustInvoke(t, 1, args(map[string]cty.Value{"query": cty.StringVal("héllo\n")})).Text; strings.TrimSpace(got) != "7" {
		t.Errorf("wc -c of stdin = %q, want 7", got)
	}
	// Without stdin, the command reads an empty input and does not wait.
	if got := c.mustInvoke(t, 2, args(nil)).Fields["stdout"]; got != "" {
		t.Errorf("cat without stdin printed %q", got)
	}
	if got := c.mustInvoke(t, 3, args(nil)).Text; got != dir {
		t.Errorf("pwd with the backend's dir = %q, want %q", got, dir)
	}
}

func TestRelativeProgramAndMissingDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "run.sh"), []byte("#!/bin/sh\necho ran in \"$(pwd)\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(t.TempDir(), "gone")
	if err := os.Mkdir(gone, 0o755); err != nil {
		t.Fatal(err)
	}
	c := compileRun(t, strings.ReplaceAll(strings.ReplaceAll(`
shell {
  command = ["./run.sh"]
  dir     = "DIR"
}
shell {
  command = ["pwd"]
  dir     = "GONE"
}`, "DIR", dir), "GONE", gone))
	if got := c.mustInvoke(t, 0, args(nil)).Text; got != "ran in "+dir {
		t.Errorf("Text = %q", got)
	}
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	_, err := c.invoke(t, 1, args(nil))
	// The server's paths stay in its log.
	if want := "The command was not run: its working directory is missing or not accessible on the server. Retrying will not help."; callError(t, err).Message != want {
		t.Errorf("message = %q", callError(t, err).Message)
	}
}

func TestExitStatus(t *testing.T) {
	c := compileRun(t, `
shell {
  command     = ["sh", "-c", "echo out; for i in 1 2 3 4 5 6 7; do echo line $i >&2; done; exit 2"]
  allow_shell = true
}
shell {
  command     = ["sh", "-c", "exit 3"]
}
shell {
  command     = ["sh", "-c", "kill -SEGV $$"]
}`)
	res := c.mustInvoke(t, 0, args(nil))
	want := "The command exited with status 2: line 3\nline 4\nline 5\nline 6\nline 7"
	if diff := cmp.Diff(want, res.Failure); diff != "" {
		t.Errorf("Failure (-want +got):\n%s", diff)
	}
	if res.Fields["exit_code"] != 2 || res.Text != "out" {
		t.Errorf("exit_code = %v, Text = %q", res.Fields["exit_code"], res.Text)
	}
	if got := c.mustInvoke(t, 1, args(nil)).Failure; got != "The command exited with status 3 and printed nothing." {
		t.Errorf("Failure = %q", got)
	}
	res = c.mustInvoke(t, 2, args(nil))
	if res.Failure != "The command was killed by signal SIGSEGV and printed nothing." || res.Fields["exit_code"] != -1 {
		t.Errorf("Failure = %q, exit_code = %v", res.Failure, res.Fields["exit_code"])
	}
}

func TestOutputFormats(t *testing.T) {
	png := filepath.Join(t.TempDir(), "dot.png")
	data := []byte("\x89PNG\r\n\x1a\n\x00\x01\x02\xff")
	if err := os.WriteFile(png, data, 0o644); err != nil {
		t.Fatal(err)
	}
	c := compileRun(t, strings.ReplaceAll(`
shell {
  command = ["printf", "%s", args.query]
  output  = "json"
}
shell {
  command = ["printf", "%s", args.query]
  output  = "lines"
}
shell {
  command   = ["cat", "PNG"]
  mime_type = "image/png"
}
shell {
  command = ["printf", "%s", args.query]
}`, "PNG", png))
	q := func(s string) cty.Value { return args(map[string]cty.Value{"query": cty.StringVal(s)}) }

	res := c.mustInvoke(t, 0, q(`{"a": 1, "b": [true, 2.5, "x"], "big": 123456789012345678901234567890}`+"\n"))
	wantJSON := map[string]any{"a": 1, "b": []any{true, jsonNumber("2.5"), "x"}, "big": jsonNumber("123456789012345678901234567890")}
	if diff := cmp.Diff(wantJSON, res.Fields["json"]); diff != "" {
		t.Errorf("json (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantJSON, res.Structured); diff != "" {
		t.Errorf("Structured (-want +got):\n%s", diff)
	}
	if res.Failure != "" {
		t.Errorf("Failure = %q", res.Failure)
	}
	res = c.mustInvoke(t, 0, q(`[1, 2]`))
	if diff := cmp.Diff([]any{1, 2}, res.Fields["json"]); diff != "" || res.Structured != nil {
		t.Errorf("json array: (-want +got):\n%s, Structured = %v", diff, res.Structured)
	}
	for in, want := range map[string]string{
		"not json":  `The command did not print JSON (invalid character 'o' in literal null (expecting 'u')). It began with: "not json"`,
		"":          "The command did not print JSON: its output was empty.",
		`{"a":1} 2`: `The command did not print JSON (more than one JSON value, or text after it). It began with: "{\"a\":1} 2"`,
	} {
		res = c.mustInvoke(t, 0, q(in))
		if res.Failure != want || res.Fields["json"] != nil {
			t.Errorf("output %q: Failure = %q, json = %v; want %q", in, res.Failure, res.Fields["json"], want)
		}
	}

	for in, want := range map[string][]any{
		"a\nb\n":     {"a", "b"},
		"a\r\n\nb":   {"a", "", "b"},
		"":           {},
		"\n":         {""},
		"one line":   {"one line"},
		"x\ny\n\n\n": {"x", "y", "", ""},
	} {
		res = c.mustInvoke(t, 1, q(in))
		if diff := cmp.Diff(want, res.Fields["lines"]); diff != "" {
			t.Errorf("lines of %q (-want +got):\n%s", in, diff)
		}
	}

	res = c.mustInvoke(t, 2, args(nil))
	if diff := cmp.Diff(&adapter.Media{MimeType: "image/png", Data: data}, res.Media); diff != "" {
		t.Errorf("Media (-want +got):\n%s", diff)
	}

	res = c.mustInvoke(t, 3, q("text\n"))
	if res.Text != "text" || res.Fields["stdout"] != "text\n" || res.Fields["json"] != nil || res.Fields["lines"] != nil {
		t.Errorf("text output: Text = %q, Fields = %v", res.Text, res.Fields)
	}
}

func TestOutputIsCapped(t *testing.T) {
	c := compileRun(t, `
shell {
  command          = ["sh", "-c", "head -c 10000000 /dev/zero | tr '\\0' a; head -c 5000 /dev/zero | tr '\\0' e >&2"]
  max_output_bytes = 1000
}
shell {
  command = ["sh", "-c", "yes | head -c 10000000"]
}
shell {
  command          = ["sh", "-c", "head -c 10000 /dev/zero | tr '\\0' a"]
  max_output_bytes = 100
  output           = "json"
}
shell {
  command          = ["sh", "-c", "head -c 10000 /dev/zero; echo failed >&2; exit 1"]
  max_output_bytes = 100
  mime_type        = "application/octet-stream"
}`)
	res := c.mustInvoke(t, 0, args(nil))
	if got := res.Fields["stdout"].(string); got != strings.Repeat("a", 1000) {
		t.Errorf("stdout has %d bytes, want 1000 a's", len(got))
	}
	if got := res.Fields["stderr"].(string); got != strings.Repeat("e", 1000) {
		t.Errorf("stderr has %d bytes, want 1000 e's", len(got))
	}
	if want := strings.Repeat("a", 1000) + "\n[output cut: 9999000 more bytes]"; res.Text != want {
		t.Errorf("Text ends with %q", res.Text[max(0, len(res.Text)-60):])
	}

	res = c.mustInvoke(t, 1, args(nil))
	if got := len(res.Fields["stdout"].(string)); got != DefaultMaxOutputBytes {
		t.Errorf("stdout has %d bytes, want the default cap %d", got, DefaultMaxOutputBytes)
	}
	if want := "\n[output cut: " + strconv.Itoa(10000000-DefaultMaxOutputBytes) + " more bytes]"; !strings.HasSuffix(res.Text, want) {
		t.Errorf("Text ends with %q, want %q", res.Text[len(res.Text)-60:], want)
	}

	res = c.mustInvoke(t, 2, args(nil))
	if want := "The command printed more than 100 bytes (max_output_bytes), so its JSON output was cut and cannot be read."; res.Failure != want {
		t.Errorf("Failure = %q", res.Failure)
	}
	res = c.mustInvoke(t, 3, args(nil))
	if res.Media != nil || res.Failure != "The command exited with status 1: failed" {
		t.Errorf("Media = %v, Failure = %q", res.Media, res.Failure)
	}
}

// TestHostileShellOutputCap: a cap that falls inside a UTF-8
// character keeps the text before it, without a replacement character,
// and counts the cut bytes as dropped; a stderr line cut at the line cap
// is logged the same way.
func TestHostileShellOutputCap(t *testing.T) {
	c := compileRun(t, `
shell {
  command          = ["printf", "abc\u00e9\u00e9"]
  max_output_bytes = 4
}
shell {
  command = ["sh", "-c", "printf '%4095s\u00e9\\n' x | tr ' ' a >&2"]
}
shell {
  command          = ["printf", "ab\u20ac"]
  max_output_bytes = 4
  output           = "lines"
}`)
	res := c.mustInvoke(t, 0, args(nil))
	if got := res.Fields["stdout"]; got != "abc" {
		t.Errorf("stdout = %q, want %q", got, "abc")
	}
	if want := "abc\n[output cut: 4 more bytes]"; res.Text != want {
		t.Errorf("Text = %q, want %q", res.Text, want)
	}

	rec := &recorder{}
	if _, err := c.actions[1].Invoke(context.Background(), c.request(args(nil), rec)); err != nil {
		t.Fatal(err)
	}
	events := rec.all()
	if len(events) != 1 || events[0].text != "info: "+strings.Repeat("a", 4094)+"x" {
		t.Errorf("log lines %d, the first ending in %q; want one line of 4095 characters without \uFFFD", len(events), events[0].text[max(0, len(events[0].text)-10):])
	}

	res = c.mustInvoke(t, 2, args(nil))
	if diff := cmp.Diff([]any{"ab"}, res.Fields["lines"]); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

func TestTimeoutKillsProcessGroup(t *testing.T) {
	c := compileRun(t, `
shell {
  command     = ["sh", "-c", "sleep 30 & echo $! >&2; wait"]
  allow_shell = true
  timeout     = "300ms"
}
shell {
  command     = ["sh", "-c", "trap '' TERM; sleep 30 & echo $! >&2; wait; echo survived"]
  allow_shell = true
  timeout     = "300ms"
}
backend "shell" "slow" {
  timeout = "200ms"
}
shell {
  backend = "slow"
  command = ["sleep", "30"]
}`)
	tests := []struct {
		name     string
		i        int
		min, max time.Duration
		message  string
	}{
		{"SIGTERM", 0, 300 * time.Millisecond, 2 * time.Second,
			"The command did not finish within 300ms and was stopped."},
		{"SIGTERM ignored", 1, 300*time.Millisecond + KillGrace, 300*time.Millisecond + KillGrace + 2*time.Second,
			"The command did not finish within 300ms and was stopped."},
		{"backend timeout", 2, 200 * time.Millisecond, 2 * time.Second,
			"The command did not finish within 200ms and was stopped."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			start := time.Now()
			_, err := c.actions[tt.i].Invoke(context.Background(), c.request(args(nil), rec))
			took := time.Since(start)
			ce := callError(t, err)
			if ce.Message != tt.message {
				t.Errorf("message = %q, want %q", ce.Message, tt.message)
			}
			if took < tt.min || took > tt.max {
				t.Errorf("Invoke took %v, want between %v and %v", took, tt.min, tt.max)
			}
			for _, e := range rec.all() {
				pid, err := strconv.Atoi(strings.TrimPrefix(e.text, "info: "))
				if err != nil {
					t.Fatalf("log line %q is not a PID", e.text)
				}
				if !waitGone(pid, time.Second) {
					t.Errorf("the grandchild sleep (PID %d) still runs after the timeout", pid)
				}
			}
			if tt.i < 2 && len(rec.all()) != 1 {
				t.Errorf("got %d log lines, want the PID of the grandchild", len(rec.all()))
			}
		})
	}
}

func TestCancelKillsCommand(t *testing.T) {
	c := compileRun(t, `
shell {
  command     = ["sh", "-c", "sleep 30 & echo $! >&2; wait"]
  allow_shell = true
}`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pids := make(chan int, 1)
	rec := &recorder{onEvent: func(e event) {
		if pid, err := strconv.Atoi(strings.TrimPrefix(e.text, "info: ")); err == nil {
			pids <- pid
			cancel() // the client cancelled, or its connection closed
		}
	}}
	start := time.Now()
	_, err := c.actions[0].Invoke(ctx, c.request(args(nil), rec))
	ce := callError(t, err)
	if ce.Message != "The call was cancelled; the command was stopped." {
		t.Errorf("message = %q", ce.Message)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("Invoke took %v after the cancellation", took)
	}
	select {
	case pid := <-pids:
		if !waitGone(pid, time.Second) {
			t.Errorf("the grandchild sleep (PID %d) still runs after the cancellation", pid)
		}
	default:
		t.Fatal("no PID was logged")
	}
}

func TestBackgroundJobsEndWithTheCall(t *testing.T) {
	// The program exits at once but leaves a job holding stdout: the call
	// ends when the program does, and the job is killed.
	c := compileRun(t, `
shell {
  command     = ["sh", "-c", "sleep 30 & echo $!"]
  allow_shell = true
  timeout     = "10s"
}`)
	start := time.Now()
	res := c.mustInvoke(t, 0, args(nil))
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Invoke took %v", took)
	}
	pid, err := strconv.Atoi(res.Text)
	if err != nil {
		t.Fatalf("stdout %q is not a PID", res.Text)
	}
	if !waitGone(pid, time.Second) {
		t.Errorf("the background sleep (PID %d) still runs", pid)
	}
}

func TestStreaming(t *testing.T) {
	c := compileRun(t, `
shell {
  command          = ["sh", "-c", "echo 'step 1/4'; sleep 0.3; echo 'warming up' >&2; echo 'step 2/4' >&2; sleep 0.3; echo 'step 1/4 again'; echo 'step 3/4'; echo 'no total: 5 of ?'; printf 'no newline at the end' >&2"]
  allow_shell      = true
  progress_pattern = "(\\d+)/(\\d+)"
}
shell {
  command          = ["sh", "-c", "printf '10%%\\r20%%\\r30%%\\n'"]
  progress_pattern = "(\\d+)%"
}`)
	rec := &recorder{}
	res, err := c.actions[0].Invoke(context.Background(), c.request(args(nil), rec))
	returned := time.Now()
	if err != nil {
		t.Fatal(err)
	}
	events := rec.all()
	var got []string
	for _, e := range events {
		if e.kind == "progress" {
			got = append(got, strconv.FormatFloat(e.progress, 'f', -1, 64)+"/"+strconv.FormatFloat(e.total, 'f', -1, 64)+" "+e.text)
		} else {
			got = append(got, e.text)
		}
	}
	want := []string{
		"1/4 step 1/4",
		"info: warming up",
		"info: step 2/4",
		"2/4 step 2/4",
		"3/4 step 3/4",
		"info: no newline at the end",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("notifications (-want +got):\n%s", diff)
	}
	// The first notifications were sent while the command ran, not after.
	if len(events) > 0 && returned.Sub(events[0].at) < 400*time.Millisecond {
		t.Errorf("the first progress arrived %v before Invoke returned, want at least 400ms (the command sleeps 600ms after it)", returned.Sub(events[0].at))
	}
	if len(events) > 1 && returned.Sub(events[1].at) < 150*time.Millisecond {
		t.Errorf("the first log line arrived %v before Invoke returned, want at least 150ms", returned.Sub(events[1].at))
	}
	if res.Fields["stderr"] != "warming up\nstep 2/4\nno newline at the end" {
		t.Errorf("stderr = %q", res.Fields["stderr"])
	}

	rec = &recorder{}
	if _, err := c.actions[1].Invoke(context.Background(), c.request(args(nil), rec)); err != nil {
		t.Fatal(err)
	}
	var progress []float64
	for _, e := range rec.all() {
		progress = append(progress, e.progress)
	}
	if diff := cmp.Diff([]float64{10, 20, 30}, progress); diff != "" {
		t.Errorf("progress of a \\r progress bar (-want +got):\n%s", diff)
	}
}

func TestConcurrencyLimit(t *testing.T) {
	dir := t.TempDir()
	// Each run marks itself in dir, counts the runs marked, and unmarks
	// itself after a while: the last of any overlapping runs to start sees
	// them all, so the largest count is the largest parallelism.
	c := compileRun(t, strings.ReplaceAll(`
shell {
  command     = ["sh", "-c", "touch DIR/$$; ls DIR | wc -l; sleep 0.3; rm DIR/$$"]
  allow_shell = true
  concurrency = 2
}
shell {
  command     = ["sleep", "30"]
  concurrency = 1
}`, "DIR", dir))
	var wg sync.WaitGroup
	counts := make(chan int, 6)
	for range 6 {
		wg.Go(func() {
			res, err := c.invoke(t, 0, args(nil))
			if err != nil {
				t.Error(err)
				return
			}
			n, err := strconv.Atoi(strings.TrimSpace(res.Text))
			if err != nil {
				t.Errorf("count %q", res.Text)
			}
			counts <- n
		})
	}
	wg.Wait()
	close(counts)
	most := 0
	for n := range counts {
		most = max(most, n)
	}
	if most != 2 {
		t.Errorf("at most %d commands ran at once, want 2 (the limit)", most)
	}

	// Waiting for a slot ends with the call's context.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.actions[1].Invoke(ctx, c.request(args(nil), nil))
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	wctx, wcancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer wcancel()
	req := c.request(args(nil), nil)
	req.Timeout = 100 * time.Millisecond // the tool's, as the server sets it
	_, err := c.actions[1].Invoke(wctx, req)
	ce := callError(t, err)
	// A deadline is the call's time limit, not a cancellation.
	if want := "The command did not start within 100ms, the time limit of this call: the one process this tool may run at once was busy."; ce.Message != want {
		t.Errorf("message = %q", ce.Message)
	}
	cancel()
	if err := <-done; err == nil {
		t.Error("the cancelled sleep returned no error")
	}
}

// TestCallDeadlineIsNotCancellation: a tool timeout shorter than the
// command's is reported as a time limit naming it, so that the model does
// not take it for the client giving up.
func TestCallDeadlineIsNotCancellation(t *testing.T) {
	c := compileRun(t, `
shell {
  command = ["sleep", "30"]
  timeout = "20s"
}`)
	// As the server calls it: the tool's timeout on ctx and in the request.
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	req := c.request(args(nil), nil)
	req.Timeout = 300 * time.Millisecond
	_, err := c.actions[0].Invoke(ctx, req)
	ce := callError(t, err)
	if want := "The command did not finish within 300ms and was stopped."; ce.Message != want {
		t.Errorf("message = %q, want %q", ce.Message, want)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v is not context.DeadlineExceeded", err)
	}
}

func TestRoundLimit(t *testing.T) {
	for in, want := range map[time.Duration]string{
		999*time.Millisecond + 800*time.Microsecond: "1s",
		4*time.Second + 970*time.Millisecond:        "5s",
		90*time.Second - 3*time.Millisecond:         "1m30s",
		250 * time.Microsecond:                      "250µs",
	} {
		if got := formatDuration(adapter.RoundLimit(in)); got != want {
			t.Errorf("formatDuration(adapter.RoundLimit(%v)) = %q, want %q", in, got, want)
		}
	}
}

func TestProgramMissingAtRunTime(t *testing.T) {
	prog := script(t, "tool", "echo hi\n")
	c := compileRun(t, `
shell {
  command = ["`+prog+`"]
}
shell {
  command = ["./no-such-tool"]
}`)
	if got := c.mustInvoke(t, 0, args(nil)).Text; got != "hi" {
		t.Fatalf("Text = %q", got)
	}
	if err := os.Remove(prog); err != nil {
		t.Fatal(err)
	}
	_, err := c.invoke(t, 0, args(nil))
	if want := "The command was not run: the program " + filepath.Base(prog) + " was not found on the server. Retrying will not help."; callError(t, err).Message != want {
		t.Errorf("message = %q", callError(t, err).Message)
	}
	_, err = c.invoke(t, 1, args(nil))
	if want := "The command was not run: the program ./no-such-tool was not found on the server. Retrying will not help."; callError(t, err).Message != want {
		t.Errorf("message = %q", callError(t, err).Message)
	}
}

func jsonNumber(s string) any {
	v, _ := jsondec.Decode(s)
	return v
}

// BenchmarkInvoke compares Invoke of `true` with a bare exec of it; the
// difference is what the adapter adds per call (argv evaluation, the
// environment, pipes, the process group and its supervision). Starting a
// process costs milliseconds on a loaded machine and varies much more than
// the difference, so each iteration runs both, in alternating order, and
// the benchmark reports medians: bare-µs, invoke-µs and added-µs (the
// median of the paired differences).
func BenchmarkInvoke(b *testing.B) {
	truePath, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true")
	}
	c := compileRun(b, `
shell {
  command = ["true", args.query]
}`)
	req := c.request(args(map[string]cty.Value{"query": cty.StringVal("x")}), nil)
	bare := func() time.Duration {
		start := time.Now()
		if err := exec.Command(truePath, "x").Run(); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	invoke := func() time.Duration {
		start := time.Now()
		res, err := c.actions[0].Invoke(context.Background(), req)
		if err != nil || res.Failure != "" {
			b.Fatal(err, res.Failure)
		}
		return time.Since(start)
	}
	var bares, invokes, added []float64
	var cpuBare, cpuInvoke time.Duration
	timed := func(f func() time.Duration, cpu *time.Duration) time.Duration {
		before := cpuTime()
		d := f()
		*cpu += cpuTime() - before
		return d
	}
	i := 0
	for b.Loop() {
		var tb, ti time.Duration
		if i%2 == 0 {
			tb, ti = timed(bare, &cpuBare), timed(invoke, &cpuInvoke)
		} else {
			ti, tb = timed(invoke, &cpuInvoke), timed(bare, &cpuBare)
		}
		i++
		bares = append(bares, float64(tb.Microseconds()))
		invokes = append(invokes, float64(ti.Microseconds()))
		added = append(added, float64((ti - tb).Microseconds()))
	}
	b.ReportMetric(median(bares), "bare-µs")
	b.ReportMetric(median(invokes), "invoke-µs")
	b.ReportMetric(median(added), "added-µs")
	// CPU time of this process (not the child's) per call: less sensitive
	// to a loaded machine than wall-clock time.
	b.ReportMetric(float64(cpuBare.Microseconds())/float64(i), "bare-cpu-µs")
	b.ReportMetric(float64(cpuInvoke.Microseconds())/float64(i), "invoke-cpu-µs")
}

// cpuTime is the user and system CPU time this process used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func TestCaptureLines(t *testing.T) {
	var got []string
	c := &capture{limit: 10, onLine: func(line []byte, kept bool) {
		got = append(got, strconv.Quote(string(line))+" "+strconv.FormatBool(kept))
	}}
	long := strings.Repeat("x", maxLineBytes+10)
	for _, chunk := range []string{"ab", "c\nde", "f\r\n", "\n", long[:100], long[100:] + "\ny", "z"} {
		if n, err := c.Write([]byte(chunk)); n != len(chunk) || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	c.flush()
	want := []string{
		`"abc" true`,
		`"def" true`,
		strconv.Quote(long[:maxLineBytes]) + " false",
		`"yz" false`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	if string(c.buf) != "abc\ndef\r\n\n" || c.dropped != int64(len(long)+3) {
		t.Errorf("kept %q, dropped %d", c.buf, c.dropped)
	}
}

func TestNotificationLimits(t *testing.T) {
	c := compileRun(t, `
shell {
  command          = ["sh", "-c", "for i in $(seq 1 200); do echo \"error $i\" >&2; done; echo 'done 7' >&2"]
  max_output_bytes = 100
  progress_pattern = "done (\\d+)"
}
shell {
  command = ["true"]
  stdin   = args.query
}`)
	rec := &recorder{}
	if _, err := c.actions[0].Invoke(context.Background(), c.request(args(nil), rec)); err != nil {
		t.Fatal(err)
	}
	var logs, progress int
	for _, e := range rec.all() {
		if e.kind == "log" {
			logs++
		} else {
			progress++
			if e.progress != 7 || e.total != 0 {
				t.Errorf("progress %v/%v, want 7 without a total", e.progress, e.total)
			}
		}
	}
	// "error 1\n" ... "error 9\n" are 72 bytes, and "error 10\n" ends at 81,
	// "error 11\n" at 90, "error 12\n" at 99: 12 lines end within 100 bytes.
	if logs != 12 || progress != 1 {
		t.Errorf("%d log lines and %d progress notifications, want 12 and 1", logs, progress)
	}

	// A command that does not read its stdin is not an error.
	res := c.mustInvoke(t, 1, args(map[string]cty.Value{"query": cty.StringVal(strings.Repeat("x", 1<<20))}))
	if res.Failure != "" {
		t.Errorf("Failure = %q", res.Failure)
	}
}
