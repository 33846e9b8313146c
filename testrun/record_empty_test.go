package testrun

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpdecl/mcpdecl/table"
)

// TestRecordWritesOnlyWhatWasSent: with --record, a test that sends no
// HTTP request gets no fixture file, and a test's fixture holds only the
// backends it sent requests to, never a null list for the others.
func TestRecordWritesOnlyWhatWasSent(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"greeting":"hello"}`))
	}))
	defer srv.Close()
	config := `
server {
  name    = "rec"
  version = "1.0.0"
}
backend "http" "api" {
  base_url = "` + srv.URL + `"
}
backend "http" "other" {
  base_url = "` + srv.URL + `/other"
}
backend "sql" "db" {
  driver = "sqlite"
  dsn    = "file:rec.db"
}
tool "hello" {
  description = "Says hello through the API."
  http "api" {
    path = "/hello"
  }
  result {
    text = "body.greeting"
  }
}
tool "count" {
  description = "Counts to one in the database."
  sql "db" {
    query = "SELECT 1 AS n"
  }
  result {
    text = "rows[0].n"
  }
}
`
	tests := `
test "through the api" {
  call = tool.hello
  expect {
    text = { equals = "hello" }
  }
}
test "only sql" {
  call = tool.count
  expect {
    text = { equals = "1" }
  }
}
`
	dir := write(t, map[string]string{"rec.hcl": config, "rec_test.hcl": tests})
	results := runSuite(t, filepath.Join(dir, "rec.hcl"), Options{Compile: table.Options{}, Record: true})
	for _, r := range results {
		if r.Status != Passed {
			t.Fatalf("%s: %s", r.Case.Name, r.Problems)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "testdata", "rec_test", "only-sql.json")); !os.IsNotExist(err) {
		raw, _ := os.ReadFile(filepath.Join(dir, "testdata", "rec_test", "only-sql.json"))
		t.Errorf("a test that sent no HTTP request got a fixture (%v):\n%s", err, raw)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "testdata", "rec_test", "through-the-api.json"))
	if err != nil {
		t.Fatalf("no fixture for the test that sent a request: %v", err)
	}
	var rec struct {
		Backends map[string]json.RawMessage `json:"backends"`
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		t.Fatal(err)
	}
	if len(rec.Backends) != 1 || rec.Backends["api"] == nil {
		t.Errorf("the fixture should hold the backend api only:\n%s", raw)
	}
	// The recording replays offline.
	srv.Close()
	for _, r := range runSuite(t, filepath.Join(dir, "rec.hcl"), Options{Compile: table.Options{}}) {
		if r.Status != Passed {
			t.Errorf("replay of %s: %s", r.Case.Name, r.Problems)
		}
	}
}
