package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/table"
)

// closedPort returns a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// TestSensitiveValuesStayOut: a sensitive variable (an API key sent in
// the query) and a sensitive argument (a token in the path, and quoted by
// a validation message) reach the backend, but never the server's log nor
// the messages the model gets.
func TestSensitiveValuesStayOut(t *testing.T) {
	const key, token = "KEY-4f9a-secret", "tok-81c2-secret"
	tbl := compileTable(t, `
variable "api_key" {
  type      = string
  sensitive = true
}
backend "http" "api" {
  base_url = "http://`+closedPort(t)+`"
}
tool "lookup" {
  description = "Looks up."
  arg "token" {
    type      = string
    sensitive = true
    validation {
      condition     = can(regex("^tok-", args.token))
      error_message = "The token ${args.token} is not a token (nor ${var.api_key})."
    }
  }
  http "api" {
    path  = "/lookup/${args.token}"
    query = { key = var.api_key }
  }
}
tool "parse" {
  description = "Parses, and fails at run time quoting the value."
  arg "token" {
    type      = string
    sensitive = true
  }
  result {
    text = "string(int(args.token))"
  }
}`, all.Registry(), table.Options{Vars: map[string]string{"api_key": key}, LookupEnv: func(string) (string, bool) { return "", false }})
	var log bytes.Buffer
	var callNamed func(tool, args string) string
	s := New(tbl, &Options{Logger: slog.New(slog.NewJSONHandler(&log, nil))})
	call := func(args string) string { return callNamed("lookup", args) }
	callNamed = func(tool, args string) string {
		res, err := s.CallTool(context.Background(), &mcp.Request{Method: "tools/call", Era: mcp.EraLegacy},
			&mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatal(err)
		}
		if !res.IsError {
			t.Fatalf("%s: want an error result, got %+v", args, res)
		}
		return res.Content[0].Text
	}
	refused := call(`{"token":"` + token + `"}`)
	failed := callNamed("parse", `{"token":"`+token+`"}`)
	short := call(`{"token":"ab"}`)
	if !strings.Contains(short, "The token ab is not a token") {
		// Too short to be redacted: shorter values would match ordinary text.
		t.Errorf("validation message: %q", short)
	}
	quoted := call(`{"token":"abcd-1"}`)
	if strings.Contains(quoted, "abcd-1") || !strings.Contains(quoted, "The token [redacted] is not a token (nor [redacted])") {
		t.Errorf("validation message quotes the sensitive argument: %q", quoted)
	}
	if log.Len() == 0 {
		t.Fatal("nothing was logged; the test would prove nothing")
	}
	for what, text := range map[string]string{"refused call": refused, "failed mapping": failed, "validation": quoted, "log": log.String()} {
		for _, secret := range []string{key, token} {
			if strings.Contains(text, secret) {
				t.Errorf("%s holds the sensitive value %q:\n%s", what, secret, text)
			}
		}
	}
	if !strings.Contains(log.String(), redacted) {
		t.Errorf("the log does not show where a sensitive value was: %s", log.String())
	}
	if schema := tbl.Tools[0].Args.Schema["properties"].(map[string]any)["token"].(map[string]any); schema["writeOnly"] != true {
		t.Errorf("the sensitive argument's schema lacks writeOnly: %v", schema)
	}
}

// TestSensitiveVariableNotInDiagnostics: a bad value given for a
// sensitive variable is reported without the value.
func TestSensitiveVariableNotInDiagnostics(t *testing.T) {
	cfg, diags := lang.LoadSource("v.hcl", []byte(`
variable "pin" {
  type      = number
  sensitive = true
}
tool "t" {
  description = "T."
  result {
    text = "'x'"
  }
}`))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	_, diags = table.Compile(cfg, all.Registry(), table.Options{Vars: map[string]string{"pin": "secret-pin-value"}})
	if !diags.HasErrors() || strings.Contains(diags.Error(), "secret-pin-value") || !strings.Contains(diags.Error(), "not shown") {
		t.Errorf("diagnostics: %v", diags)
	}
}

// redacted stands where a sensitive value would have been written.
const redacted = rule.Redacted

// TestRedactingHandler: the log handler replaces the server's secrets and
// the call's in the message, strings, errors and groups.
func TestRedactingHandler(t *testing.T) {
	var out bytes.Buffer
	h := redactingHandler{inner: slog.NewTextHandler(&out, nil), secrets: func() []string { return []string{"global-secret"} }}
	log := slog.New(h).With("fixed", "with global-secret")
	ctx := dispatch.WithCallSecrets(context.Background(), []string{"call-secret"})
	log.ErrorContext(ctx, "failed for call-secret", "error", errors.New("dial global-secret: refused"),
		slog.Group("g", "inner", "call-secret"), "n", 42, "list", []string{"global-secret"})
	got := out.String()
	if strings.Contains(got, "secret") {
		t.Errorf("a secret reached the log: %s", got)
	}
	for _, want := range []string{`msg="failed for [redacted]"`, `fixed="with [redacted]"`, `error="dial [redacted]: refused"`, `g.inner=[redacted]`, "n=42", "list=[[redacted]]"} {
		if !strings.Contains(got, want) {
			t.Errorf("log lacks %s: %s", want, got)
		}
	}
}

// TestSensitiveVariablesNotInAnswers: a sensitive variable is the
// server's own secret, so it is replaced in answers too: text written by
// the config, structured content from a backend, resource text.
func TestSensitiveVariablesNotInAnswers(t *testing.T) {
	const key = "KEY-77aa-secret"
	tbl := compileTable(t, `
variable "api_key" {
  sensitive = true
}
tool "show" {
  description = "Shows."
  content "text" {
    text = "the key is ${var.api_key}"
  }
  result {
    text = "'done'"
  }
}
resource "note" {
  uri  = "note://key"
  name = "note"
  text = "key=${var.api_key}"
}`, all.Registry(), table.Options{Vars: map[string]string{"api_key": key}, LookupEnv: func(string) (string, bool) { return "", false }})
	s := New(tbl, nil)
	res := callTool(t, s, "show", `{}`)
	read, err := s.ReadResource(context.Background(), &mcp.Request{Method: "resources/read"}, &mcp.ReadResourceParams{URI: "note://key"})
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintf("%+v %+v", res.Content, read.Contents)
	if strings.Contains(got, key) || strings.Count(got, redacted) != 2 {
		t.Errorf("answers: %s", got)
	}
}

// TestDebugLogsEachCall: at debug level every call leaves a line (what
// was called, how long it took, how it ended), redacted like the rest.
func TestDebugLogsEachCall(t *testing.T) {
	var log bytes.Buffer
	tbl := compileTable(t, `
backend "http" "api" {
  base_url = "http://`+closedPort(t)+`"
}
tool "ping" {
  description = "Pings."
  http "api" {
    path = "/ping"
  }
}`, all.Registry(), table.Options{})
	s := New(tbl, &Options{Logger: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	callTool(t, s, "ping", `{}`)
	if got := log.String(); !strings.Contains(got, `level=DEBUG msg="backend call" target="tool ping" outcome=error`) || !strings.Contains(got, "error=\"The API refused") ||
		!strings.Contains(got, "cause=\"127.0.0.1:") || !strings.Contains(got, `level=DEBUG msg=call kind=tool name=ping outcome=tool_error duration_ms=`) {
		t.Errorf("debug log: %s", got)
	}
}

// logCapture records the log notifications of a call.
type logCapture struct {
	nopNotifier
	lines []string
}

func (n *logCapture) Log(_ context.Context, level, logger string, data any) error {
	n.lines = append(n.lines, fmt.Sprint(data))
	return nil
}

// TestSensitiveNotInNotifications: what a command writes to stderr
// reaches the client as log notifications, redacted too.
func TestSensitiveNotInNotifications(t *testing.T) {
	const secret = "Notif-9c1e-secret"
	tbl := compileTable(t, `
variable "tok" {
  sensitive = true
}
tool "leak" {
  description = "Writes the token to stderr."
  arg "code" {
    type      = string
    sensitive = true
  }
  shell {
    command = ["sh", "-c", "echo \"err $0 $1\" >&2", var.tok, args.code]
  }
}`, all.Registry(), table.Options{Vars: map[string]string{"tok": secret}, LookupEnv: func(string) (string, bool) { return "", false }})
	s := New(tbl, nil)
	n := &logCapture{}
	res, err := s.CallTool(context.Background(), &mcp.Request{Method: "tools/call", Era: mcp.EraLegacy, Notifier: n},
		&mcp.CallToolParams{Name: "leak", Arguments: json.RawMessage(`{"code":"code-5521"}`)})
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(n.lines, res.Content)
	if len(n.lines) == 0 || strings.Contains(got, secret) || strings.Contains(got, "code-5521") || !strings.Contains(got, "err [redacted] [redacted]") {
		t.Errorf("notifications %q, result %+v", n.lines, res.Content)
	}
}
