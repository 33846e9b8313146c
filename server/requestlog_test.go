package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/table"
)

// Every log line of a call carries the call's request_id (the same on
// each of its lines, another for the next call) and, when the request had
// a well-formed W3C traceparent, its trace_id; sensitive values stay out
// of the log in both formats.
func TestLogLinesCarryRequestAndTraceIDs(t *testing.T) {
	const secret = "tok-5d1e-secret"
	tbl := compileTable(t, `
backend "http" "api" {
  base_url = "http://`+closedPort(t)+`"
}
tool "lookup" {
  description = "Looks up."
  arg "token" {
    type      = string
    sensitive = true
  }
  http "api" {
    path = "/lookup/${args.token}"
  }
}`, all.Registry(), table.Options{})
	const trace = "4bf92f3577b34da6a3ce929d0e0e4736"
	for _, format := range []string{"json", "text"} {
		t.Run(format, func(t *testing.T) {
			var log bytes.Buffer
			opts := &slog.HandlerOptions{Level: slog.LevelDebug}
			h := slog.Handler(slog.NewJSONHandler(&log, opts))
			if format == "text" {
				h = slog.NewTextHandler(&log, opts)
			}
			s := New(tbl, &Options{Logger: slog.New(h)})
			for _, tp := range []string{"00-" + trace + "-00f067aa0ba902b7-01", "not-a-traceparent", ""} {
				req := &mcp.Request{Method: "tools/call", Era: mcp.EraLegacy, Header: http.Header{}}
				if tp != "" {
					req.Header.Set("traceparent", tp)
				}
				if _, err := s.CallTool(context.Background(), req, &mcp.CallToolParams{Name: "lookup", Arguments: json.RawMessage(`{"token":"` + secret + `"}`)}); err != nil {
					t.Fatal(err)
				}
			}
			if strings.Contains(log.String(), secret) {
				t.Errorf("the log holds the sensitive argument:\n%s", log.String())
			}
			lines := logLines(t, format, log.String())
			if len(lines) < 6 {
				t.Fatalf("want at least 2 lines per call (debug and failure), got %d:\n%s", len(lines), log.String())
			}
			ids := map[string][]map[string]string{}
			var order []string
			for _, l := range lines {
				id := l["request_id"]
				if id == "" {
					t.Fatalf("a line without request_id: %v", l)
				}
				if _, ok := ids[id]; !ok {
					order = append(order, id)
				}
				ids[id] = append(ids[id], l)
			}
			if len(order) != 3 {
				t.Fatalf("want 3 request ids (one per call), got %v", order)
			}
			for i, id := range order {
				for _, l := range ids[id] {
					if want := map[bool]string{true: trace, false: ""}[i == 0]; l["trace_id"] != want {
						t.Errorf("call %d, line %v: trace_id %q, want %q", i, l, l["trace_id"], want)
					}
				}
			}
		})
	}
}

// logLines reads JSON or key=value lines into maps of their string fields.
func logLines(t *testing.T, format, text string) []map[string]string {
	t.Helper()
	var out []map[string]string
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		m := map[string]string{}
		if format == "json" {
			var raw map[string]any
			if err := json.Unmarshal(sc.Bytes(), &raw); err != nil {
				t.Fatalf("not a JSON line: %s", sc.Text())
			}
			for k, v := range raw {
				if s, ok := v.(string); ok {
					m[k] = s
				}
			}
		} else {
			for _, f := range strings.Fields(sc.Text()) {
				if k, v, ok := strings.Cut(f, "="); ok {
					m[k] = v
				}
			}
		}
		out = append(out, m)
	}
	return out
}
