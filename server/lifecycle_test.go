package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"weak"

	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
)

// generationConfig is a configuration on an SQLite database whose answers
// name the generation they come from. "confirmed" asks the user before
// its query, which holds the call in flight for as long as the test wants.
func generationConfig(db, gen string) string {
	return `
backend "sql" "db" {
  driver = "sqlite"
  dsn    = "file:` + db + `?mode=rwc"
}
tool "probe" {
  description = "Answers the generation."
  sql "db" {
    query = "SELECT '` + gen + `' AS gen"
  }
  result {
    text = "rows[0].gen"
  }
}
tool "confirmed" {
  description = "Asks, then answers the generation."
  elicit {
    message          = "Go on?"
    requested_schema = { type = "object", properties = {} }
  }
  sql "db" {
    query = "SELECT '` + gen + `' AS gen"
  }
  result {
    text = "rows[0].gen"
  }
}
`
}

func compileGeneration(t *testing.T, db, gen string) *table.Table {
	t.Helper()
	cfg, diags := lang.LoadSource("gen.hcl", []byte(generationConfig(db, gen)))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return tbl
}

// backendOpen runs a table's probe action directly: it works while the
// table's SQLite backend is open and fails once it is closed.
func backendOpen(t *testing.T, tbl *table.Table) bool {
	t.Helper()
	for _, tool := range tbl.Tools {
		if tool.Name == "probe" {
			_, err := tool.Action.Invoke(context.Background(), &adapter.Request{Args: cty.EmptyObjectVal, Static: tbl.Static})
			return err == nil
		}
	}
	t.Fatal("no probe tool")
	return false
}

// heldNotifier answers elicitation like a legacy client, but only once
// the test lets it.
type heldNotifier struct {
	asked, proceed chan struct{}
}

func (heldNotifier) Progress(context.Context, float64, float64, string) error { return nil }
func (heldNotifier) Log(context.Context, string, string, any) error           { return nil }
func (n heldNotifier) Request(ctx context.Context, method string, _ any) (json.RawMessage, error) {
	if method != "elicitation/create" {
		return nil, errors.New("unexpected " + method)
	}
	close(n.asked)
	<-n.proceed
	return json.RawMessage(`{"action":"accept","content":{}}`), nil
}

func callGen(t *testing.T, s *server.Server, name string, n mcp.Notifier) string {
	t.Helper()
	res, err := s.CallTool(context.Background(), &mcp.Request{Method: "tools/call", Era: mcp.EraLegacy, Notifier: n},
		&mcp.CallToolParams{Name: name, Arguments: json.RawMessage(`{}`)})
	if err != nil {
		t.Error(err)
		return ""
	}
	if res.IsError {
		t.Errorf("%s failed: %+v", name, res.Content)
	}
	var text strings.Builder
	for _, c := range res.Content {
		text.WriteString(c.Text)
	}
	return text.String()
}

// TestReloadClosesAfterLastCall: a call that started before a reload
// finishes on the table and backend it started with, which stay open
// until it ends and are closed right after.
func TestReloadClosesAfterLastCall(t *testing.T) {
	db := filepath.Join(t.TempDir(), "gen.db")
	one, two := compileGeneration(t, db, "one"), compileGeneration(t, db, "two")
	s, err := server.Open(context.Background(), one, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)

	n := heldNotifier{asked: make(chan struct{}), proceed: make(chan struct{})}
	answer := make(chan string, 1)
	go func() { answer <- callGen(t, s, "confirmed", n) }()
	<-n.asked

	if _, _, err := s.Reload(context.Background(), two); err != nil {
		t.Fatal(err)
	}
	if got := callGen(t, s, "probe", nil); got != "two" {
		t.Errorf("a call after the reload answered %q, want two", got)
	}
	if !backendOpen(t, one) {
		t.Fatal("the previous backend was closed under a call in flight")
	}
	close(n.proceed)
	if got := <-answer; got != "one" {
		t.Errorf("the call in flight answered %q, want one (its own generation)", got)
	}
	if backendOpen(t, one) {
		t.Error("the previous backend is still open after its last call ended")
	}
	if !backendOpen(t, two) {
		t.Error("the current backend was closed")
	}
}

// TestReloadClosesIdleGenerationAtOnce: with no call in flight, the
// previous backends are closed by the reload itself; Close closes the
// current ones.
func TestReloadClosesIdleGenerationAtOnce(t *testing.T) {
	db := filepath.Join(t.TempDir(), "gen.db")
	one, two := compileGeneration(t, db, "one"), compileGeneration(t, db, "two")
	s, err := server.Open(context.Background(), one, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := callGen(t, s, "probe", nil); got != "one" {
		t.Errorf("probe answered %q, want one", got)
	}
	if _, _, err := s.Reload(context.Background(), two); err != nil {
		t.Fatal(err)
	}
	if backendOpen(t, one) {
		t.Error("the previous backend is still open after a reload with no call in flight")
	}
	s.Close()
	if backendOpen(t, two) {
		t.Error("Close left the current backend open")
	}
	if _, _, err := s.Reload(context.Background(), compileGeneration(t, db, "three")); err == nil {
		t.Error("Reload after Close was accepted")
	}
}

// TestReloadFailureKeepsServing: a table whose backend cannot be opened
// is not swapped in, and the current one keeps serving.
func TestReloadFailureKeepsServing(t *testing.T) {
	dir := t.TempDir()
	one := compileGeneration(t, filepath.Join(dir, "gen.db"), "one")
	s, err := server.Open(context.Background(), one, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	broken := compileGeneration(t, filepath.Join(dir, "missing", "gen.db"), "two")
	if _, _, err := s.Reload(context.Background(), broken); err == nil || !strings.Contains(err.Error(), `"db"`) {
		t.Errorf("Reload of an unopenable table: err = %v, want one naming the backend", err)
	}
	if got := callGen(t, s, "probe", nil); got != "one" {
		t.Errorf("after a failed reload probe answered %q, want one", got)
	}
}

// TestReloadLeavesNothingOfPreviousTable: once a reload has replaced a
// table and its calls have ended, nothing keeps it reachable, through the
// protocol layer included: the next collection frees it.
func TestReloadLeavesNothingOfPreviousTable(t *testing.T) {
	db := filepath.Join(t.TempDir(), "gen.db")
	s, proto, first := servedGeneration(t, db)
	ts := httptest.NewServer(proto.HTTPHandler(nil))
	t.Cleanup(ts.Close)
	call := func(want string) {
		t.Helper()
		resp, err := ts.Client().Do(modernRequest(t, ts.URL, "1", "tools/call", "probe", `"name":"probe","arguments":{}`))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(body), `"text":"`+want+`"`) {
			t.Fatalf("probe answered %s, want %s", body, want)
		}
	}
	call("first")
	for _, gen := range []string{"a", "b", "c"} {
		if _, _, err := s.Reload(context.Background(), compileGeneration(t, db, gen)); err != nil {
			t.Fatal(err)
		}
		call(gen)
	}
	deadline := time.Now().Add(5 * time.Second)
	for first.Value() != nil && time.Now().Before(deadline) {
		runtime.GC()
	}
	if first.Value() != nil {
		t.Fatal("the first table is still reachable after three reloads")
	}
}

// servedGeneration serves a first table and returns only a weak pointer
// to it, so the test itself holds no reference.
func servedGeneration(t *testing.T, db string) (*server.Server, *mcp.Server, weak.Pointer[table.Table]) {
	tbl := compileGeneration(t, db, "first")
	s, err := server.Open(context.Background(), tbl, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, mcp.NewServer(s, nil), weak.Make(tbl)
}
