package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/internal/testenv"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/table"
)

// callText calls a tool and returns whether it failed and its text.
func callText(t *testing.T, s *Server, name, args string) (bool, string) {
	t.Helper()
	res, err := s.CallTool(context.Background(), &mcp.Request{Method: "tools/call", Notifier: nopNotifier{}},
		&mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		text.WriteString(c.Text)
	}
	return res.IsError, text.String()
}

// slowAPI answers every request after delay.
func slowAPI(t *testing.T, delay time.Duration) string {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

// TestHostileToolTimeout: a tool's timeout is the one deadline of
// its calls. A longer one is not cut short by the backend's (or the call
// block's) timeout, and a shorter one stops the call even when the
// backend would wait longer.
func TestHostileToolTimeout(t *testing.T) {
	url := slowAPI(t, 300*time.Millisecond)
	tbl := compileTable(t, `
backend "http" "api" {
  base_url = "`+url+`"
  timeout  = "100ms"
}
backend "http" "patient" {
  base_url = "`+url+`"
  timeout  = "5s"
}
tool "long" {
  description = "A tool that may take a second; its backend's default is shorter."
  timeout     = "1s"
  http "api" {
    path = "/slow"
  }
}
tool "long_call" {
  description = "The call block sets a shorter timeout than the tool."
  timeout     = "1s"
  http "api" {
    path    = "/slow"
    timeout = "100ms"
  }
}
tool "backend_default" {
  description = "No tool timeout: the backend's applies."
  http "api" {
    path = "/slow"
  }
}
tool "short" {
  description = "The tool is shorter than its backend."
  timeout     = "100ms"
  http "patient" {
    path = "/slow"
  }
}
`, all.Registry(), table.Options{})
	s := New(tbl, nil)
	for _, name := range []string{"long", "long_call"} {
		if isErr, text := callText(t, s, name, `{}`); isErr {
			t.Errorf("%s: a 300ms answer under a 1s tool timeout failed: %s", name, text)
		}
	}
	if isErr, text := callText(t, s, "backend_default", `{}`); !isErr || !strings.Contains(text, "100ms") {
		t.Errorf("backend_default: want a failure naming the backend's 100ms, got %v %q", isErr, text)
	}
	if isErr, text := callText(t, s, "short", `{}`); !isErr || !strings.Contains(text, "100ms") {
		t.Errorf("short: want a failure naming the tool's 100ms, got %v %q", isErr, text)
	}
}

// TestToolTimeoutIsTheDeadlineShell: the same for a command whose backend
// stops commands sooner than the tool allows.
func TestToolTimeoutIsTheDeadlineShell(t *testing.T) {
	tbl := compileTable(t, `
backend "shell" "quick" {
  timeout = "100ms"
}
tool "nap" {
  description = "Sleeps a little."
  timeout     = "2s"
  shell {
    backend = "quick"
    command = ["sleep", "0.3"]
  }
}
tool "nap_default" {
  description = "Sleeps a little, under the backend's timeout."
  shell {
    backend = "quick"
    command = ["sleep", "0.3"]
  }
}
`, all.Registry(), table.Options{})
	s := New(tbl, nil)
	if isErr, text := callText(t, s, "nap", `{}`); isErr {
		t.Errorf("nap: a 300ms command under a 2s tool timeout failed: %s", text)
	}
	if isErr, text := callText(t, s, "nap_default", `{}`); !isErr || !strings.Contains(text, "100ms") {
		t.Errorf("nap_default: want a failure naming the backend's 100ms, got %v %q", isErr, text)
	}
}

// TestToolTimeoutIsTheDeadlineSQL: the same for a statement, on the
// databases that enforce statement_timeout on their side too.
func TestToolTimeoutIsTheDeadlineSQL(t *testing.T) {
	for _, db := range []struct{ driver, env, sleep string }{
		{"postgres", "MCPDECL_TEST_POSTGRES_DSN", "SELECT 1 AS ok FROM pg_sleep(0.3)"},
		{"mysql", "MCPDECL_TEST_MYSQL_DSN", "SELECT SLEEP(0.3) AS ok"},
	} {
		t.Run(db.driver, func(t *testing.T) {
			dsn := testenv.Need(t, db.env)
			tbl := compileTable(t, `
backend "sql" "db" {
  driver            = "`+db.driver+`"
  dsn               = "`+dsn+`"
  statement_timeout = "100ms"
}
tool "slow" {
  description = "A slow query under a longer tool timeout."
  timeout     = "2s"
  sql "db" {
    query = "`+db.sleep+`"
  }
  result {
    text = "string(rows[0].ok)"
  }
}
tool "slow_default" {
  description = "A slow query under the backend's statement timeout."
  sql "db" {
    query = "`+db.sleep+`"
  }
}
`, all.Registry(), table.Options{})
			s, err := Open(context.Background(), tbl, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(s.Close)
			if isErr, text := callText(t, s, "slow", `{}`); isErr {
				t.Errorf("slow: a 300ms statement under a 2s tool timeout failed: %s", text)
			}
			if isErr, text := callText(t, s, "slow_default", `{}`); !isErr || !strings.Contains(text, "100ms") {
				if db.driver == "mysql" && !isErr {
					return // MySQL's SLEEP answers 1 when interrupted instead of failing
				}
				t.Errorf("slow_default: want a failure naming the 100ms statement timeout, got %v %q", isErr, text)
			}
		})
	}
}
