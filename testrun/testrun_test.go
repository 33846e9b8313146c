package testrun

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/internal/largecfg"
	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/table"
)

// write creates files (name → content) in a new directory.
func write(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runSuite prepares the configuration at path and runs its tests.
func runSuite(t *testing.T, path string, opts Options) []*Result {
	t.Helper()
	suites, err := Discover([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	var preps []*Prepared
	for _, s := range suites {
		p, diags := Prepare(s, opts.Compile)
		if diags.HasErrors() {
			t.Fatalf("prepare %s: %s", s.Name, diags.Error())
		}
		preps = append(preps, p)
	}
	if opts.Parallel == 0 {
		opts.Parallel = 2
	}
	return RunAll(context.Background(), preps, nil, opts)
}

func statuses(results []*Result) map[string]Status {
	out := map[string]Status{}
	for _, r := range results {
		out[r.Case.Name] = r.Status
	}
	return out
}

const apiConfig = `
server {
  name    = "api"
  version = "1.0.0"
}

variable "base" {
  type = string
}

variable "token" {
  type      = string
  sensitive = true
}

variable "key" {
  type      = string
  sensitive = true
}

backend "http" "api" {
  base_url = var.base
  headers  = { Authorization = "Bearer ${var.token}", X-Api-Key = var.key }
}

tool "whoami" {
  description = "Who the API thinks we are."
  arg "name" {
    type = string
  }
  http "api" {
    path  = "/whoami"
    query = { name = args.name, access_token = var.token }
  }
  result {
    text = "body.greeting"
  }
}
`

const apiTests = `
test "whoami" {
  call = tool.whoami
  args = { name = "ann" }
  expect {
    text = { contains = "hello ann" }
  }
}
`

// TestRecordScrubsSecrets records a test against a real server on
// 127.0.0.1 that echoes the credentials it got, then replays the
// recording with the server gone. No credential reaches the fixture file.
func TestRecordScrubsSecrets(t *testing.T) {
	const token, key, cookie = "tok-SECRET-1234567", "key-SECRET-7654321", "session-SECRET-abcdef"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: cookie})
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"greeting": "hello " + r.URL.Query().Get("name"),
			"echo":     r.Header.Get("Authorization") + " " + r.Header.Get("X-Api-Key") + " " + r.URL.RawQuery,
		})
	}))
	dir := write(t, map[string]string{"api.hcl": apiConfig, "api_test.hcl": apiTests})
	vars := map[string]string{"base": srv.URL + "/v1", "token": token, "key": key}
	opts := Options{Compile: table.Options{Vars: vars}, Record: true}

	results := runSuite(t, filepath.Join(dir, "api.hcl"), opts)
	if len(results) != 1 || results[0].Status != Passed {
		t.Fatalf("recording run: %+v", results[0])
	}
	fixture := filepath.Join(dir, "testdata", "api_test", "whoami.json")
	raw, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatalf("no fixture written: %v", err)
	}
	for _, secret := range []string{token, key, cookie} {
		if strings.Contains(string(raw), secret) {
			t.Errorf("the fixture holds the secret %q:\n%s", secret, raw)
		}
	}
	for _, want := range []string{`"url": "/whoami?access_token=%5Bredacted%5D&name=ann"`, `"Authorization": "` + rule.Redacted + `"`, `"Set-Cookie": "` + rule.Redacted + `"`, "hello ann"} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("the fixture lacks %q:\n%s", want, raw)
		}
	}

	srv.Close() // the replay must not need the server
	opts.Record = false
	results = runSuite(t, filepath.Join(dir, "api.hcl"), opts)
	if results[0].Status != Passed {
		t.Fatalf("replay: %s", results[0].Problems)
	}

	// A request the recording does not hold fails the test, naming it.
	tests := strings.Replace(apiTests, `name = "ann"`, `name = "bob"`, 1)
	if err := os.WriteFile(filepath.Join(dir, "api_test.hcl"), []byte(tests), 0o644); err != nil {
		t.Fatal(err)
	}
	results = runSuite(t, filepath.Join(dir, "api.hcl"), opts)
	if results[0].Status != Failed || !strings.Contains(results[0].Problems[0], "GET /whoami?access_token=%5Bredacted%5D&name=bob, which its recording does not hold") {
		t.Fatalf("replay of another request: %s", results[0].Problems)
	}
}

const mockConfig = `
server {
  name    = "m"
  version = "1.0.0"
}

backend "http" "api" {
  base_url = "http://127.0.0.1:9/base"
}

tool "add" {
  description = "Add an item."
  arg "title" {
    type = string
  }
  http "api" {
    method  = "POST"
    path    = "/items"
    headers = { X-Trace = "t1" }
    body    = { title = args.title, done = false }
  }
  result {
    text = "'id ' + string(body.id)"
  }
}
`

// TestMocksMatchEveryPart checks that a mock answers only a request with
// its method, path (after the base path), headers and JSON body.
func TestMocksMatchEveryPart(t *testing.T) {
	mock := func(method, path, header, title string) string {
		return `
test "add ` + method + path + header + title + `" {
  call = tool.add
  args = { title = "milk" }
  mock "api" {
    request {
      method  = "` + method + `"
      path    = "` + path + `"
      headers = { X-Trace = "` + header + `" }
      json    = { title = "` + title + `", done = false }
    }
    response {
      status = 201
      json   = { id = 3 }
    }
  }
  expect {
    text = "id 3"
  }
}
`
	}
	tests := mock("POST", "/items", "t1", "milk") + mock("PUT", "/items", "t1", "milk") +
		mock("POST", "/item", "t1", "milk") + mock("POST", "/items", "t2", "milk") + mock("POST", "/items", "t1", "eggs")
	dir := write(t, map[string]string{"m.hcl": mockConfig, "m_test.hcl": tests})
	got := statuses(runSuite(t, filepath.Join(dir, "m.hcl"), Options{}))
	want := map[string]Status{
		"add POST/itemst1milk": Passed, "add PUT/itemst1milk": Failed, "add POST/itemt1milk": Failed,
		"add POST/itemst2milk": Failed, "add POST/itemst1eggs": Failed,
	}
	for name, st := range want {
		if got[name] != st {
			t.Errorf("%s: %s, want %s", name, got[name], st)
		}
	}
}

const sqliteConfig = `
server {
  name    = "s"
  version = "1.0.0"
}

backend "sql" "db" {
  driver    = "sqlite"
  dsn       = "file:data/s.db"
  init_sql  = "init.sql"
  read_only = false
}

tool "add" {
  description = "Add a row."
  arg "n" {
    type = integer
  }
  sql "db" {
    read_only = false
    query     = "INSERT INTO t (n) VALUES (${args.n})"
  }
}

tool "count" {
  description = "Count rows."
  sql "db" {
    query = "SELECT count(*) AS n FROM t"
  }
  result {
    text = "string(rows[0].n)"
  }
}
`

// TestSQLiteFreshPerTest checks that each test gets its own database from
// init_sql (a write in one test is not seen by another), that a test's
// sqlite block replaces it, and that the configured file is not touched.
func TestSQLiteFreshPerTest(t *testing.T) {
	tests := `
test "write" {
  call = tool.add
  args = { n = 1 }
}
test "count" {
  call = tool.count
  expect {
    text = "2"
  }
}
test "count from fixture" {
  call = tool.count
  sqlite "db" {
    init_sql = "fixtures/five.sql"
  }
  expect {
    text = "5"
  }
}
`
	dir := write(t, map[string]string{
		"s.hcl": sqliteConfig, "s_test.hcl": tests,
		"init.sql":          "CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1), (2);",
		"fixtures/five.sql": "CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1), (2), (3), (4), (5);",
	})
	for range 3 { // the write never reaches a later run or another test
		for name, st := range statuses(runSuite(t, filepath.Join(dir, "s.hcl"), Options{Parallel: 3})) {
			if st != Passed {
				t.Errorf("%s: %s", name, st)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "data")); err == nil {
		t.Error("the configured database was created")
	}
}

// TestUnmatchedRequestFails checks that a request no mock answers fails
// the test even when its expectation (an error result) holds.
func TestUnmatchedRequestFails(t *testing.T) {
	tests := `
test "refused" {
  call = tool.add
  args = { title = "milk" }
  mock "api" {
    request {
      method = "GET"
    }
    response {
      status = 500
    }
  }
  expect {
    is_error = true
  }
}
`
	dir := write(t, map[string]string{"m.hcl": mockConfig, "m_test.hcl": tests})
	r := runSuite(t, filepath.Join(dir, "m.hcl"), Options{})[0]
	if r.Status != Failed || !strings.Contains(strings.Join(r.Problems, "\n"), `backend "api" got POST /items, which no mock matches`) {
		t.Fatalf("got %s %q", r.Status, r.Problems)
	}
}

func TestParsePath(t *testing.T) {
	for path, want := range map[string]string{
		"":               "[]",
		"items[0].title": `["items",0,"title"]`,
		"[2]":            "[2]",
		"a.b.c":          `["a","b","c"]`,
		"m[1][0]":        `["m",1,0]`,
	} {
		steps, problem := parsePath(path)
		if problem != "" {
			t.Errorf("%q: %s", path, problem)
			continue
		}
		if steps == nil {
			steps = []any{}
		}
		got, _ := json.Marshal(steps)
		if string(got) != want {
			t.Errorf("%q: %s, want %s", path, got, want)
		}
	}
	for _, bad := range []string{"a[", "a[x]", "a..b", "a[-1]"} {
		if _, problem := parsePath(bad); problem == "" {
			t.Errorf("%q: accepted", bad)
		}
	}
}

func TestSameJSON(t *testing.T) {
	same := [][2]string{{`1`, `1.0`}, {`{"a":[1,"x"]}`, `{"a":[1.00,"x"]}`}, {`null`, `null`}}
	differ := [][2]string{{`1`, `2`}, {`"1"`, `1`}, {`{"a":1}`, `{"a":1,"b":2}`}, {`[1]`, `[1,1]`}}
	for _, p := range same {
		if !sameJSON(decodeJSON([]byte(p[0])), decodeJSON([]byte(p[1]))) {
			t.Errorf("%s and %s differ", p[0], p[1])
		}
	}
	for _, p := range differ {
		if sameJSON(decodeJSON([]byte(p[0])), decodeJSON([]byte(p[1]))) {
			t.Errorf("%s and %s are the same", p[0], p[1])
		}
	}
}

const tinyConfig = `
server {
  name    = "%s"
  version = "1.0.0"
}

resource "r" {
  uri  = "t://r"
  text = "r"
}
`

func tiny(name string) string { return strings.Replace(tinyConfig, "%s", name, 1) }

// TestDiscover checks which files make up each suite.
func TestDiscover(t *testing.T) {
	test := "test \"t\" {\n  resource = \"t://r\"\n}\n"
	one := write(t, map[string]string{"a.hcl": tiny("a"), "b.hcl": "# more of a\n", "a_test.hcl": test, "b_test.hcl": test})
	many := write(t, map[string]string{"a.hcl": tiny("a"), "b.hcl": tiny("b"), "a_test.hcl": test})
	names := func(s *Suite) string {
		var out []string
		for _, p := range s.Paths {
			out = append(out, filepath.Base(p))
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct {
		path string
		want []string
	}{
		{one, []string{filepath.Base(one)}},
		{filepath.Join(one, "a.hcl"), []string{"a.hcl a_test.hcl"}},
		{filepath.Join(one, "b_test.hcl"), []string{"b.hcl b_test.hcl"}},
		{many, []string{"a.hcl a_test.hcl", "b.hcl"}},
	} {
		suites, err := Discover([]string{tc.path, tc.path})
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		var got []string
		for _, s := range suites {
			got = append(got, names(s))
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: suites %q, want %q", tc.path, got, tc.want)
		}
	}
	// A big file (an imported API) is told to declare a server from its
	// blocks but the tools (declaresServer), with and without one.
	var big bytes.Buffer
	if err := largecfg.Write(&big, 200); err != nil {
		t.Fatal(err)
	}
	withServer := write(t, map[string]string{"a.hcl": tiny("a"), "big.hcl": big.String()})
	noServer := write(t, map[string]string{"a.hcl": tiny("a"), "big.hcl": strings.Replace(big.String(), "server {", "locals {", 1)})
	for dir, want := range map[string]int{withServer: 2, noServer: 1} {
		if suites, err := Discover([]string{dir}); err != nil || len(suites) != want {
			t.Errorf("a directory with a big file: %d suites (%v), want %d", len(suites), err, want)
		}
	}
	orphan := write(t, map[string]string{"a.hcl": tiny("a"), "b.hcl": tiny("b"), "c_test.hcl": test})
	if _, err := Discover([]string{orphan}); err == nil || !strings.Contains(err.Error(), "c_test.hcl has none beside it (c.hcl)") {
		t.Errorf("a test file without its configuration: %v", err)
	}
}

// TestSharedRecordingRefused checks that two tests whose names give the
// same fixture file are refused at load time.
func TestSharedRecordingRefused(t *testing.T) {
	tests := "test \"a b\" {\n  resource = \"t://r\"\n}\ntest \"A-B\" {\n  resource = \"t://r\"\n}\n"
	dir := write(t, map[string]string{"a.hcl": tiny("a"), "a_test.hcl": tests})
	suites, _ := Discover([]string{filepath.Join(dir, "a.hcl")})
	_, diags := Prepare(suites[0], table.Options{})
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "Tests sharing a recording") || diags[0].Subject.Start.Line != 4 {
		t.Fatalf("got %v", diags)
	}
}

func TestSlug(t *testing.T) {
	for name, want := range map[string]string{"Search finds Dune": "search-finds-dune", "a  b--c": "a-b-c", "!!!": "test", "Ünï 2": "ünï-2"} {
		if got := slug(name); got != want {
			t.Errorf("slug(%q) = %q, want %q", name, got, want)
		}
	}
}
