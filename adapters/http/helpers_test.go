package httpadapter

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/checktest"
	"github.com/mcpdecl/mcpdecl/eval"
)

// compiled is a snippet compiled through the real compile phase, with the
// static scope calls evaluate in.
type compiled struct {
	backends map[string]*Backend
	actions  []*Action
	static   *eval.Static
}

// compileEnv compiles src like checktest.Compile, but with env() reading
// env (as when serving) instead of returning unknown values (as during
// validate). Any error diagnostic fails the test.
func compileEnv(t testing.TB, src string, env map[string]string) *compiled {
	t.Helper()
	return compileScoped(t, src, env, nil)
}

// compileScoped is compileEnv with the scope adjusted by adjust first.
func compileScoped(t testing.TB, src string, env map[string]string, adjust func(*adapter.Scope)) *compiled {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(src), checktest.Filename, hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parse: %s", diags.Error())
	}
	content, diags := f.Body.Content(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "backend", LabelNames: []string{"kind", "name"}},
		{Type: Kind, LabelNames: []string{"backend"}},
	}})
	if diags.HasErrors() {
		t.Fatalf("decode: %s", diags.Error())
	}
	s := checktest.Scope(f)
	s.Static.Env = &eval.Env{
		Allowed: []string{"TOKEN", "SECRET", "KEY"},
		Lookup: func(name string) (string, bool) {
			v, ok := env[name]
			return v, ok
		},
	}
	if adjust != nil {
		adjust(s)
	}
	out := &compiled{backends: map[string]*Backend{}, static: s.Static}
	var all hcl.Diagnostics
	for _, b := range content.Blocks.OfType("backend") {
		be, d := New().CompileBackend(&adapter.BackendBlock{Name: b.Labels[1], Body: b.Body, DeclRange: b.DefRange, Scope: s})
		all = append(all, d...)
		out.backends[b.Labels[1]] = be.(*Backend)
	}
	for _, b := range content.Blocks.OfType(Kind) {
		var be adapter.Backend
		if x, ok := out.backends[b.Labels[0]]; ok {
			be = x
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
	t.Cleanup(func() {
		for _, b := range out.backends {
			b.Close()
		}
	})
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

// invoke runs action i with args.
func (c *compiled) invoke(i int, a cty.Value, header http.Header) (*adapter.Result, error) {
	return c.invokeCtx(context.Background(), i, a, header)
}

func (c *compiled) invokeCtx(ctx context.Context, i int, a cty.Value, header http.Header) (*adapter.Result, error) {
	if a == cty.NilVal {
		a = args(nil)
	}
	return c.actions[i].Invoke(ctx, &adapter.Request{
		Args:     a,
		Static:   c.static,
		Header:   header,
		Progress: func(float64, float64, string) {},
		Log:      func(string, any) {},
	})
}

// seen is one request a test server received.
type seen struct {
	Method, URI string
	Header      http.Header
	Body        string
}

// recorder is a loopback server that records every request and answers
// with handle (200 and "{}" when nil).
type recorder struct {
	*httptest.Server
	mu     sync.Mutex
	reqs   []seen
	handle func(w http.ResponseWriter, r *http.Request, n int)
}

func newRecorder(t testing.TB, handle func(w http.ResponseWriter, r *http.Request, n int)) *recorder {
	rec := &recorder{handle: handle}
	rec.Server = httptest.NewServer(http.HandlerFunc(rec.serve))
	t.Cleanup(rec.Close)
	return rec
}

func (rec *recorder) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rec.mu.Lock()
	rec.reqs = append(rec.reqs, seen{Method: r.Method, URI: r.RequestURI, Header: r.Header.Clone(), Body: string(body)})
	n := len(rec.reqs)
	rec.mu.Unlock()
	if rec.handle == nil {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, "{}")
		return
	}
	rec.handle(w, r, n)
}

func (rec *recorder) requests() []seen {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]seen(nil), rec.reqs...)
}

func (rec *recorder) count() int {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return len(rec.reqs)
}

func (rec *recorder) uris() []string {
	var out []string
	for _, r := range rec.requests() {
		out = append(out, r.Method+" "+r.URI)
	}
	return out
}

type ctyValue = cty.Value

func str(s string) cty.Value { return cty.StringVal(s) }
