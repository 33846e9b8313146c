package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/observe/metrics"
	"github.com/mcpdecl/mcpdecl/table"
)

// TestBackendCallMetrics: every backend call, each step's included, is
// counted by backend, kind and outcome, with its latency; a call that
// never reaches a backend (invalid arguments) is not.
func TestBackendCallMetrics(t *testing.T) {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/fail" {
			http.Error(w, "no", http.StatusInternalServerError)
			return
		}
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	defer api.Close()
	tbl := compileTable(t, `
backend "http" "api" {
  base_url = "`+api.URL+`"
}
tool "twice" {
  description = "Asks the API twice: a step, then the call."
  arg "n" {
    type = integer
  }
  step "first" {
    http "api" {
      path = "/ok"
    }
  }
  http "api" {
    path = "/ok"
  }
}
tool "fail" {
  description = "Gets an error status."
  http "api" {
    path = "/fail"
  }
}
tool "say" {
  description = "Runs a command without a backend block."
  shell {
    command = ["echo", "hi"]
  }
}
`, all.Registry(), table.Options{})
	reg := metrics.New()
	s := New(tbl, &Options{OnBackendCall: reg.BackendCalls().Ended})
	req := &mcp.Request{Method: "tools/call", Notifier: nopNotifier{}}
	for _, c := range []struct{ tool, args string }{{"twice", `{"n":1}`}, {"twice", `{"n":"x"}`}, {"fail", `{}`}, {"say", `{}`}} {
		if _, err := s.CallTool(context.Background(), req, &mcp.CallToolParams{Name: c.tool, Arguments: json.RawMessage(c.args)}); err != nil {
			t.Fatalf("%s: %v", c.tool, err)
		}
	}
	rec := httptest.NewRecorder()
	reg.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	body := rec.Body.String()
	for _, want := range []string{
		`mcpdecl_backend_calls_total{backend="api",kind="http",outcome="ok"} 2`,
		`mcpdecl_backend_calls_total{backend="api",kind="http",outcome="failure"} 1`,
		`mcpdecl_backend_calls_total{backend="",kind="shell",outcome="ok"} 1`,
		`mcpdecl_backend_call_duration_seconds_count{backend="api",kind="http"} 3`,
		`mcpdecl_backend_call_duration_seconds_count{backend="",kind="shell"} 1`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("no %s in\n%s", want, grep(body, "mcpdecl_backend_call"))
		}
	}
}

func grep(body, prefix string) string {
	var out []string
	for _, l := range strings.Split(body, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
