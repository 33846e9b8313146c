package openapi

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

func parseBytes(t testing.TB, name string, data []byte) (*API, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := Read(context.Background(), path, 0, nil)
	if err != nil {
		return nil, err
	}
	return Parse(src)
}

// TestHostileMalformedDocuments: broken or foreign input is an error that
// names the document, never a panic or a configuration.
func TestHostileMalformedDocuments(t *testing.T) {
	cases := map[string]struct{ data, want string }{
		"empty.yaml":       {"", "is empty"},
		"spaces.json":      {"  \n\t ", "is empty"},
		"not-openapi.json": {`{"name": "a package.json"}`, `no "openapi" or "swagger" field`},
		"truncated.json":   {`{"openapi": "3.0.0", "info": {"title": "x"`, "not a readable OpenAPI document"},
		"bad-indent.yaml":  {"openapi: 3.0.0\ninfo:\n  title: x\n version: 1\n", "not a readable OpenAPI document"},
		"tabs.yaml":        {"openapi: 3.0.0\n\tinfo: {}\n", "not a readable OpenAPI document"},
		"binary.yaml":      {"openapi\x00\xff\xfe\x00swagger", "not a readable OpenAPI document"},
		"alias-bomb.yaml":  {aliasBomb(), "excessive aliasing"},
		"old-swagger.json": {`{"swagger": "1.2", "apis": []}`, "Swagger 2.0 and OpenAPI 3.0 and 3.1"},
		"list.yaml":        {"- openapi\n- swagger\n", ""},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			api, err := parseBytes(t, name, []byte(c.data))
			if err == nil {
				t.Fatalf("read as a document with %d operations", len(api.Operations))
			}
			if !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q: want it to name %s and say %q", err, name, c.want)
			}
		})
	}
}

// aliasBomb is a YAML document whose aliases expand to billions of nodes.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString("openapi: 3.0.0\ninfo: {title: bomb, version: '1'}\npaths: {}\nx-a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		b.WriteString("x-" + n + ": &" + n + " [")
		for i := range 9 {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("*" + prev)
		}
		b.WriteString("]\n")
		prev = n
	}
	return b.String()
}

// TestHostileRefLoops: references that go round (schemas, parameters,
// path items, a schema that is its own items) are imported with the loop
// cut, or refused with an error; the result validates.
func TestHostileRefLoops(t *testing.T) {
	doc := `openapi: 3.1.0
info: {title: Loops, version: '1'}
paths:
  /a:
    parameters:
      - $ref: '#/components/parameters/P'
    post:
      operationId: postA
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/A'}
  /b:
    $ref: '#/paths/~1a'
components:
  parameters:
    P:
      name: p
      in: query
      schema: {$ref: '#/components/schemas/List'}
  schemas:
    A: {$ref: '#/components/schemas/B'}
    B:
      type: object
      properties:
        a: {$ref: '#/components/schemas/A'}
        self: {$ref: '#/components/schemas/B'}
        list: {$ref: '#/components/schemas/List'}
    List:
      type: array
      items: {$ref: '#/components/schemas/List'}
`
	api, err := parseBytes(t, "loops.yaml", []byte(doc))
	if err != nil {
		t.Logf("refused: %v", err)
		if !strings.Contains(err.Error(), "loops.yaml") {
			t.Errorf("the error does not name the document: %v", err)
		}
		return
	}
	out := Generate(api, api.Operations, Options{Source: "loops.yaml"})
	checkConfig(t, "loops.yaml", out)
	if !strings.Contains(string(out), "refers back to itself") {
		t.Errorf("no comment says where a cycle was cut:\n%s", out)
	}
}

// TestHostileSizeCap: a 50 MB document is refused, naming the limit and
// the flag, both as a file (before reading it) and over HTTP without a
// Content-Length (while reading it).
func TestHostileSizeCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(50 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = Read(context.Background(), path, DefaultMaxBytes, nil)
	if err == nil || !strings.Contains(err.Error(), "--max-size") || !strings.Contains(err.Error(), "huge.json") {
		t.Errorf("a 50 MB file: %v", err)
	}

	chunk := strings.Repeat(" ", 1<<20)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for range 50 {
			if _, err := w.Write([]byte(chunk)); err != nil {
				return
			}
			w.(http.Flusher).Flush() // chunked: no Content-Length to go by
		}
	}))
	defer ts.Close()
	_, err = Read(context.Background(), ts.URL+"/huge.json", DefaultMaxBytes, nil)
	if err == nil || !strings.Contains(err.Error(), "--max-size") {
		t.Errorf("a 50 MB answer: %v", err)
	}
}

// TestHostileRedirects: a document URL that redirects to file:, ftp: or
// data: is refused with an error saying so; a redirect to http is followed.
func TestHostileRedirects(t *testing.T) {
	mux := http.NewServeMux()
	for _, target := range []string{"file:///etc/passwd", "ftp://127.0.0.1/spec.json", "data:,openapi"} {
		mux.HandleFunc("/to-"+strings.SplitN(target, ":", 2)[0], func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, target, http.StatusFound)
		})
	}
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/spec.json", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/spec.json", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"openapi": "3.0.0", "info": {"title": "t", "version": "1"}, "paths": {"/x": {"get": {"operationId": "getX"}}}}`))
	})
	ts := httptest.NewServer(mux)
	defer ts.Close()
	for _, scheme := range []string{"file", "ftp", "data"} {
		_, err := Read(context.Background(), ts.URL+"/to-"+scheme, 0, nil)
		if err == nil || !strings.Contains(err.Error(), "only http and https") {
			t.Errorf("a redirect to %s: %v", scheme, err)
		}
	}
	src, err := Read(context.Background(), ts.URL+"/moved", 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	api, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	// The document names no server: the URL it came from is the server.
	if len(api.Servers) != 1 || api.Servers[0] != ts.URL+"/" {
		t.Errorf("servers %v; want the document's own origin", api.Servers)
	}
}

// TestHostileNames: operationIds and parameter names that collide, are
// empty, start with digits, are not ASCII or are very long still give
// unique valid names, and the configuration validates.
func TestHostileNames(t *testing.T) {
	long := strings.Repeat("veryLong", 30)
	doc := `openapi: 3.0.0
info: {title: '', version: ''}
paths:
  /a/{id}/{ID}:
    get:
      operationId: listItems
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
        - {name: ID, in: path, required: true, schema: {type: string}}
        - {name: id, in: query, schema: {type: string}}
        - {name: '1st', in: query, schema: {type: string}}
        - {name: '', in: query, schema: {type: string}}
        - {name: 'ünïcödé', in: header, schema: {type: string}}
        - {name: 'body', in: query, schema: {type: string}}
    post:
      operationId: list_items
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
        - {name: ID, in: path, required: true, schema: {type: string}}
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {'': {type: string}, 'a b': {type: integer}}}
    put:
      operationId: 'list-items'
    delete:
      operationId: '!!!'
    patch:
      operationId: '列表'
  /` + long + `:
    get:
      operationId: ` + long + `
    post:
      operationId: ` + long + `x
  /:
    get: {}
`
	api, err := parseBytes(t, "names.yaml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	out := Generate(api, api.Operations, Options{Source: "names.yaml"})
	checkConfig(t, "names.yaml", out)
	f, diags := hclwrite.ParseConfig(out, "names.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	seen := map[string]bool{}
	for _, b := range f.Body().Blocks() {
		if b.Type() != "tool" {
			continue
		}
		name := b.Labels()[0]
		if seen[name] || len(name) > maxToolName {
			t.Errorf("tool name %q repeated or longer than %d", name, maxToolName)
		}
		seen[name] = true
	}
	if len(seen) != 8 {
		t.Errorf("%d tools; want 8: %v", len(seen), seen)
	}
}

// TestHostileForeignRefs: a document read over HTTP may refer to files
// beside it, which are fetched from the same origin, but a reference to
// another host or port is never fetched.
func TestHostileForeignRefs(t *testing.T) {
	var foreignHits atomic.Int32
	foreign := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		foreignHits.Add(1)
		w.Write([]byte("components:\n  schemas:\n    Code: {type: string}\n"))
	}))
	defer foreign.Close()
	doc := `openapi: 3.0.0
info: {title: Refs, version: '1'}
paths:
  /near:
    get:
      operationId: near
      parameters:
        - name: code
          in: query
          schema: {$ref: 'common.yaml#/components/schemas/Code'}
  /far:
    get:
      operationId: far
      parameters:
        - name: code
          in: query
          schema: {$ref: '` + foreign.URL + `/common.yaml#/components/schemas/Code'}
`
	mux := http.NewServeMux()
	mux.HandleFunc("/specs/doc.yaml", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(doc)) })
	mux.HandleFunc("/specs/common.yaml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("components:\n  schemas:\n    Code: {type: string, enum: [near]}\n"))
	})
	ts := httptest.NewServer(mux)
	defer ts.Close()
	src, err := Read(context.Background(), ts.URL+"/specs/doc.yaml", 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	api, err := Parse(src)
	if foreignHits.Load() != 0 {
		t.Errorf("the foreign host got %d requests", foreignHits.Load())
	}
	if err != nil {
		if !strings.Contains(err.Error(), "doc.yaml") {
			t.Errorf("the error does not name the document: %v", err)
		}
		t.Logf("refused: %v", err)
		return
	}
	out := string(Generate(api, api.Operations, Options{Source: "doc.yaml"}))
	checkConfig(t, "doc.yaml", []byte(out))
	if !strings.Contains(out, `= ["near"]`) {
		t.Errorf("the reference beside the document was not followed:\n%s", out)
	}
	if !strings.Contains(out, "# Not resolved, and left out where it is used") {
		t.Errorf("the foreign reference is left out without a comment:\n%s", out)
	}
}
