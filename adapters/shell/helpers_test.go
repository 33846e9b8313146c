package shelladapter

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/checktest"
	"github.com/mcpdecl/mcpdecl/eval"
)

// compiled is a snippet compiled through the real compile phase, with the
// static scope its calls evaluate in.
type compiled struct {
	actions []*Action
	static  *eval.Static
}

// compileRun compiles src like checktest.Compile, but with env() reading
// the test process's environment for the names in allowed (as when
// serving). "DIR" in src is replaced by dir. Any error diagnostic fails the
// test.
func compileRun(t testing.TB, src string, allowed ...string) *compiled {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(src), checktest.Filename, hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parse: %s", diags.Error())
	}
	content, diags := f.Body.Content(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "backend", LabelNames: []string{"kind", "name"}},
		{Type: Kind},
	}})
	if diags.HasErrors() {
		t.Fatalf("decode: %s", diags.Error())
	}
	s := checktest.Scope(f)
	s.Static.Env = &eval.Env{Allowed: allowed, Lookup: os.LookupEnv}
	out := &compiled{static: s.Static}
	backends := map[string]adapter.Backend{}
	var all hcl.Diagnostics
	for _, b := range content.Blocks.OfType("backend") {
		be, d := New().CompileBackend(&adapter.BackendBlock{Name: b.Labels[1], Body: b.Body, DeclRange: b.DefRange, Scope: s})
		all = append(all, d...)
		backends[b.Labels[1]] = be
	}
	for _, b := range content.Blocks.OfType(Kind) {
		var be adapter.Backend
		if attr, ok := b.Body.(*hclsyntax.Body).Attributes["backend"]; ok {
			v, _ := attr.Expr.Value(nil)
			be = backends[v.AsString()]
		}
		act, d := New().CompileCall(&adapter.CallBlock{
			Owner: `tool "t"`, Backend: be, Body: b.Body,
			DeclRange: b.DefRange, TypeRange: b.TypeRange, Scope: s,
		})
		all = append(all, d...)
		out.actions = append(out.actions, act.(*Action))
	}
	if all.HasErrors() {
		t.Fatalf("compile: %s", all.Error())
	}
	return out
}

// args builds the args object of checktest.ArgsType; absent ones are null.
func args(vals map[string]cty.Value) cty.Value {
	attrs := map[string]cty.Value{}
	for name, ty := range checktest.ArgsType.AttributeTypes() {
		if v, ok := vals[name]; ok {
			attrs[name] = v
		} else {
			attrs[name] = cty.NullVal(ty)
		}
	}
	return cty.ObjectVal(attrs)
}

// event is one notification a call sent, with when it arrived.
type event struct {
	kind     string // "log" or "progress"
	text     string
	progress float64
	total    float64
	at       time.Time
}

// recorder collects the notifications of calls.
type recorder struct {
	mu     sync.Mutex
	events []event
	// onEvent, when set, is called (outside the lock) for each event.
	onEvent func(event)
}

func (r *recorder) add(e event) {
	e.at = time.Now()
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
	if r.onEvent != nil {
		r.onEvent(e)
	}
}

func (r *recorder) all() []event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]event(nil), r.events...)
}

// request builds a request with args and callbacks that feed rec (which
// may be nil).
func (c *compiled) request(a cty.Value, rec *recorder) *adapter.Request {
	if a == cty.NilVal {
		a = args(nil)
	}
	req := &adapter.Request{
		Args:     a,
		Static:   c.static,
		Progress: func(float64, float64, string) {},
		Log:      func(string, any) {},
	}
	if rec != nil {
		req.Progress = func(p, total float64, msg string) {
			rec.add(event{kind: "progress", text: msg, progress: p, total: total})
		}
		req.Log = func(level string, data any) {
			s, _ := data.(string)
			rec.add(event{kind: "log", text: level + ": " + s})
		}
	}
	return req
}

// invoke runs action i with args.
func (c *compiled) invoke(t testing.TB, i int, a cty.Value) (*adapter.Result, error) {
	t.Helper()
	return c.actions[i].Invoke(context.Background(), c.request(a, nil))
}

// mustInvoke runs action i and fails the test on an error.
func (c *compiled) mustInvoke(t testing.TB, i int, a cty.Value) *adapter.Result {
	t.Helper()
	res, err := c.invoke(t, i, a)
	if err != nil {
		t.Fatalf("Invoke: %v", err)
	}
	return res
}

// callError returns err as a CallError, failing the test otherwise.
func callError(t testing.TB, err error) *adapter.CallError {
	t.Helper()
	var ce *adapter.CallError
	if !errors.As(err, &ce) {
		t.Fatalf("error = %v (%T), want a *adapter.CallError", err, err)
	}
	return ce
}

// gone reports whether the process pid no longer runs: it does not exist,
// or it is a zombie nobody reaped yet (in a container, PID 1 may never
// reap orphans).
func gone(pid int) bool {
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

// waitGone polls until pid is gone or d has passed.
func waitGone(pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		if gone(pid) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// script writes an executable shell script into a new temporary directory
// and returns its path.
func script(t testing.TB, name, body string) string {
	t.Helper()
	p := t.TempDir() + "/" + name
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}
