package server_test

import (
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
)

// plantsConfig has a template and a resource whose error rules turn
// answers down, and a template whose command fails with no rule.
func plantsConfig(db string) string {
	return `
backend "sql" "db" {
  driver = "sqlite"
  dsn    = "file:` + db + `?mode=rwc"
}
resource_template "care" {
  uri_template = "plants://{id}/care"
  arg "id" {
    type = integer
  }
  sql "db" {
    query = "SELECT 'Water weekly.' AS guide WHERE ${args.id} < 100"
  }
  error {
    when    = "len(rows) == 0"
    message = "There is no care guide for plant {{ args.id }}."
  }
  result {
    text = "rows[0].guide"
  }
}
resource "status" {
  uri = "plants://status"
  sql "db" {
    query = "SELECT 1 AS up WHERE 1 = 0"
  }
  result {
    is_error = "len(rows) == 0"
    text     = "'No status has been recorded yet.'"
  }
}
resource_template "broken" {
  uri_template = "plants://{id}/broken"
  shell {
    command = ["false"]
  }
}
`
}

// stdioExchange serves s over a pipe as a 2025-11-25 session and returns
// a function sending one request and returning its answer.
func stdioExchange(t *testing.T, s *server.Server) func(body string) json.RawMessage {
	t.Helper()
	proto := mcp.NewServer(s, nil)
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() { _ = proto.ServeStdio(ctx, inR, outW); outW.Close() }()
	t.Cleanup(func() { inW.Close(); cancel() })
	lines := readLines(outR)
	send := func(body string) json.RawMessage {
		t.Helper()
		if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","id":1,`+body+"}\n"); err != nil {
			t.Fatal(err)
		}
		select {
		case line := <-lines:
			return line
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer to %s", body)
			return nil
		}
	}
	send(`"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}`)
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	return send
}

type rpcError struct {
	Code    int
	Message string
	Data    struct{ URI string }
}

func errorOf(t *testing.T, answer json.RawMessage) *rpcError {
	t.Helper()
	var m struct{ Error *rpcError }
	if err := json.Unmarshal(answer, &m); err != nil {
		t.Fatalf("%s: %v", answer, err)
	}
	return m.Error
}

// TestHostileResourceErrorRules: an error rule (or is_error) of a
// resource or template that holds is "resource not found" with the
// rule's message, in the code each revision specifies (-32002 for 2025,
// -32602 for 2026-07-28), never an internal error. A failure of the call
// that no rule catches stays a server error.
func TestHostileResourceErrorRules(t *testing.T) {
	db := filepath.Join(t.TempDir(), "plants.db")
	cfg, diags := lang.LoadSource("plants.hcl", []byte(plantsConfig(db)))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	s, err := server.Open(context.Background(), tbl, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	send := stdioExchange(t, s)
	read := func(uri string, modern bool) json.RawMessage {
		meta := ""
		if modern {
			meta = "," + modernMeta
		}
		return send(`"method":"resources/read","params":{"uri":"` + uri + `"` + meta + `}`)
	}

	if e := errorOf(t, read("plants://7/care", false)); e != nil {
		t.Fatalf("plant 7 has a guide, got error %+v", e)
	}
	for _, c := range []struct {
		uri, msg string
	}{
		{"plants://999/care", "There is no care guide for plant 999."},
		{"plants://status", "No status has been recorded yet."},
	} {
		for _, era := range []struct {
			modern bool
			code   int
		}{{false, mcp.CodeResourceNotFound}, {true, mcp.CodeInvalidParams}} {
			e := errorOf(t, read(c.uri, era.modern))
			if e == nil || e.Code != era.code || e.Message != c.msg || e.Data.URI != c.uri {
				t.Errorf("%s (modern %v): got %+v, want code %d, message %q, data.uri", c.uri, era.modern, e, era.code, c.msg)
			}
		}
	}
	if e := errorOf(t, read("plants://1/broken", false)); e == nil || e.Code != mcp.CodeInternalError {
		t.Errorf("a failing command with no rule: got %+v, want -32603", e)
	}
}

// TestHostileSubscribeUnknownURI: resources/subscribe is accepted for a
// resource's URI and a URI a template matches, and refused with "resource
// not found" for anything else.
func TestHostileSubscribeUnknownURI(t *testing.T) {
	db := filepath.Join(t.TempDir(), "plants.db")
	cfg, diags := lang.LoadSource("plants.hcl", []byte(plantsConfig(db)))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	send := stdioExchange(t, server.New(tbl, nil))
	for uri, known := range map[string]bool{
		"plants://status":   true,
		"plants://12/care":  true,
		"plants://nothing":  false,
		"file:///etc/hosts": false,
	} {
		e := errorOf(t, send(`"method":"resources/subscribe","params":{"uri":"`+uri+`"}`))
		switch {
		case known && e != nil:
			t.Errorf("subscribe %s: refused with %+v", uri, e)
		case !known && (e == nil || e.Code != mcp.CodeResourceNotFound || e.Data.URI != uri):
			t.Errorf("subscribe %s: got %+v, want -32002 with data.uri", uri, e)
		}
	}
	if e := errorOf(t, send(`"method":"resources/unsubscribe","params":{"uri":"plants://nothing"}`)); e != nil {
		t.Errorf("unsubscribe of an unknown URI: %+v, want it accepted (nothing to undo)", e)
	}
}

// TestListenLeavesOutUnknownURIs: a 2026-07-28 listen honours
// resourceSubscriptions only for URIs something serves; the
// acknowledgment says which.
func TestListenLeavesOutUnknownURIs(t *testing.T) {
	db := filepath.Join(t.TempDir(), "plants.db")
	cfg, diags := lang.LoadSource("plants.hcl", []byte(plantsConfig(db)))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	send := stdioExchange(t, server.New(tbl, nil))
	ack := send(`"method":"subscriptions/listen","params":{"notifications":{"resourceSubscriptions":["plants://status","plants://nothing","plants://3/care"]},` + modernMeta + `}`)
	var m struct {
		Method string
		Params struct {
			Notifications struct{ ResourceSubscriptions []string }
		}
	}
	if err := json.Unmarshal(ack, &m); err != nil {
		t.Fatal(err)
	}
	got := m.Params.Notifications.ResourceSubscriptions
	if m.Method != "notifications/subscriptions/acknowledged" || len(got) != 2 || got[0] != "plants://status" || got[1] != "plants://3/care" {
		t.Errorf("acknowledgment %s: want plants://status and plants://3/care honoured, plants://nothing left out", ack)
	}
}
