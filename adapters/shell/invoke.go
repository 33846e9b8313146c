package shelladapter

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/internal/english"
	"github.com/mcpdecl/mcpdecl/internal/jsondec"
)

// failureLines is how many lines of stderr a failure message quotes.
const failureLines = 5

// Invoke runs the call: it evaluates the argv elements, the environment and
// stdin from the arguments, runs the program in its own process group with
// only the listed environment, and describes what it printed.
//
// Nothing is interpreted by a shell: each element of command is one
// argument, whatever it holds. The call waits for a slot when Concurrency
// processes of this call already run. The timeout stops the whole process
// group (SIGTERM, then SIGKILL after KillGrace), and so does the end of ctx
// (a cancelled call, a closed connection). stdout and stderr are each kept
// up to MaxOutputBytes; the rest is counted and reported. While the command
// runs, each stderr line is sent as a log line and lines matching the
// progress pattern as progress.
func (a *Action) Invoke(ctx context.Context, req *adapter.Request) (*adapter.Result, error) {
	inv, err := a.prepareCall(req)
	if err != nil {
		return nil, err
	}

	// The caller's deadline is the tool's time limit (or the server's);
	// what it left now is what to name when it ends the command.
	callLimit := req.CallLimit(ctx) // named by a time-limit message
	release, err := a.acquire(ctx, callLimit)
	if err != nil {
		return nil, err
	}
	defer release()

	timeout := a.Timeout
	if req.Timeout > 0 {
		timeout = req.Timeout // the tool's: the one deadline of the call
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	limit := a.MaxOutputBytes
	if limit <= 0 {
		limit = DefaultMaxOutputBytes
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	cmd := exec.Command(inv.path, inv.argv[1:]...)
	cmd.Args[0] = inv.argv[0]
	cmd.Env = inv.env
	cmd.Dir = a.Dir
	if inv.stdin != "" {
		cmd.Stdin = strings.NewReader(inv.stdin)
	}
	st := &streamer{log: req.Log, progress: req.Progress, pattern: a.ProgressPattern}
	if st.log == nil {
		st.log = func(string, any) {}
	}
	if st.progress == nil {
		st.progress = func(float64, float64, string) {}
	}
	stdout := &capture{limit: limit}
	if a.ProgressPattern != nil {
		stdout.onLine = st.stdoutLine
	}
	stderr := &capture{limit: limit, onLine: st.stderrLine}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	stopped, waitErr := new(group).run(runCtx, cmd)
	stdout.flush()
	stderr.flush()
	stdout.endOnCharacter()
	stderr.endOnCharacter()

	switch {
	case stopped && errors.Is(ctx.Err(), context.DeadlineExceeded) && callLimit > 0:
		// Not a cancellation: saying so would make the model believe the
		// client gave up, when the command was merely too slow.
		return nil, &adapter.CallError{
			Message: fmt.Sprintf("The command did not finish within %s and was stopped.", formatDuration(adapter.RoundLimit(callLimit))),
			Err:     context.DeadlineExceeded,
		}
	case stopped && ctx.Err() != nil:
		return nil, &adapter.CallError{
			Message: "The call was cancelled; the command was stopped.",
			Err:     ctx.Err(),
		}
	case stopped:
		return nil, &adapter.CallError{
			Message: fmt.Sprintf("The command did not finish within %s and was stopped.", formatDuration(timeout)),
			Err:     context.DeadlineExceeded,
		}
	}
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) && !errors.Is(waitErr, exec.ErrWaitDelay) {
		return nil, a.startError(inv, waitErr)
	}
	return a.result(cmd.ProcessState, stdout, stderr), nil
}

// call is one call's evaluated command.
type call struct {
	path  string   // the program to run
	argv  []string // argv[0] is the program as written
	env   []string
	stdin string
}

// refused is a call that could not be started from its arguments; the
// model may fix it by calling again with other arguments.
func refused(format string, args ...any) *adapter.CallError {
	return &adapter.CallError{Message: "The command was not run: " + fmt.Sprintf(format, args...)}
}

// prepareCall evaluates the argv, environment and stdin of one call.
func (a *Action) prepareCall(req *adapter.Request) (*call, error) {
	if len(a.Argv) == 0 {
		return nil, fmt.Errorf("%s: the shell call has no command", a.Owner)
	}
	var ectx *hcl.EvalContext
	eval1 := func(expr hcl.Expression) (cty.Value, string, bool) {
		if ectx == nil {
			ectx = req.Context(expr)
		}
		v, diags := eval.Value(expr, ectx)
		if diags.HasErrors() {
			d := diags[0]
			msg := d.Summary
			if d.Detail != "" {
				msg += ": " + strings.TrimSuffix(d.Detail, ".")
			}
			return cty.NilVal, msg, false
		}
		v, _ = v.UnmarkDeep()
		return v, "", true
	}

	c := &call{argv: make([]string, len(a.Argv))}
	for i, expr := range a.Argv {
		v, msg, ok := eval1(expr)
		if !ok {
			return nil, refused("%s could not be computed (%s).", a.element(i), msg)
		}
		switch {
		case v.IsNull():
			return nil, refused("%s has no value (it is null); give the argument it uses a value.", a.element(i))
		case !v.IsWhollyKnown():
			return nil, refused("%s is not known.", a.element(i))
		case !v.Type().IsPrimitiveType():
			return nil, refused("%s is %s, not one value; each element of command is exactly one argument.", a.element(i), v.Type().FriendlyName())
		}
		s, err := eval.PartString(v)
		if err != nil {
			return nil, refused("%s: %s.", a.element(i), err)
		}
		if strings.ContainsRune(s, 0) {
			return nil, refused("%s contains a NUL byte, which cannot be passed to a program.", a.element(i))
		}
		c.argv[i] = s
	}

	for _, i := range a.OptionGuards {
		if strings.HasPrefix(c.argv[i], "-") {
			return nil, refused("%s starts with \"-\", so the program would read it as an option. Give a value that does not start with \"-\".", a.element(i))
		}
	}

	path, err := a.programPath(c.argv[0])
	if err != nil {
		return nil, err
	}
	c.path = path

	env, err := a.environment(eval1)
	if err != nil {
		return nil, err
	}
	c.env = env

	if a.Stdin != nil {
		v, msg, ok := eval1(a.Stdin)
		if !ok {
			return nil, refused("stdin could not be computed (%s).", msg)
		}
		if !v.IsNull() {
			s, err := eval.PartString(v)
			if err != nil {
				return nil, refused("stdin: %s.", err)
			}
			c.stdin = s
		}
	}
	return c, nil
}

// element names argv element i for messages: its position and, for a
// computed element, its source text (never its value, which may hold a
// secret read with env()).
func (a *Action) element(i int) string {
	if i < len(a.ArgvSource) && a.ArgvSource[i] != "" {
		return fmt.Sprintf("element %d of command (%s)", i+1, a.ArgvSource[i])
	}
	return fmt.Sprintf("element %d of command", i+1)
}

// programPath returns the program to run: the path found at load time, a
// path relative to the working directory as written, or a name looked up
// in PATH now (when the load-time lookup was skipped).
func (a *Action) programPath(prog string) (string, error) {
	switch {
	case a.ProgramPath != "":
		return a.ProgramPath, nil
	case prog == "":
		return "", refused("the program name (element 1 of command) is empty.")
	case strings.ContainsRune(prog, '/'):
		return prog, nil
	}
	if p, ok := lookPath(prog, a.searchPath()); ok {
		return p, nil
	}
	return "", &adapter.CallError{Err: fmt.Errorf("%q not found in PATH %s", prog, a.searchPath()), Message: fmt.Sprintf(
		"The command was not run: no program named %q was found in its PATH. It must be installed on the server; retrying will not help.", prog)}
}

func (a *Action) searchPath() string {
	if a.Backend != nil && a.Backend.Path != "" {
		return a.Backend.Path
	}
	return DefaultPath
}

// environment builds the child's whole environment: PATH, LANG (C.UTF-8
// unless set), the backend's env and the call's env, in that order of
// precedence from lowest to highest. Nothing comes from mcpdecl's own
// environment.
func (a *Action) environment(eval1 func(hcl.Expression) (cty.Value, string, bool)) ([]string, error) {
	vars := map[string]string{"PATH": a.searchPath()}
	if a.Backend != nil {
		for k, v := range a.Backend.Env {
			vars[k] = v
		}
	}
	set := func(name string, v cty.Value) error {
		if v.IsNull() {
			delete(vars, name) // an absent optional argument leaves it unset
			return nil
		}
		if !v.IsWhollyKnown() || !v.Type().IsPrimitiveType() {
			return refused("the environment variable %s is %s, not a string.", name, v.Type().FriendlyName())
		}
		s, err := eval.PartString(v)
		if err != nil {
			return refused("the environment variable %s: %s.", name, err)
		}
		if strings.ContainsRune(s, 0) {
			return refused("the environment variable %s contains a NUL byte.", name)
		}
		vars[name] = s
		return nil
	}
	for _, p := range a.Env {
		v, msg, ok := eval1(p.Expr)
		if !ok {
			return nil, refused("the environment variable %s could not be computed (%s).", p.Name, msg)
		}
		if err := set(p.Name, v); err != nil {
			return nil, err
		}
	}
	if a.EnvExpr != nil {
		if err := a.computedEnv(eval1, set); err != nil {
			return nil, err
		}
	}
	if _, ok := vars["LANG"]; !ok {
		vars["LANG"] = "C.UTF-8"
	}
	env := make([]string, 0, len(vars))
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	slices.Sort(env)
	return env, nil
}

// computedEnv sets the variables of an env written as one expression:
// only the names found at load time. A value holding any other name is
// refused (it cannot, as those names follow from its type).
func (a *Action) computedEnv(eval1 func(hcl.Expression) (cty.Value, string, bool), set func(string, cty.Value) error) error {
	v, msg, ok := eval1(a.EnvExpr)
	if !ok {
		return refused("env could not be computed (%s).", msg)
	}
	if v.IsNull() {
		return nil
	}
	if !v.IsWhollyKnown() || !(v.Type().IsObjectType() || v.Type().IsMapType()) {
		return refused("env is %s, not a map of names to values.", v.Type().FriendlyName())
	}
	for it := v.ElementIterator(); it.Next(); {
		k, ev := it.Element()
		name := k.AsString()
		if !slices.Contains(a.EnvNames, name) {
			return refused("env holds %q, which is not one of the variables the config names.", name)
		}
		if err := set(name, ev); err != nil {
			return err
		}
	}
	return nil
}

// acquire takes one of the Concurrency slots of this call, waiting for one
// while ctx lasts. callLimit is what ctx's deadline left when the call
// began (0 for none), named when the wait outlasts it.
func (a *Action) acquire(ctx context.Context, callLimit time.Duration) (release func(), err error) {
	a.semOnce.Do(func() {
		n := a.Concurrency
		if n <= 0 {
			n = DefaultConcurrency
		}
		a.sem = make(chan struct{}, n)
	})
	select {
	case a.sem <- struct{}{}:
		return func() { <-a.sem }, nil
	default:
	}
	select {
	case a.sem <- struct{}{}:
		return func() { <-a.sem }, nil
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) && callLimit > 0 {
			return nil, &adapter.CallError{
				Message:   fmt.Sprintf("The command did not start within %s, the time limit of this call: %s.", formatDuration(adapter.RoundLimit(callLimit)), slotsBusy(cap(a.sem))),
				Retryable: true,
				Err:       context.DeadlineExceeded,
			}
		}
		return nil, &adapter.CallError{
			Message:   fmt.Sprintf("The call was cancelled while waiting for one of the %s this tool may run at once to finish.", english.Count(cap(a.sem), "process")),
			Retryable: true,
			Err:       ctx.Err(),
		}
	}
}

// startError describes a command that could not be started.
func (a *Action) startError(c *call, err error) error {
	switch {
	case a.Dir != "" && !isDir(a.Dir):
		// The child reports a failed chdir like a failed exec (ENOENT).
		return &adapter.CallError{Err: fmt.Errorf("working directory %s: %w", a.Dir, err), Message: "The command was not run: its working directory is missing or not accessible on the server. Retrying will not help."}
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, exec.ErrNotFound):
		return &adapter.CallError{Err: err, Message: fmt.Sprintf(
			"The command was not run: the program %s was not found on the server. Retrying will not help.", shownProgram(c.path))}
	case errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.ENOEXEC):
		return &adapter.CallError{Err: err, Message: fmt.Sprintf(
			"The command was not run: the program %s cannot be executed on the server. Retrying will not help.", shownProgram(c.path))}
	}
	return &adapter.CallError{Err: err, Message: "The command could not be started (the details are in the server log)."}
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// result describes a finished command.
func (a *Action) result(ps *os.ProcessState, stdout, stderr *capture) *adapter.Result {
	code := ps.ExitCode()
	out, errText := string(stdout.buf), string(stderr.buf)
	res := &adapter.Result{Fields: map[string]any{
		"exit_code": code,
		"stdout":    out,
		"stderr":    errText,
		"json":      nil,
		"lines":     nil,
	}}
	if code != 0 {
		res.Failure = exitFailure(code, ps.Sys(), stderr, stdout)
	}

	switch {
	case a.MimeType != "":
		if stdout.dropped > 0 {
			if res.Failure == "" {
				res.Failure = fmt.Sprintf("The command printed more than %s (max_output_bytes), so its %s output was cut and cannot be returned.", english.Count(int(stdout.limit), "byte"), a.MimeType)
			}
			return res
		}
		res.Media = &adapter.Media{MimeType: a.MimeType, Data: stdout.buf}
		return res
	case a.Output == "json":
		v, err := jsondec.Decode(string(stdout.buf))
		switch {
		case err == nil:
			res.Fields["json"] = v
			if obj, ok := v.(map[string]any); ok {
				res.Structured = obj
			}
		case res.Failure != "":
		case stdout.dropped > 0:
			res.Failure = fmt.Sprintf("The command printed more than %s (max_output_bytes), so its JSON output was cut and cannot be read.", english.Count(int(stdout.limit), "byte"))
		case len(bytes.TrimSpace(stdout.buf)) == 0:
			res.Failure = "The command did not print JSON: its output was empty."
		default:
			res.Failure = fmt.Sprintf("The command did not print JSON (%s). It began with: %s", err, quoteStart(stdout.buf))
		}
	case a.Output == "lines":
		res.Fields["lines"] = splitLines(out)
	}
	res.Text = strings.ToValidUTF8(strings.TrimSuffix(out, "\n"), "\uFFFD")
	if stdout.dropped > 0 {
		res.Text += fmt.Sprintf("\n[output cut: %d more %s]", stdout.dropped, english.Noun(int(stdout.dropped), "byte"))
	}
	return res
}

// exitFailure says how a command ended, quoting the end of stderr (or of
// stdout when stderr is empty).
func exitFailure(code int, sys any, stderr, stdout *capture) string {
	var head string
	if ws, ok := sys.(syscall.WaitStatus); ok && ws.Signaled() {
		head = fmt.Sprintf("The command was killed by signal %s", signalName(ws.Signal()))
	} else {
		head = fmt.Sprintf("The command exited with status %d", code)
	}
	tail := lastLines(stderr, failureLines)
	if tail == "" {
		tail = lastLines(stdout, failureLines)
	}
	if tail == "" {
		return head + " and printed nothing."
	}
	return head + ": " + tail
}

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGSEGV:
		return "SIGSEGV"
	case syscall.SIGABRT:
		return "SIGABRT"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGPIPE:
		return "SIGPIPE"
	}
	return strconv.Itoa(int(s)) + " (" + s.String() + ")"
}

// lastLines returns the last n non-empty lines of what c kept, with a
// notice when output was cut.
func lastLines(c *capture, n int) string {
	text := strings.TrimRight(strings.ToValidUTF8(string(c.buf), "\uFFFD"), "\r\n\t ")
	if text == "" {
		return ""
	}
	lines := strings.Split(text, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
		if len(lines[i]) > maxLineBytes {
			lines[i] = strings.ToValidUTF8(lines[i][:maxLineBytes], "") + "…"
		}
	}
	s := strings.Join(lines, "\n")
	if c.dropped > 0 {
		s += fmt.Sprintf("\n[output cut: %d more %s]", c.dropped, english.Noun(int(c.dropped), "byte"))
	}
	return s
}

// quoteStart quotes the beginning of an output for a message.
func quoteStart(b []byte) string {
	const n = 200
	s := strings.ToValidUTF8(string(b[:min(len(b), n)]), "")
	if len(b) > n {
		s += "…"
	}
	return strconv.Quote(s)
}

// splitLines splits stdout into lines, without the empty string after a
// final newline and without the "\r" of CRLF line ends.
func splitLines(s string) []any {
	if s == "" {
		return []any{}
	}
	parts := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	out := make([]any, len(parts))
	for i, p := range parts {
		out[i] = strings.TrimSuffix(p, "\r")
	}
	return out
}

// formatDuration writes a duration as configured: "10s", "1m", "1m30s".
func formatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// slotsBusy says that every process a tool may run at once is running.
func slotsBusy(n int) string {
	if n == 1 {
		return "the one process this tool may run at once was busy"
	}
	return "the " + english.Count(n, "process") + " this tool may run at once were all busy"
}
