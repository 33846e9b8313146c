package tracing_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpdecl/mcpdecl/adapters/all"

	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/observe/tracing"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
)

// secret is sent as an argument, in a URI and in headers: no span may
// hold it.
const secret = "zq7SECRETvalue4711"

const config = `
backend "http" "api" {
  base_url = "%[1]s"
}
backend "sql" "db" {
  driver = "sqlite"
  dsn    = "file:%[2]s"
}
tool "book" {
  description = "Looks a book up."
  arg "isbn" {
    type = string
  }
  http "api" {
    path  = "/books/${args.isbn}"
    query = { q = args.isbn }
  }
}
tool "broken" {
  description = "Asks for what the API does not have."
  http "api" {
    path = "/fail"
  }
}
tool "count" {
  description = "Counts a value."
  arg "isbn" {
    type = string
  }
  sql "db" {
    query = "SELECT count(*) AS n FROM (SELECT ${args.isbn} AS x)"
  }
}
tool "say" {
  description = "Says the value."
  arg "isbn" {
    type = string
  }
  shell {
    command = ["echo", args.isbn]
  }
}
tool "chain" {
  description = "Looks a book up, then reads it back from the database."
  arg "isbn" {
    type = string
  }
  step "fetch" {
    http "api" {
      path = "/books/${args.isbn}"
    }
  }
  sql "db" {
    query = "SELECT ${args.isbn} AS isbn"
  }
}
tool "slow" {
  description = "Stopped at its deadline."
  timeout     = "100ms"
  http "api" {
    path = "/slow"
  }
}
tool "later" {
  description = "Looks a book up in the background."
  arg "isbn" {
    type = string
  }
  http "api" {
    path = "/books/${args.isbn}"
  }
  task {}
}
prompt "review" {
  description = "Reviews a book."
  arg "who" {
    type        = string
    completions = ["Ada", "Alan"]
  }
  message "user" {
    text = "Review it, ${args.who}"
  }
}
resource_template "shelf" {
  uri_template = "books://shelf/{isbn}"
  name         = "shelf"
  mime_type    = "application/json"
  arg "isbn" {
    description = "The book."
  }
  http "api" {
    path = "/books/${args.isbn}"
  }
}
`

// api is an HTTP backend on loopback that keeps the traceparent of each
// request it gets.
type api struct {
	*httptest.Server
	mu      sync.Mutex
	parents []string
}

func newAPI(t *testing.T) *api {
	a := &api{}
	a.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.parents = append(a.parents, r.Header.Get("traceparent"))
		a.mu.Unlock()
		if r.URL.Path == "/slow" {
			<-r.Context().Done() // until the caller gives up
			return
		}
		if r.URL.Path == "/fail" {
			http.Error(w, `{"error":"no"}`, http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"title":"Dune"}`))
	}))
	t.Cleanup(a.Close)
	return a
}

func (a *api) traceparents() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.parents...)
}

// fixture is a traced server over HTTP with its spans and its log.
type fixture struct {
	url   string
	api   *api
	spans *recorded
	log   *syncBuffer
	srv   *server.Server
}

func start(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{api: newAPI(t), spans: &recorded{}, log: &syncBuffer{}}
	db := filepath.Join(t.TempDir(), "t.db")
	if err := os.WriteFile(db, nil, 0o600); err != nil { // an empty database
		t.Fatal(err)
	}
	cfg, diags := lang.LoadSource("traced.hcl", fmt.Appendf(nil, config, f.api.URL, db))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tp := tracing.NewProvider(&f.spans.Recorder, tracing.ProviderOptions{})
	logger := slog.New(slog.NewJSONHandler(f.log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv, err := server.Open(context.Background(), tbl, &server.Options{Tracer: tp.Tracer(), Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	f.srv = srv
	hs := httptest.NewServer(mcp.NewServer(srv, nil).HTTPHandler(nil))
	t.Cleanup(func() {
		hs.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = srv.DrainTasks(ctx)
		srv.Close()
	})
	f.url = hs.URL
	return f
}

// recorded keeps the spans of a fixture.
type recorded struct{ tracing.Recorder }

// GetSpans are the spans ended so far, as the SDK's tests show spans.
func (r *recorded) GetSpans() tracetest.SpanStubs { return tracing.Stubs(r.Ended()) }

// headers adds headers to every request a client sends.
type headers struct {
	h    http.Header
	next http.RoundTripper
}

func (h headers) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.h {
		r.Header[k] = v
	}
	return h.next.RoundTrip(r)
}

// connect is a go-sdk client of the fixture in the protocol revision
// version, sending extra with every request.
func (f *fixture) connect(t *testing.T, version string, extra http.Header) *sdkmcp.ClientSession {
	t.Helper()
	c := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "traces-test", Version: "1"}, nil)
	tr := &sdkmcp.StreamableClientTransport{Endpoint: f.url, HTTPClient: &http.Client{Transport: headers{extra, http.DefaultTransport}}}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, tr, &sdkmcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect %s: %v", version, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

var eras = []struct{ name, version string }{
	{"modern", mcp.Version20260728},
	{"legacy", mcp.Version20251125},
}

func secretHeaders() http.Header {
	h := http.Header{}
	h.Set("Authorization", "Bearer "+secret)
	h.Set("X-Api-Key", secret)
	return h
}

func call(t *testing.T, cs *sdkmcp.ClientSession, tool string, args map[string]any, meta sdkmcp.Meta) *sdkmcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: tool, Arguments: args, Meta: meta})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return res
}

// TestSpanTree: in each era, a call of each backend kind is a server
// span named after the tool, parent of a client span per backend call
// (each step's too), with the conventions' attributes; the HTTP backend
// gets the trace context of its span; no span holds the argument, the URI
// or a header's value.
func TestSpanTree(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			f := start(t)
			cs := f.connect(t, era.version, secretHeaders())
			args := map[string]any{"isbn": secret}
			for _, tool := range []string{"book", "count", "say", "chain"} {
				if res := call(t, cs, tool, args, nil); res.IsError {
					t.Fatalf("%s: %+v", tool, res.Content[0])
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			if _, err := cs.ReadResource(ctx, &sdkmcp.ReadResourceParams{URI: "books://shelf/" + secret}); err != nil {
				t.Fatal(err)
			}
			if _, err := cs.GetPrompt(ctx, &sdkmcp.GetPromptParams{Name: "review", Arguments: map[string]string{"who": secret}}); err != nil {
				t.Fatal(err)
			}
			if _, err := cs.Complete(ctx, &sdkmcp.CompleteParams{Ref: &sdkmcp.CompleteReference{Type: "ref/prompt", Name: "review"},
				Argument: sdkmcp.CompleteParamsArgument{Name: "who", Value: secret}}); err != nil {
				t.Fatal(err)
			}
			spans := f.spans.GetSpans()
			wantAttrs(t, only(t, spans, "prompts/get review"), map[string]any{"mcp.method.name": "prompts/get", "gen_ai.prompt.name": "review", "mcpdecl.outcome": "ok"})
			wantAttrs(t, only(t, spans, "completion/complete review"), map[string]any{"mcp.method.name": "completion/complete", "mcpdecl.completion.ref": "review"})

			book := only(t, spans, "tools/call book")
			wantKind(t, book, trace.SpanKindServer)
			wantAttrs(t, book, map[string]any{"mcp.method.name": "tools/call", "gen_ai.tool.name": "book", "gen_ai.operation.name": "execute_tool",
				"mcp.protocol.version": era.version, "mcpdecl.outcome": "ok", "network.transport": "tcp"})
			if id := attr(book, "jsonrpc.request.id"); id == nil {
				t.Errorf("tools/call book: no jsonrpc.request.id")
			}
			if book.Status.Code == codes.Error {
				t.Errorf("tools/call book: status %v", book.Status)
			}
			get := childOf(t, spans, book, "GET /books/{args.isbn}")
			wantKind(t, get, trace.SpanKindClient)
			port := f.api.Listener.Addr().(*net.TCPAddr).Port
			wantAttrs(t, get, map[string]any{"http.request.method": "GET", "url.template": "/books/{args.isbn}", "server.address": "127.0.0.1",
				"server.port": int64(port), "http.response.status_code": int64(200), "mcpdecl.backend.name": "api", "mcpdecl.backend.kind": "http", "mcpdecl.outcome": "ok"})

			count := only(t, spans, "tools/call count")
			sel := childOf(t, spans, count, "SELECT db")
			wantKind(t, sel, trace.SpanKindClient)
			wantAttrs(t, sel, map[string]any{"db.system.name": "sqlite", "db.operation.name": "SELECT", "mcpdecl.backend.name": "db"})

			say := only(t, spans, "tools/call say")
			wantAttrs(t, childOf(t, spans, say, "echo"), map[string]any{"process.executable.name": "echo", "mcpdecl.backend.kind": "shell", "mcpdecl.outcome": "ok"})

			chain := only(t, spans, "tools/call chain")
			wantAttrs(t, childOf(t, spans, chain, "GET /books/{args.isbn}"), map[string]any{"mcpdecl.step.name": "fetch"})
			if s := childOf(t, spans, chain, "SELECT db"); attr(s, "mcpdecl.step.name") != nil {
				t.Errorf("the tool's own call is named a step: %v", attr(s, "mcpdecl.step.name"))
			}

			read := only(t, spans, "resources/read shelf")
			wantAttrs(t, read, map[string]any{"mcp.method.name": "resources/read", "mcpdecl.resource.name": "shelf"})
			childOf(t, spans, read, "GET /books/{args.isbn}")

			// Each backend request carried its span's context.
			var clients []tracetest.SpanStub
			for _, s := range spans {
				if s.Name == "GET /books/{args.isbn}" {
					clients = append(clients, s)
				}
			}
			parents := f.api.traceparents()
			if len(parents) != len(clients) {
				t.Fatalf("the API got %d requests, %d spans", len(parents), len(clients))
			}
			for _, s := range clients {
				want := fmt.Sprintf("00-%s-%s-01", s.SpanContext.TraceID(), s.SpanContext.SpanID())
				if !contains(parents, want) {
					t.Errorf("no request to the API carried %s: %q", want, parents)
				}
			}
			noSecret(t, spans)
		})
	}
}

// TestFailures: an answer the tool reports as an error is a tool_error;
// the HTTP span has the status as its error type; a call stopped at its
// tool's deadline is a timeout, its backend call too; a call of an
// unknown tool is a protocol error typed by its JSON-RPC code.
func TestFailures(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			f := start(t)
			cs := f.connect(t, era.version, nil)
			if res := call(t, cs, "broken", nil, nil); !res.IsError {
				t.Fatal("broken: not an error")
			}
			if res := call(t, cs, "slow", nil, nil); !res.IsError {
				t.Fatal("slow: not an error")
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			if _, err := cs.CallTool(ctx, &sdkmcp.CallToolParams{Name: "nope"}); err == nil {
				t.Fatal("nope: no error")
			}
			spans := f.spans.GetSpans()
			broken := only(t, spans, "tools/call broken")
			wantAttrs(t, broken, map[string]any{"mcpdecl.outcome": "tool_error", "error.type": "tool_error"})
			if broken.Status.Code != codes.Error {
				t.Errorf("broken: status %v", broken.Status)
			}
			get := childOf(t, spans, broken, "GET /fail")
			wantAttrs(t, get, map[string]any{"http.response.status_code": int64(503), "error.type": "503", "mcpdecl.outcome": "failure"})
			if get.Status.Code != codes.Error {
				t.Errorf("GET /fail: status %v", get.Status)
			}
			slow := only(t, spans, "tools/call slow")
			wantAttrs(t, slow, map[string]any{"mcpdecl.outcome": "timeout", "error.type": "timeout"})
			wantAttrs(t, childOf(t, spans, slow, "GET /slow"), map[string]any{"mcpdecl.outcome": "timeout", "error.type": "timeout"})
			nope := only(t, spans, "tools/call unknown")
			wantAttrs(t, nope, map[string]any{"mcpdecl.outcome": "protocol_error", "error.type": "-32602", "gen_ai.tool.name": "unknown"})
		})
	}
}

// TestIncomingContext: the trace context of the HTTP header is continued;
// params._meta's wins over it, with the header's as a link; the log lines
// of a call carry its span's ids, also when the caller sent none.
func TestIncomingContext(t *testing.T) {
	const (
		headerTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
		headerSpan  = "00f067aa0ba902b7"
		metaTrace   = "0af7651916cd43dd8448eb211c80319c"
		metaSpan    = "b7ad6b7169203331"
	)
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			f := start(t)
			h := http.Header{}
			h.Set("traceparent", "00-"+headerTrace+"-"+headerSpan+"-01")
			h.Set("tracestate", "vendor=x")
			cs := f.connect(t, era.version, h)
			args := map[string]any{"isbn": "1"}
			call(t, cs, "book", args, nil)
			call(t, cs, "count", args, sdkmcp.Meta{"traceparent": "00-" + metaTrace + "-" + metaSpan + "-01", "tracestate": "other=y"})

			spans := f.spans.GetSpans()
			book := only(t, spans, "tools/call book")
			if got := book.Parent; got.TraceID().String() != headerTrace || got.SpanID().String() != headerSpan || !got.IsRemote() {
				t.Errorf("book's parent is %v, not the header's", got)
			}
			if got := book.Parent.TraceState().Get("vendor"); got != "x" {
				t.Errorf("book's parent's tracestate vendor=%q", got)
			}
			count := only(t, spans, "tools/call count")
			if got := count.Parent; got.TraceID().String() != metaTrace || got.SpanID().String() != metaSpan {
				t.Errorf("count's parent is %v, not _meta's", got)
			}
			if len(count.Links) != 1 || count.Links[0].SpanContext.SpanID().String() != headerSpan {
				t.Errorf("count's links %+v: want the header's context", count.Links)
			}

			// Log lines of a call name its trace and span: book logs its
			// backend call at debug level, in the call's span.
			lines := f.logLines(t)
			found := false
			for _, l := range lines {
				if l["msg"] == "backend call" && strings.HasPrefix(fmt.Sprint(l["target"]), "tool book") {
					found = true
					if l["trace_id"] != headerTrace || l["span_id"] != book.SpanContext.SpanID().String() {
						t.Errorf("log line %v: want trace %s span %s", l, headerTrace, book.SpanContext.SpanID())
					}
				}
			}
			if !found {
				t.Fatalf("no log line of book's backend call in %v", lines)
			}
		})
	}
}

// TestLogWithoutCallerContext: a call whose caller sent no trace context
// still logs its own trace id.
func TestLogWithoutCallerContext(t *testing.T) {
	f := start(t)
	cs := f.connect(t, mcp.Version20260728, nil)
	call(t, cs, "say", map[string]any{"isbn": "1"}, nil)
	say := only(t, f.spans.GetSpans(), "tools/call say")
	if say.Parent.IsValid() {
		t.Fatalf("say has a parent: %v", say.Parent)
	}
	n := 0
	for _, l := range f.logLines(t) {
		if l["request_id"] == nil {
			continue
		}
		n++
		if l["trace_id"] != say.SpanContext.TraceID().String() || l["span_id"] == nil {
			t.Errorf("log line %v: want trace %s", l, say.SpanContext.TraceID())
		}
	}
	if n == 0 {
		t.Fatal("no log line of the call")
	}
}

func (f *fixture) logLines(t *testing.T) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(f.log.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

func only(t *testing.T, spans tracetest.SpanStubs, name string) tracetest.SpanStub {
	t.Helper()
	var found []tracetest.SpanStub
	for _, s := range spans {
		if s.Name == name {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d spans named %q in %v", len(found), name, names(spans))
	}
	return found[0]
}

// childOf is the one span named name whose parent is parent.
func childOf(t *testing.T, spans tracetest.SpanStubs, parent tracetest.SpanStub, name string) tracetest.SpanStub {
	t.Helper()
	for _, s := range spans {
		if s.Name == name && s.Parent.SpanID() == parent.SpanContext.SpanID() && s.SpanContext.TraceID() == parent.SpanContext.TraceID() {
			return s
		}
	}
	t.Fatalf("no span %q under %q in %v", name, parent.Name, names(spans))
	return tracetest.SpanStub{}
}

func names(spans tracetest.SpanStubs) []string {
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = s.Name
	}
	return out
}

func attr(s tracetest.SpanStub, key string) any {
	for _, a := range s.Attributes {
		if string(a.Key) == key {
			return a.Value.AsInterface()
		}
	}
	return nil
}

func wantAttrs(t *testing.T, s tracetest.SpanStub, want map[string]any) {
	t.Helper()
	for k, v := range want {
		if got := attr(s, k); got != v {
			t.Errorf("%s: %s = %v (%T), want %v", s.Name, k, got, got, v)
		}
	}
}

func wantKind(t *testing.T, s tracetest.SpanStub, k trace.SpanKind) {
	t.Helper()
	if s.SpanKind != k {
		t.Errorf("%s: kind %v, want %v", s.Name, s.SpanKind, k)
	}
}

// noSecret fails when any span's name, attribute, event or link holds
// the secret.
func noSecret(t *testing.T, spans tracetest.SpanStubs) {
	t.Helper()
	for _, s := range spans {
		var sb strings.Builder
		sb.WriteString(s.Name + " " + s.Status.Description)
		kvs := append([]attribute.KeyValue{}, s.Attributes...)
		for _, e := range s.Events {
			sb.WriteString(" " + e.Name)
			kvs = append(kvs, e.Attributes...)
		}
		for _, l := range s.Links {
			kvs = append(kvs, l.Attributes...)
		}
		kvs = append(kvs, s.Resource.Attributes()...)
		for _, kv := range kvs {
			sb.WriteString(" " + string(kv.Key) + "=" + kv.Value.Emit())
		}
		if strings.Contains(sb.String(), secret) {
			t.Errorf("span %q holds the secret: %s", s.Name, sb.String())
		}
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestTaskSpans: the backend calls of a task, which run after its
// request was answered, continue the trace of the request that created
// it, under its span.
func TestTaskSpans(t *testing.T) {
	f := start(t)
	body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"later","arguments":{"isbn":"` + secret + `"},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}}`
	req, _ := http.NewRequest(http.MethodPost, f.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", mcp.Version20260728)
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "later")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(raw), "taskId") {
		t.Fatalf("no task: %s", raw)
	}
	// The task ends on its own; wait for its backend span.
	var get tracetest.SpanStub
	for range 500 {
		for _, s := range f.spans.GetSpans() {
			if s.Name == "GET /books/{args.isbn}" {
				get = s
			}
		}
		if get.Name != "" {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	spans := f.spans.GetSpans()
	call := only(t, spans, "tools/call later")
	if get.Name == "" {
		t.Fatalf("no backend span of the task in %v", names(spans))
	}
	if get.Parent.SpanID() != call.SpanContext.SpanID() || get.SpanContext.TraceID() != call.SpanContext.TraceID() {
		t.Errorf("the task's backend span %v is not under the request's %v", get.Parent, call.SpanContext)
	}
	want := fmt.Sprintf("00-%s-%s-01", get.SpanContext.TraceID(), get.SpanContext.SpanID())
	if parents := f.api.traceparents(); !contains(parents, want) {
		t.Errorf("the task's request to the API carried %q, want %s", parents, want)
	}
	noSecret(t, spans)
}

// TestStdioContext: over stdio, where there are no headers, the trace
// context of params._meta is continued and the transport is a pipe.
func TestStdioContext(t *testing.T) {
	const parentTrace, parentSpan = "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331"
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			f := start(t)
			ctx, cancel := context.WithCancel(context.Background())
			clientIn, serverOut := io.Pipe()
			serverIn, clientOut := io.Pipe()
			done := make(chan struct{})
			go func() {
				defer close(done)
				_ = mcp.NewServer(f.srv, nil).ServeStdio(ctx, serverIn, serverOut)
				serverOut.Close()
			}()
			t.Cleanup(func() { clientOut.Close(); cancel(); <-done })
			c := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "traces-test", Version: "1"}, nil)
			cs, err := c.Connect(ctx, &sdkmcp.IOTransport{Reader: clientIn, Writer: clientOut}, &sdkmcp.ClientSessionOptions{ProtocolVersion: era.version})
			if err != nil {
				t.Fatal(err)
			}
			call(t, cs, "count", map[string]any{"isbn": "1"}, sdkmcp.Meta{"traceparent": "00-" + parentTrace + "-" + parentSpan + "-01"})
			count := only(t, f.spans.GetSpans(), "tools/call count")
			if got := count.Parent; got.TraceID().String() != parentTrace || got.SpanID().String() != parentSpan {
				t.Errorf("count's parent is %v, not _meta's", got)
			}
			wantAttrs(t, count, map[string]any{"network.transport": "pipe", "mcp.protocol.version": era.version})
		})
	}
}

// TestLongRequestID: an id longer than a span keeps is left out, the
// span made all the same.
func TestLongRequestID(t *testing.T) {
	f := start(t)
	for i, id := range []string{`"short-id"`, `"` + strings.Repeat("x", 5000) + `"`} {
		body := `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"say","arguments":{"isbn":"1"},` +
			`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
		req, _ := http.NewRequest(http.MethodPost, f.url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", mcp.Version20260728)
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "say")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		spans := f.spans.GetSpans()
		if len(spans) < 2*(i+1) {
			t.Fatalf("call %d: %d spans", i, len(spans))
		}
		span := only(t, spans[2*i:], "tools/call say")
		want := any("short-id")
		if i == 1 {
			want = nil
		}
		if got := attr(span, "jsonrpc.request.id"); got != want {
			t.Errorf("call %d: jsonrpc.request.id = %v, want %v", i, got, want)
		}
	}
}
