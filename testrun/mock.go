package testrun

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"

	httpadapter "github.com/mcpdecl/mcpdecl/adapters/http"
	sqladapter "github.com/mcpdecl/mcpdecl/adapters/sql"
	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/lang"
)

// mock is a checked mock block: which requests it answers, and how.
type mock struct {
	method, path   string // "" matches any
	query, headers map[string]string
	json           any
	hasJSON        bool
	body           *string
	status         int
	replyHeaders   map[string]string
	replyBody      []byte
	rng            hcl.Range
}

func (c *checker) mocks(blocks []*lang.Mock) map[string][]*mock {
	out := map[string][]*mock{}
	for _, b := range blocks {
		if !c.httpBackend(b.Backend, b.BackendRange) || len(b.Response) != 1 {
			continue
		}
		m := &mock{status: 200, rng: b.DeclRange}
		if len(b.Request) > 0 {
			c.mockRequest(b.Request[0], m)
		}
		c.mockReply(b.Response[0], m)
		out[b.Backend] = append(out[b.Backend], m)
	}
	return out
}

// httpBackend checks that name is an HTTP backend, for a mock.
func (c *checker) httpBackend(name string, rng hcl.Range) bool {
	b, ok := c.table.Backends[name]
	if !ok {
		c.errorf(rng, "Unknown backend", "There is no backend %q.%s", name, rule.DidYouMean(name, sortedKeys(c.table.Backends)))
		return false
	}
	if _, isHTTP := b.(*httpadapter.Backend); !isHTTP {
		c.errorf(rng, "Mock of a backend that is not HTTP", "A mock answers the requests of an HTTP backend, and %q is %s backend. Give an SQLite backend its data with a sqlite block; commands run for real.", name, kindOf(b.Describe()))
		return false
	}
	return true
}

func kindOf(desc map[string]any) string {
	kind, _ := desc["kind"].(string)
	return "a " + kind
}

func (c *checker) mockRequest(r *lang.MockRequest, m *mock) {
	if r.Method != nil {
		if s, ok := c.stringValue(r.Method); ok {
			m.method = strings.ToUpper(s)
			if !contains(httpadapter.Methods, m.method) {
				c.errorf(r.Method.Expr.Range(), "Unknown method", "method is one of %s.%s", strings.Join(httpadapter.Methods, ", "), rule.DidYouMean(m.method, httpadapter.Methods))
			}
		}
	}
	if r.Path != nil {
		if s, ok := c.stringValue(r.Path); ok {
			m.path = "/" + strings.TrimPrefix(s, "/")
		}
	}
	m.query = c.stringMap(r.Query)
	m.headers = c.stringMap(r.Headers)
	if r.JSON != nil {
		m.json, m.hasJSON = c.jsonValue(r.JSON)
	}
	if r.Body != nil {
		if s, ok := c.stringValue(r.Body); ok {
			m.body = &s
		}
	}
}

func (c *checker) mockReply(r *lang.MockReply, m *mock) {
	if r.Status != nil {
		if v, ok := c.jsonValue(r.Status); ok {
			n, isNum := v.(json.Number)
			code, err := n.Int64()
			if !isNum || err != nil || code < 100 || code > 599 {
				c.errorf(r.Status.Expr.Range(), "Invalid status", "status is an HTTP status code between 100 and 599, such as 200 or 404.")
			}
			m.status = int(code)
		}
	}
	m.replyHeaders = c.stringMap(r.Headers)
	switch {
	case r.JSON != nil && r.Body != nil:
		c.errorf(r.Body.Range, "Two bodies", "A response has json or body, not both.")
	case r.JSON != nil:
		if v, ok := c.jsonValue(r.JSON); ok {
			m.replyBody, _ = json.Marshal(v)
			if m.replyHeaders == nil {
				m.replyHeaders = map[string]string{}
			}
			if _, set := m.replyHeaders["Content-Type"]; !set {
				m.replyHeaders["Content-Type"] = "application/json"
			}
		}
	case r.Body != nil:
		if s, ok := c.stringValue(r.Body); ok {
			m.replyBody = []byte(s)
		}
	}
}

// sqliteData checks the sqlite blocks: each names an SQLite backend and
// an SQL file, relative to the test's file.
func (c *checker) sqliteData(blocks []*lang.SQLiteData) map[string]string {
	out := map[string]string{}
	for _, b := range blocks {
		be, ok := c.table.Backends[b.Backend]
		if !ok {
			c.errorf(b.BackendRange, "Unknown backend", "There is no backend %q.%s", b.Backend, rule.DidYouMean(b.Backend, sortedKeys(c.table.Backends)))
			continue
		}
		if sb, isSQL := be.(*sqladapter.Backend); !isSQL || sb.Driver != sqladapter.SQLite {
			c.errorf(b.BackendRange, "Not an SQLite backend", "A sqlite block gives an SQLite backend its data, and %q is not one; other databases are used as configured.", b.Backend)
			continue
		}
		file, ok := c.stringValue(b.InitSQL)
		if !ok {
			continue
		}
		path := filepath.Join(filepath.Dir(b.DeclRange.Filename), file)
		if info, err := os.Stat(path); err != nil || info.IsDir() {
			c.errorf(b.InitSQL.Expr.Range(), "init_sql file not found", "%q is not a file; init_sql names a file of SQL statements, relative to this file.", path)
			continue
		}
		out[b.Backend] = path
	}
	return out
}

// mockTransport answers a backend's requests from its mocks; a request no
// mock matches is noted (the test fails naming it) and gets an error.
type mockTransport struct {
	backend  string
	basePath string
	mocks    []*mock
	misses   *misses
	mu       sync.Mutex
	used     map[*mock]bool
}

// unused describes the mocks no request reached: a test that declares an
// answer expects the call to ask for it.
func (t *mockTransport) unused() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for _, m := range t.mocks {
		if !t.used[m] {
			out = append(out, fmt.Sprintf("the mock at %s:%d:%d (%s) answered no request; remove it, or fix its request block",
				m.rng.Filename, m.rng.Start.Line, m.rng.Start.Column, m.describe()))
		}
	}
	return out
}

// misses collects the requests of a test that nothing answered.
type misses struct {
	mu   sync.Mutex
	list []string
}

func (m *misses) add(s string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.list = append(m.list, s)
}

func (m *misses) all() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.list...)
}

func (t *mockTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := readBody(req)
	if err != nil {
		return nil, err
	}
	path := relativePath(req.URL.Path, t.basePath)
	for _, m := range t.mocks {
		if m.matches(req, path, body) {
			t.mu.Lock()
			t.used[m] = true
			t.mu.Unlock()
			return m.response(req), nil
		}
	}
	what := fmt.Sprintf("backend %q got %s %s, which no mock matches (%s)", t.backend, req.Method, pathAndQuery(path, req.URL.RawQuery), t.describeMocks())
	t.misses.add(what)
	return nil, fmt.Errorf("%s", what)
}

func (t *mockTransport) describeMocks() string {
	if len(t.mocks) == 0 {
		return "it has none"
	}
	var out []string
	for _, m := range t.mocks {
		out = append(out, fmt.Sprintf("%s at %s:%d:%d", m.describe(), m.rng.Filename, m.rng.Start.Line, m.rng.Start.Column))
	}
	return "mocks: " + strings.Join(out, "; ")
}

func (m *mock) describe() string {
	method, path := m.method, m.path
	if method == "" {
		method = "any method"
	}
	if path == "" {
		path = "any path"
	}
	s := method + " " + path
	for _, k := range sortedKeys(m.query) {
		s += fmt.Sprintf(" %s=%s", k, m.query[k])
	}
	return s
}

func (m *mock) matches(req *http.Request, path string, body []byte) bool {
	if m.method != "" && req.Method != m.method || m.path != "" && path != m.path {
		return false
	}
	q := req.URL.Query()
	for k, v := range m.query {
		if !contains(q[k], v) {
			return false
		}
	}
	for k, v := range m.headers {
		if req.Header.Get(k) != v {
			return false
		}
	}
	if m.body != nil && string(body) != *m.body {
		return false
	}
	return !m.hasJSON || sameJSON(decodeJSON(body), m.json)
}

func (m *mock) response(req *http.Request) *http.Response {
	h := http.Header{}
	for k, v := range m.replyHeaders {
		h.Set(k, v)
	}
	return &http.Response{
		StatusCode: m.status, Status: fmt.Sprintf("%d %s", m.status, http.StatusText(m.status)),
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, Body: io.NopCloser(bytes.NewReader(m.replyBody)), ContentLength: int64(len(m.replyBody)),
		Request: req,
	}
}

func readBody(req *http.Request) ([]byte, error) {
	if req.Body == nil {
		return nil, nil
	}
	defer req.Body.Close()
	return io.ReadAll(req.Body)
}

// relativePath is the request path after the backend's base path, as the
// tool's http block writes it.
func relativePath(path, base string) string {
	base = strings.TrimSuffix(base, "/")
	if base != "" && strings.HasPrefix(path, base+"/") {
		return path[len(base):]
	}
	return path
}

func pathAndQuery(path, rawQuery string) string {
	if rawQuery == "" {
		return path
	}
	return path + "?" + rawQuery
}

// offlineTransport refuses every request: the backend has neither mocks
// nor a recording, and tests make no network calls unless recording.
type offlineTransport struct {
	backend, basePath string
	// creds are the texts the backend authenticates with.
	creds  []string
	misses *misses
}

func (t *offlineTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := readBody(req)
	if err != nil {
		return nil, err
	}
	what := fmt.Sprintf("backend %q got %s %s, but the test has no mock for it and no recording; add a mock %q block, or run mcpdecl test --record to record the real answers",
		t.backend, req.Method, pathAndQuery(relativePath(req.URL.Path, t.basePath), req.URL.RawQuery), t.backend)
	if names := unsetInRequest(req, body, t.creds); len(names) > 0 {
		// The query is left out: it may hold the placeholder.
		what = fmt.Sprintf("backend %q got %s %s, but the test has no mock for it and no recording; add a mock %q block, or record the real answers with %s=... mcpdecl test --record (the request needs %s, and %s not set: the test has only the placeholder %q, which is never sent to a real server)",
			t.backend, req.Method, relativePath(req.URL.Path, t.basePath), t.backend, names[0], envCalls(names), isAre(names), Placeholder(names[0]))
	}
	t.misses.add(what)
	return nil, fmt.Errorf("%s", what)
}
