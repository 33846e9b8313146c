package server_test

import (
	"context"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/observe/metrics"
	"github.com/mcpdecl/mcpdecl/observe/tracing"
	"github.com/mcpdecl/mcpdecl/server"
)

// TestCallToolObservedByRealName: over HTTP, real clients (go-sdk and
// mcp-go, both eras) call tools of the dynamic toolset "work" through
// call_tool; the Prometheus series and the spans name the real tool
// (its refusal by its own schema too), the backend span of a step hangs
// under the real tool's span, and only search_tools and a call_tool of a
// tool outside the toolset are counted under a meta-tool's name.
func TestCallToolObservedByRealName(t *testing.T) {
	requireSchemas(t)
	tbl := compileToolsetsTable(t, toolsetsConfig)
	for _, e := range eras {
		for _, cl := range toolsetClients {
			t.Run(cl.name+"/"+e.name, func(t *testing.T) {
				reg := metrics.New()
				spans := &tracing.Recorder{}
				tp := tracing.NewProvider(spans, tracing.ProviderOptions{})
				srv := server.New(tbl, &server.Options{Observer: reg, Tracer: tp.Tracer()})
				t.Cleanup(srv.Close)
				log := &wireLog{}
				u, _ := startHTTPInProcess(t, log, srv.View([]string{"work"}, false))
				c := cl.connect(t, u, e.version)
				defer c.close()
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				for _, call := range []struct {
					name    string
					args    map[string]any
					wantErr bool
				}{
					{"call_tool", map[string]any{"name": "issue_create", "arguments": map[string]any{"title": "observed"}}, false},
					{"call_tool", map[string]any{"name": "issue_create", "arguments": map[string]any{"title": "x"}}, true},
					{"call_tool", map[string]any{"name": "stepped"}, false},
					{"search_tools", map[string]any{"query": "issue"}, false},
					{"call_tool", map[string]any{"name": "repo_list", "arguments": map[string]any{"owner": "x"}}, true},
				} {
					text, _, isErr, err := c.callTool(ctx, call.name, call.args)
					if err != nil || isErr != call.wantErr {
						t.Fatalf("%s %v: %q %v %v", call.name, call.args, text, isErr, err)
					}
				}

				series := scrape(t, reg)
				for _, want := range []string{
					`mcpdecl_calls_total{kind="tool",name="issue_create",outcome="ok"} 1`,
					`mcpdecl_calls_total{kind="tool",name="issue_create",outcome="tool_error"} 1`,
					`mcpdecl_calls_total{kind="tool",name="stepped",outcome="ok"} 1`,
					`mcpdecl_calls_total{kind="tool",name="search_tools",outcome="ok"} 1`,
					`mcpdecl_calls_total{kind="tool",name="call_tool",outcome="tool_error"} 1`,
					`mcpdecl_call_duration_seconds_count{kind="tool",name="issue_create"} 2`,
					`mcpdecl_call_duration_seconds_count{kind="tool",name="call_tool"} 1`,
				} {
					if !strings.Contains(series, want+"\n") {
						t.Errorf("/metrics lacks %s:\n%s", want, grepLines(series, "mcpdecl_call"))
					}
				}

				var names []string
				byName := map[string]*tracing.Span{}
				for _, s := range spans.Ended() {
					names = append(names, s.Name())
					byName[s.Name()] = s
				}
				for _, want := range []string{"tools/call issue_create", "tools/call stepped", "tools/call search_tools", "tools/call call_tool"} {
					if !slices.Contains(names, want) {
						t.Errorf("no span %q among %v", want, names)
					}
				}
				if n := count(names, "tools/call issue_create"); n != 2 {
					t.Errorf("%d spans tools/call issue_create, want 2: %v", n, names)
				}
				if n := count(names, "tools/call call_tool"); n != 1 {
					t.Errorf("%d spans tools/call call_tool (the call of a tool outside the toolset only), want 1: %v", n, names)
				}
				stepped := byName["tools/call stepped"]
				var child bool
				for _, s := range spans.Ended() {
					if stepped != nil && s.Parent().SpanID() == stepped.SpanContext().SpanID() {
						child = true
					}
				}
				if !child {
					t.Errorf("the step's backend span is not under tools/call stepped: %v", names)
				}
				log.verify(t, e.version+" tools/call")
			})
		}
	}
}

// scrape is the registry's /metrics text.
func scrape(t *testing.T, reg *metrics.Registry) string {
	t.Helper()
	rec := httptest.NewRecorder()
	reg.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	return rec.Body.String()
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func count(names []string, name string) int {
	n := 0
	for _, x := range names {
		if x == name {
			n++
		}
	}
	return n
}
