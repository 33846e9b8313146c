package openapi

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/table"
)

// TestHostileURLSecrets: the user information, query and fragment of a
// document URL (where tokens travel) reach neither the generated file nor
// an error, and a relative server URL resolved against it does not carry
// them into base_url.
func TestHostileURLSecrets(t *testing.T) {
	doc := `openapi: 3.0.0
info: {title: Secret, version: '1'}
servers: [{url: /v1}, {url: /v2}]
paths:
  /a: {get: {operationId: getA}}
`
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/doc.yaml" {
			w.Write([]byte(doc))
			return
		}
		http.NotFound(w, r)
	}))
	defer ts.Close()
	secrets := []string{"s3cr3tuser", "hunter22", "tok3n-value", "frag-tok"}
	withSecrets := func(path string) string {
		return strings.Replace(ts.URL, "http://", "http://s3cr3tuser:hunter22@", 1) + path + "?access_token=tok3n-value#frag-tok"
	}
	loc := withSecrets("/doc.yaml")
	src, err := Read(context.Background(), loc, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	api, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	out := string(Generate(api, api.Operations, Options{Source: loc}))
	checkConfig(t, "secret", []byte(out))
	_, errMissing := Read(context.Background(), withSecrets("/missing.yaml"), 0, nil)
	if errMissing == nil {
		t.Fatal("a 404 was read")
	}
	_, errDown := Read(context.Background(), "http://s3cr3tuser:hunter22@127.0.0.1:1/doc.yaml?access_token=tok3n-value", 0, nil)
	for _, s := range secrets {
		for what, text := range map[string]string{"the output": out, "the 404 error": errMissing.Error(), "the refused connection's error": errDown.Error()} {
			if strings.Contains(text, s) {
				t.Errorf("%s holds %q:\n%s", what, s, text)
			}
		}
	}
	if !strings.Contains(out, "redacted@127.0.0.1") || !strings.Contains(out, "doc.yaml?redacted") {
		t.Errorf("the first comment does not show the URL redacted:\n%s", out)
	}
}

// hostileText holds an OSC 52 clipboard write, a colour escape, its C1
// form, a right-to-left override and an isolate.
const hostileText = "ok\x1b]52;c;ZXZpbA==\x07\x1b[31mred\u009b32m \u202eevil\u2066x\u2069\u200f"

// TestHostileTerminalControls: --list and the generated file carry no
// escape sequence, C0 or C1 control or bidirectional control from the
// document, whether in comments or in the descriptions clients read.
func TestHostileTerminalControls(t *testing.T) {
	q := func(s string) string {
		return `"` + strings.NewReplacer(`\`, `\\`, "\x1b", `\e`, "\x07", `\a`).Replace(s) + `"`
	}
	doc := `openapi: 3.0.0
info: {title: ` + q("Term "+hostileText) + `, version: '1', description: ` + q(hostileText) + `}
servers: [{url: 'https://a.test'}, {url: ` + q("https://b.test/"+hostileText) + `}]
paths:
  ` + q("/x/"+hostileText) + `:
    get:
      operationId: ` + q("op"+hostileText) + `
      tags: [` + q("tag"+hostileText) + `]
      summary: ` + q(hostileText) + `
      parameters:
        - {name: p, in: query, description: ` + q(hostileText) + `, schema: {type: string, pattern: ` + q("[") + `}}
`
	api, err := parseBytes(t, "term.yaml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var list bytes.Buffer
	if err := List(&list, api.Operations); err != nil {
		t.Fatal(err)
	}
	out := Generate(api, api.Operations, Options{Source: "term.yaml"})
	checkConfig(t, "term.yaml", out)
	for what, text := range map[string]string{"--list": list.String(), "the file": string(out)} {
		for _, r := range text {
			if r != '\n' && r != '\t' && isControl(r) {
				t.Errorf("%s holds %U:\n%q", what, r, text)
				break
			}
		}
	}
	// The file's strings are escaped by HCL (\u202e); the descriptions
	// they hold are what clients show.
	for _, line := range strings.Split(string(out), "\n") {
		if (strings.Contains(line, "description =") || strings.Contains(line, "title ")) && strings.Contains(line, `\u`) {
			t.Errorf("a description holds a control, escaped: %s", line)
		}
	}
}

// TestHostileTemplateText: text from the document that looks like an HCL
// template (${...}, %{...}, in a path, a description, a header name, a
// default, an enum) is written so that the configuration validates and
// sends what the document says: checked against a loopback server.
func TestHostileTemplateText(t *testing.T) {
	doc := `openapi: 3.0.0
info: {title: 'Price ${var.x} %{ if true }', version: '1', description: 'Costs ${args.amount} %{for x in y}'}
paths:
  /price/${amount}/x/$${raw}/%{pct}:
    get:
      operationId: getPrice
      description: 'Sends ${amount} and %{ endfor }'
      parameters:
        - {name: amount, in: path, required: true, description: 'the ${amount}', schema: {type: integer}}
        - {name: raw, in: path, required: true, schema: {type: string}}
        - {name: pct, in: path, required: true, schema: {type: string}}
        - {name: 'cur${x}', in: query, schema: {type: string, default: '${USD}', enum: ['${USD}', '%{EUR}']}}
        - {name: 'X-Tmpl', in: header, schema: {type: string, default: '%{ if 1 }${x}'}}
    post:
      operationId: postPrice
      requestBody:
        content:
          "text/plain\r\nX-Injected: 1": {schema: {type: string}}
`
	api, err := parseBytes(t, "tmpl.yaml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	out := Generate(api, api.Operations, Options{Source: "tmpl.yaml"})
	checkConfig(t, "tmpl.yaml", out)

	var mu sync.Mutex
	var got *http.Request
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = r.Clone(context.Background())
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"ok": true}`))
	}))
	defer backend.Close()
	cs := serveConfig(t, out, backend.URL, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	callJSON(t, ctx, cs, "get_price", map[string]any{"amount": 40, "raw": "r", "pct": "p"})
	mu.Lock()
	defer mu.Unlock()
	if got == nil {
		t.Fatal("the backend got no request")
	}
	if p := got.URL.EscapedPath(); p != "/price/$40/x/$$r/%25p" && p != "/price/$40/x/$$r/%p" {
		t.Errorf("the backend got the path %s; want /price/$40/x/$$r/%%p (the argument sent after a literal $)", p)
	}
	if v := got.URL.Query().Get("cur${x}"); v != "${USD}" {
		t.Errorf("the query default arrived as %q; want ${USD}", v)
	}
	if v := got.Header.Get("X-Tmpl"); v != "%{ if 1 }${x}" {
		t.Errorf("the header default arrived as %q", v)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := tools.Tools[0].Description; !strings.Contains(d, "Sends ${amount} and %{ endfor }") {
		t.Errorf("the description reads %q", d)
	}
}

// TestHostileHeaderNames: an apiKey scheme whose header name holds CR LF
// or other characters a header name cannot have is not configured (a
// comment says why), and the output validates; a header parameter of the
// same kind is left out.
func TestHostileHeaderNames(t *testing.T) {
	for _, name := range []string{"X-Key\r\nInjected: 1", "X Key", "X-Key:", "", "Ключ"} {
		doc := `openapi: 3.0.0
info: {title: Keys, version: '1'}
security: [{key: []}]
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: ` + `"` + strings.NewReplacer("\r", `\r`, "\n", `\n`).Replace(name) + `"}
paths:
  /a:
    get:
      operationId: getA
      parameters:
        - {name: ` + `"` + strings.NewReplacer("\r", `\r`, "\n", `\n`).Replace(name) + `-p"` + `, in: header, schema: {type: string}}
`
		api, err := parseBytes(t, "keys.yaml", []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		out := string(Generate(api, api.Operations, Options{Source: "keys.yaml"}))
		checkConfig(t, "keys.yaml", []byte(out))
		if strings.Contains(out, "api_key {") {
			t.Errorf("header name %q: an api_key block was written:\n%s", name, out)
		}
		if !strings.Contains(out, "not a valid HTTP header name") {
			t.Errorf("header name %q: no comment says why the key is not sent:\n%s", name, out)
		}
	}
}

// serveConfig compiles a generated configuration with base_url and the
// environment given and serves it in-process over HTTP.
func serveConfig(t *testing.T, out []byte, base string, env map[string]string) *sdkmcp.ClientSession {
	t.Helper()
	file := filepath.Join(t.TempDir(), "import.hcl")
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := lang.Load(file)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	lookup := func(name string) (string, bool) { v, ok := env[name]; return v, ok }
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{Vars: map[string]string{"base_url": base}, LookupEnv: lookup})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	srv, err := server.Open(ctx, tbl, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(mcp.NewServer(srv, nil).HTTPHandler(nil))
	t.Cleanup(func() { ts.Close(); srv.Close() })
	client := sdkmcp.NewClient(&sdkmcp.Implementation{Name: "openapi-hostile", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &sdkmcp.StreamableClientTransport{Endpoint: ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}
