package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const shopDoc = "../../openapi/testdata/shop.yaml"

func runImport(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(append([]string{"import", "openapi"}, args...), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestImportToFile writes with -o, refuses to replace the file without
// --force, replaces it with --force, and the file validates and is
// formatted.
func TestImportToFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "shop.hcl")
	if code, _, stderr := runImport(t, shopDoc, "-o", file); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if err := os.WriteFile(file, []byte("# mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runImport(t, shopDoc, "-o", file)
	if code != 1 || !strings.Contains(stderr, "--force") {
		t.Errorf("over an existing file: exit %d, %q", code, stderr)
	}
	if data, _ := os.ReadFile(file); string(data) != "# mine\n" {
		t.Fatal("the existing file was changed without --force")
	}
	if code, _, stderr := runImport(t, shopDoc, "-o", file, "--force"); code != 0 {
		t.Fatalf("--force: exit %d: %s", code, stderr)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"validate", file}, &out, &errOut); code != 0 {
		t.Errorf("validate: exit %d: %s", code, errOut.String())
	}
	if code := run([]string{"fmt", "--check", file}, &out, &errOut); code != 0 {
		t.Errorf("fmt --check: exit %d: %s", code, out.String())
	}
}

// TestImportSelection: --list prints the operations the filters keep, and
// the generated file has exactly their tools.
func TestImportSelection(t *testing.T) {
	code, out, stderr := runImport(t, shopDoc, "--list", "--tag", "orders")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "place_order") || !strings.Contains(out, "POST") || strings.Contains(out, "list_plants") {
		t.Errorf("--list --tag orders:\n%s", out)
	}
	_, out, _ = runImport(t, shopDoc, "--path", "/plants/*", "--exclude-method", "PATCH", "--method", "GET", "--method", "DELETE")
	if got := strings.Count(out, "\ntool "); got != 2 || !strings.Contains(out, `tool "get_plant"`) || !strings.Contains(out, `tool "delete_plant"`) {
		t.Errorf("--path /plants/* --method GET --method DELETE gave %d tools:\n%s", got, out)
	}
	_, out, _ = runImport(t, shopDoc, "--operation-id", "getOrder", "--deprecated", "--operation-id", "get_order")
	if strings.Count(out, "\ntool ") != 2 {
		t.Errorf("--operation-id twice with --deprecated:\n%s", out)
	}
	code, _, stderr = runImport(t, shopDoc, "--tag", "nothing-has-this")
	if code != 1 || !strings.Contains(stderr, "--list") {
		t.Errorf("an empty selection: exit %d, %q", code, stderr)
	}
}

// TestImportURL reads the document over HTTP from 127.0.0.1; a URL that
// fails says so.
func TestImportURL(t *testing.T) {
	data, err := os.ReadFile(shopDoc)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/shop.yaml" {
			http.NotFound(w, r)
			return
		}
		w.Write(data)
	}))
	defer ts.Close()
	code, out, stderr := runImport(t, ts.URL+"/shop.yaml")
	if code != 0 || !strings.Contains(out, `tool "list_plants"`) || !strings.Contains(out, "from "+ts.URL+"/shop.yaml") {
		t.Errorf("exit %d: %s\n%s", code, stderr, out)
	}
	code, _, stderr = runImport(t, ts.URL+"/missing.yaml")
	if code != 1 || !strings.Contains(stderr, "404") {
		t.Errorf("a missing document: exit %d, %q", code, stderr)
	}
}

// TestHostileImportURLSecrets: the credentials and query of a document
// URL are neither written in the generated file nor printed when the
// fetch fails.
func TestHostileImportURLSecrets(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/doc.json" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(`{"openapi": "3.0.0", "info": {"title": "t", "version": "1"}, "paths": {"/x": {"get": {"operationId": "getX"}}}}`))
	}))
	defer ts.Close()
	secretURL := func(path string) string {
		return strings.Replace(ts.URL, "http://", "http://alice:pa55word@", 1) + path + "?access_token=t0ken-x"
	}
	code, out, stderr := runImport(t, secretURL("/doc.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, _, failed := runImport(t, secretURL("/gone.json"))
	if code == 0 {
		t.Fatal("a 404 document was imported")
	}
	for _, s := range []string{"alice", "pa55word", "t0ken-x"} {
		if strings.Contains(out, s) || strings.Contains(failed, s) {
			t.Errorf("%q printed:\n%s\n%s", s, out, failed)
		}
	}
}

// TestImportWarnings: the import says on stderr what to do before
// serving (here: deprecated operations left out, no server named, an
// API key that is the whole Authorization header), one line each.
func TestImportWarnings(t *testing.T) {
	doc := filepath.Join(t.TempDir(), "keys.yaml")
	spec := `openapi: 3.0.3
info: {title: Keys, version: "1"}
paths:
  /a:
    get: {operationId: getA, responses: {"200": {description: ok}}}
  /b:
    get: {operationId: getB, deprecated: true, responses: {"200": {description: ok}}}
security: [{key: []}]
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: Authorization}
`
	if err := os.WriteFile(doc, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runImport(t, doc)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"warning: 1 operation the document marks deprecated is left out; add --deprecated to import it too.\n",
		"warning: base_url has no default (the document names no server): give it when serving, with --var base_url=https://api.example.com or the environment variable MCPDECL_VAR_base_url.\n",
		`warning: The security scheme "key" sends KEYS_API_KEY as the whole Authorization header: its value must include the scheme word`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if !strings.Contains(out, `tool "get_a"`) || strings.Contains(out, `tool "get_b"`) {
		t.Errorf("stdout:\n%s", out)
	}
	_, _, stderr = runImport(t, doc, "--list")
	if !strings.Contains(stderr, "1 deprecated operations are not listed; add --deprecated") {
		t.Errorf("--list: stderr %q", stderr)
	}
	_, _, stderr = runImport(t, doc, "--deprecated")
	if strings.Contains(stderr, "deprecated") {
		t.Errorf("--deprecated: stderr %q", stderr)
	}
}

// TestImportMCPExtensions: the document's x-mcp and x-speakeasy-mcp
// extensions leave operations out and name tools; the import says how
// many they left out, --mcp-opt-in keeps only those they include,
// --ignore-mcp-extensions reads the document without them, a malformed
// value is a warning, and --list says the same.
func TestImportMCPExtensions(t *testing.T) {
	doc := filepath.Join(t.TempDir(), "ext.yaml")
	spec := `openapi: 3.0.3
info: {title: Ext, version: "1"}
servers: [{url: https://ext.example.com}]
paths:
  /a:
    get: {operationId: getA, x-mcp: {name: read_a, toolsets: [reading]}, responses: {"200": {description: ok}}}
    post: {operationId: postA, x-mcp: false, responses: {"200": {description: ok}}}
  /b:
    get: {operationId: getB, x-speakeasy-mcp: {disabled: true}, responses: {"200": {description: ok}}}
    put: {operationId: putB, responses: {"200": {description: ok}}}
    patch: {operationId: patchB, x-mcp: "yes", responses: {"200": {description: ok}}}
`
	if err := os.WriteFile(doc, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	tools := func(out string) []string {
		var names []string
		for _, l := range strings.Split(out, "\n") {
			if name, ok := strings.CutPrefix(l, `tool "`); ok {
				names = append(names, strings.TrimSuffix(name, `" {`))
			}
		}
		return names
	}
	malformed := `warning: PATCH /b: x-mcp must be true, false or an object (name, description, exclude, toolsets), not the string "yes"; it is ignored.` + "\n"

	code, out, stderr := runImport(t, doc, "--toolsets-from-tags")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := strings.Join(tools(out), " "); got != "read_a put_b patch_b" {
		t.Errorf("tools %s", got)
	}
	if !strings.Contains(out, `toolset "reading"`) {
		t.Errorf("no toolset from x-mcp toolsets:\n%s", out)
	}
	for _, want := range []string{malformed, "warning: 2 operations are left out by the document's MCP extensions (x-mcp, x-speakeasy-mcp); add --ignore-mcp-extensions to import them too.\n"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}

	code, out, stderr = runImport(t, doc, "--mcp-opt-in")
	if code != 0 || strings.Join(tools(out), " ") != "read_a" {
		t.Errorf("--mcp-opt-in: exit %d, tools %v: %s", code, tools(out), stderr)
	}
	if !strings.Contains(stderr, "warning: 2 operations are left out because --mcp-opt-in imports only the operations an MCP extension includes (x-mcp: true).\n") {
		t.Errorf("--mcp-opt-in: stderr %s", stderr)
	}
	code, _, stderr = runImport(t, doc, "--mcp-opt-in", "--method", "PUT")
	if code != 1 || !strings.Contains(stderr, "--mcp-opt-in") {
		t.Errorf("--mcp-opt-in selecting nothing: exit %d, %s", code, stderr)
	}

	code, out, stderr = runImport(t, doc, "--ignore-mcp-extensions")
	if code != 0 || strings.Join(tools(out), " ") != "get_a post_a get_b put_b patch_b" || strings.Contains(stderr, "x-mcp") {
		t.Errorf("--ignore-mcp-extensions: exit %d, tools %v: %s", code, tools(out), stderr)
	}
	if code, _, stderr = runImport(t, doc, "--ignore-mcp-extensions", "--mcp-opt-in"); code != 1 || !strings.Contains(stderr, "contradict") {
		t.Errorf("both flags: exit %d, %s", code, stderr)
	}

	code, out, stderr = runImport(t, doc, "--list")
	if code != 0 || !strings.Contains(out, "read_a") || strings.Contains(out, "post_a") {
		t.Errorf("--list: exit %d\n%s", code, out)
	}
	for _, want := range []string{malformed, "warning: 2 operations the document's MCP extensions exclude are not listed; add --ignore-mcp-extensions to list them too.\n"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("--list: stderr lacks %q:\n%s", want, stderr)
		}
	}
}
