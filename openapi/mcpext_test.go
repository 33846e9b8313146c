package openapi

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// parseDoc parses an inline document as the command does.
func parseDoc(t *testing.T, doc string) *API {
	t.Helper()
	api, err := parseBytes(t, "doc.yaml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return api
}

// selectedNames are the tool names of the operations f keeps.
func selectedNames(t *testing.T, api *API, f Filter) []string {
	t.Helper()
	ops, err := f.Select(api.Operations)
	if err != nil {
		t.Fatal(err)
	}
	n := newNamer(maxToolName)
	var out []string
	for _, op := range ops {
		out = append(out, n.unique(toolBase(op)))
	}
	return out
}

// compileConfig checks a generated configuration (checkConfig) and
// compiles it into a table.
func compileConfig(t *testing.T, out []byte) *table.Table {
	t.Helper()
	checkConfig(t, "doc.yaml", out)
	file := filepath.Join(t.TempDir(), "doc.hcl")
	if err := os.WriteFile(file, out, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, diags := lang.Load(file)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		t.Fatalf("%s\n%s", diags, numbered(out))
	}
	return tbl
}

const levelsDoc = `openapi: 3.0.3
info: {title: Levels, version: "1"}
servers: [{url: https://levels.example.com}]
x-mcp: false
paths:
  /a:
    x-mcp: true
    get: {operationId: getA, responses: {"200": {description: ok}}}
    post: {operationId: postA, x-mcp: false, responses: {"200": {description: ok}}}
  /b:
    get: {operationId: getB, responses: {"200": {description: ok}}}
    put: {operationId: putB, x-mcp: true, responses: {"200": {description: ok}}}
  /c:
    x-mcp: false
    get: {operationId: getC, responses: {"200": {description: ok}}}
    delete: {operationId: deleteC, x-mcp: {name: remove_c}, responses: {"200": {description: ok}}}
`

// TestMCPExtensionLevels: x-mcp as a boolean at the document root, on a
// path item and on an operation; the most specific level wins, and an
// x-mcp object on the operation includes it. The opt-in mode gives the
// same here, since every operation is decided by some level.
func TestMCPExtensionLevels(t *testing.T) {
	api := parseDoc(t, levelsDoc)
	if len(api.Warnings) != 0 {
		t.Errorf("warnings: %q", api.Warnings)
	}
	want := []string{"get_a", "put_b", "remove_c"}
	for _, f := range []Filter{{}, {MCPOptIn: true}} {
		if got := selectedNames(t, api, f); !slices.Equal(got, want) {
			t.Errorf("opt-in %v: %v, want %v", f.MCPOptIn, got, want)
		}
		excluded, notOptedIn, err := f.MCPLeftOut(api.Operations)
		if err != nil || excluded != 3 || notOptedIn != 0 {
			t.Errorf("opt-in %v: left out %d, %d, %v", f.MCPOptIn, excluded, notOptedIn, err)
		}
	}
	byID := map[string]*Operation{}
	for _, op := range api.Operations {
		byID[op.ID] = op
	}
	for id, by := range map[string]string{
		"getA": "x-mcp on the path item", "postA": "x-mcp on the operation", "getB": "x-mcp at the document root",
		"putB": "x-mcp on the operation", "getC": "x-mcp on the path item", "deleteC": "an MCP extension object on the operation",
	} {
		if byID[id].MCP.By != by {
			t.Errorf("%s decided by %q, want %q", id, byID[id].MCP.By, by)
		}
	}
	ops, _ := Filter{}.Select(api.Operations)
	res := Import(api, ops, Options{Source: "levels.yaml", MCPExcluded: 3})
	compileConfig(t, res.Config)
	note := "3 operations are left out by the document's MCP extensions (x-mcp, x-speakeasy-mcp); add --ignore-mcp-extensions to import them too."
	if !slices.Contains(res.Warnings, note) || !strings.Contains(comments(string(res.Config)), note) {
		t.Errorf("warnings %q\n%s", res.Warnings, res.Config)
	}
	// Without the extensions, everything is imported by its own name.
	api.DropMCPHints()
	if got := selectedNames(t, api, Filter{}); len(got) != 6 || got[5] != "delete_c" {
		t.Errorf("without extensions: %v", got)
	}
}

// TestMCPExtensionDefaultInclude: without any x-mcp, every operation is
// imported, and opt-in imports none of them; the document root's
// x-mcp: true opts every operation in.
func TestMCPExtensionDefaultInclude(t *testing.T) {
	doc := `openapi: 3.1.0
info: {title: Plain, version: "1"}
paths:
  /a:
    get: {operationId: getA, responses: {"200": {description: ok}}}
  /b:
    get: {operationId: getB, x-mcp: true, responses: {"200": {description: ok}}}
`
	api := parseDoc(t, doc)
	if got := selectedNames(t, api, Filter{}); !slices.Equal(got, []string{"get_a", "get_b"}) {
		t.Errorf("default: %v", got)
	}
	if got := selectedNames(t, api, Filter{MCPOptIn: true}); !slices.Equal(got, []string{"get_b"}) {
		t.Errorf("opt-in: %v", got)
	}
	if ex, no, _ := (Filter{MCPOptIn: true}).MCPLeftOut(api.Operations); ex != 0 || no != 1 {
		t.Errorf("opt-in left out %d excluded, %d not opted in", ex, no)
	}
	if ex, no, _ := (Filter{}).MCPLeftOut(api.Operations); ex != 0 || no != 0 {
		t.Errorf("default left out %d, %d", ex, no)
	}
	// Other filters still apply first: an operation they leave out is not
	// counted.
	if _, no, _ := (Filter{MCPOptIn: true, Paths: []string{"/b"}}).MCPLeftOut(api.Operations); no != 0 {
		t.Errorf("--path /b: %d not opted in", no)
	}
	res := Import(api, api.Operations[1:], Options{Source: "plain.yaml", MCPNotOptedIn: 1})
	compileConfig(t, res.Config)
	if !slices.Contains(res.Warnings, "1 operation is left out because --mcp-opt-in imports only the operations an MCP extension includes (x-mcp: true).") {
		t.Errorf("warnings %q", res.Warnings)
	}
	rooted := parseDoc(t, strings.Replace(doc, "paths:", "x-mcp: true\npaths:", 1))
	if got := selectedNames(t, rooted, Filter{MCPOptIn: true}); !slices.Equal(got, []string{"get_a", "get_b"}) {
		t.Errorf("x-mcp: true at the root, opt-in: %v", got)
	}
}

const objectDoc = `openapi: 3.0.3
info: {title: Objects, version: "1"}
servers: [{url: https://objects.example.com}]
paths:
  /pets:
    get:
      operationId: listPets
      summary: List pets.
      description: The generated description.
      x-mcp:
        name: find-pets
        description: "Find pets by name.\u0007 Use it before adopting one."
      responses: {"200": {description: ok}}
    post:
      operationId: createPet
      x-mcp: {exclude: true, name: ignored}
      responses: {"200": {description: ok}}
    delete:
      operationId: deletePets
      x-mcp: {disabled: true}
      responses: {"200": {description: ok}}
  /pets/{id}:
    x-mcp: false
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      operationId: getPet
      x-mcp: {exclude: false, name: "find pets"}
      responses: {"200": {description: ok}}
    put:
      operationId: putPet
      x-mcp: {name: "a very long tool name that the document asks for, far too long for clients"}
      responses: {"200": {description: ok}}
    patch:
      operationId: patchPet
      x-mcp: {exclude: false, disabled: true}
      responses: {"200": {description: ok}}
`

// TestMCPExtensionObject: the object form's name (made snake_case,
// unique and at most 40 characters, as generated names are),
// description (replacing the summary and description, cleaned), and
// exclude / disabled (either true leaves the operation out; false
// includes it over its path item's x-mcp: false).
func TestMCPExtensionObject(t *testing.T) {
	api := parseDoc(t, objectDoc)
	ops, err := Filter{}.Select(api.Operations)
	if err != nil {
		t.Fatal(err)
	}
	res := Import(api, ops, Options{Source: "objects.yaml"})
	tbl := compileConfig(t, res.Config)
	out := string(res.Config)
	long := shorten("a_very_long_tool_name_that_the_document_asks_for_far_too_long_for_clients", maxToolName)
	want := []string{"find_pets", "find_pets_2", long}
	if got := toolNames(tbl); !slices.Equal(got, want) {
		t.Errorf("tools %v, want %v\n%s", got, want, out)
	}
	if len(long) > maxToolName {
		t.Errorf("%s is longer than %d", long, maxToolName)
	}
	if d := tbl.Tool("find_pets").Description; d != "Find pets by name. Use it before adopting one." {
		t.Errorf("description %q", d)
	}
	if strings.Contains(out, "generated description") || strings.Contains(out, "ignored") {
		t.Errorf("the generated description or an excluded name is used:\n%s", out)
	}
	if !strings.Contains(comments(string(res.Config)), `it comes from the name "a very long tool name that the document asks for, far too long for clients" of its x-mcp extension.`) {
		t.Errorf("no comment on the abbreviated name:\n%s", out)
	}
	if ex, _, _ := (Filter{}).MCPLeftOut(api.Operations); ex != 3 {
		t.Errorf("%d excluded, want 3 (createPet, deletePets, patchPet)", ex)
	}
}

const speakeasyDoc = `openapi: 3.1.0
info: {title: Speakeasy, version: "1"}
servers: [{url: https://speak.example.com}]
tags: [{name: pets, description: Everything about pets.}]
paths:
  /pets:
    get:
      operationId: listPets
      tags: [pets]
      x-speakeasy-mcp:
        name: list_all_pets
        description: Lists every pet.
        scopes: [read, Pets]
      responses: {"200": {description: ok}}
    post:
      operationId: createPet
      tags: [pets]
      x-speakeasy-mcp: {disabled: true}
      responses: {"200": {description: ok}}
    delete:
      operationId: deletePets
      x-speakeasy-mcp: {disabled: true}
      x-mcp: true
      responses: {"200": {description: ok}}
    put:
      operationId: putPets
      x-speakeasy-mcp: {name: speakeasy_name, description: From Speakeasy., scopes: [write]}
      x-mcp: {name: x_mcp_name, toolsets: [admin]}
      responses: {"200": {description: ok}}
  /health:
    get:
      operationId: health
      x-mcp: {toolsets: [ops, " "]}
      responses: {"200": {description: ok}}
`

// TestMCPExtensionSpeakeasy: x-speakeasy-mcp's disabled, name,
// description and scopes (toolsets); where x-mcp says the same thing,
// x-mcp wins, and the toolsets of both add up.
func TestMCPExtensionSpeakeasy(t *testing.T) {
	api := parseDoc(t, speakeasyDoc)
	if len(api.Warnings) != 0 {
		t.Errorf("warnings %q", api.Warnings)
	}
	ops, err := Filter{MCPOptIn: true}.Select(api.Operations)
	if err != nil {
		t.Fatal(err)
	}
	res := Import(api, ops, Options{Source: "speakeasy.yaml", ToolsetsFromTags: true})
	tbl := compileConfig(t, res.Config)
	if got := toolNames(tbl); !slices.Equal(got, []string{"list_all_pets", "x_mcp_name", "delete_pets", "health"}) {
		t.Errorf("tools %v\n%s", got, res.Config)
	}
	if d := tbl.Tool("list_all_pets").Description; d != "Lists every pet." {
		t.Errorf("description %q", d)
	}
	if d := tbl.Tool("x_mcp_name").Description; d != "From Speakeasy." {
		t.Errorf("x-speakeasy-mcp's description, which x-mcp does not give: %q", d)
	}
	// The tag pets and the scope Pets are one toolset, with the tag's
	// description; the others are named by extensions only.
	if got := tbl.ToolsetNames(); !slices.Equal(got, []string{"pets", "read", "admin", "write", "ops"}) {
		t.Errorf("toolsets %v\n%s", got, res.Config)
	}
	for name, tools := range map[string][]string{
		"pets": {"list_all_pets"}, "read": {"list_all_pets"}, "write": {"x_mcp_name"}, "admin": {"x_mcp_name"}, "ops": {"health"},
	} {
		if got := tbl.Toolset(name).Tools; !slices.Equal(got, tools) {
			t.Errorf("toolset %s: %v, want %v", name, got, tools)
		}
	}
	out := string(res.Config)
	if !strings.Contains(out, `description = "Everything about pets."`) || !strings.Contains(out, `description = "The operations the document's MCP extensions put in \"admin\"."`) {
		t.Errorf("toolset descriptions:\n%s", out)
	}
	// Without --toolsets-from-tags, no toolset.
	if plain := Import(api, ops, Options{Source: "speakeasy.yaml"}).Config; strings.Contains(string(plain), "toolset") {
		t.Errorf("toolsets without the option:\n%s", plain)
	}
}

const malformedDoc = `openapi: 3.0.3
info: {title: Malformed, version: "1"}
servers: [{url: https://bad.example.com}]
x-mcp: "no"
paths:
  /a:
    x-mcp: {name: nope}
    get:
      operationId: getA
      x-mcp: "yes"
      responses: {"200": {description: ok}}
    post:
      operationId: postA
      x-mcp: {name: 5, exclude: true}
      responses: {"200": {description: ok}}
    put:
      operationId: putA
      x-mcp: {toolsets: admin, description: Never used.}
      responses: {"200": {description: ok}}
    delete:
      operationId: deleteA
      x-speakeasy-mcp: true
      responses: {"200": {description: ok}}
    patch:
      operationId: patchA
      x-speakeasy-mcp: {disabled: "true", scopes: [1, 2]}
      x-mcp: [a, b]
      responses: {"200": {description: ok}}
  /b:
    get:
      operationId: getB
      x-mcp: {exclude: null, toolsets: [x, [y]]}
      responses: {"200": {description: ok}}
`

// TestMCPExtensionMalformed: a value of the wrong type, at any level, is
// a warning naming where it is (the operation's method and path) and the
// extension; the operation is imported as if the extension were absent.
// The document still imports and compiles.
func TestMCPExtensionMalformed(t *testing.T) {
	api := parseDoc(t, malformedDoc)
	want := []string{
		`Document root: x-mcp must be true or false here, not the string "no"; it is ignored.`,
		`Path item /a: x-mcp must be true or false here, not an object; it is ignored.`,
		`GET /a: x-mcp must be true, false or an object (name, description, exclude, toolsets), not the string "yes"; it is ignored.`,
		`PUT /a: x-mcp has toolsets the string "admin", which must be a list of strings; it is ignored.`,
		`POST /a: x-mcp has name the number 5, which must be a string; it is ignored.`,
		`DELETE /a: x-speakeasy-mcp must be an object (disabled, name, description, scopes), not true; it is ignored.`,
		`PATCH /a: x-mcp must be true, false or an object (name, description, exclude, toolsets), not a list; it is ignored.`,
		`PATCH /a: x-speakeasy-mcp has disabled the string "true", which must be true or false; it is ignored.`,
		`GET /b: x-mcp has exclude null, which must be true or false; it is ignored.`,
	}
	if !slices.Equal(api.Warnings, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(api.Warnings, "\n"), strings.Join(want, "\n"))
	}
	for _, f := range []Filter{{}} {
		if got := selectedNames(t, api, f); !slices.Equal(got, []string{"get_a", "put_a", "post_a", "delete_a", "patch_a", "get_b"}) {
			t.Errorf("imported %v", got)
		}
	}
	for _, op := range api.Operations {
		if op.MCP.Include != nil || op.MCP.Name != "" || op.MCP.Description != "" || op.MCP.Toolsets != nil {
			t.Errorf("%s %s: hints %+v from malformed extensions", op.Method, op.Path, op.MCP)
		}
	}
	res := Import(api, api.Operations, Options{Source: "malformed.yaml", ToolsetsFromTags: true})
	compileConfig(t, res.Config)
	for _, w := range want {
		if !slices.Contains(res.Warnings, w) || !strings.Contains(comments(string(res.Config)), w) {
			t.Errorf("%q not in the warnings and the header:\n%q\n%s", w, res.Warnings, res.Config)
		}
	}
	if strings.Contains(string(res.Config), "Never used") {
		t.Errorf("a malformed extension's description is used:\n%s", res.Config)
	}
	// With opt-in, nothing is included.
	if got := selectedNames(t, api, Filter{MCPOptIn: true}); len(got) != 0 {
		t.Errorf("opt-in imported %v", got)
	}
}

// TestMCPExtensionSwagger: Swagger 2.0 documents carry the same
// extensions.
func TestMCPExtensionSwagger(t *testing.T) {
	api := parseDoc(t, `swagger: "2.0"
info: {title: Old, version: "1"}
host: old.example.com
x-mcp: false
paths:
  /a:
    get: {operationId: getA, responses: {"200": {description: ok}}}
  /b:
    x-mcp: true
    get: {operationId: getB, responses: {"200": {description: ok}}}
    post: {operationId: postB, x-speakeasy-mcp: {disabled: true}, responses: {"200": {description: ok}}}
  /c:
    get: {operationId: getC, x-mcp: {name: see_c, description: Sees C.}, responses: {"200": {description: ok}}}
    put: {operationId: putC, x-mcp: 1, responses: {"200": {description: ok}}}
`)
	if got := selectedNames(t, api, Filter{}); !slices.Equal(got, []string{"get_b", "see_c"}) {
		t.Errorf("imported %v", got)
	}
	if !slices.Equal(api.Warnings, []string{`PUT /c: x-mcp must be true, false or an object (name, description, exclude, toolsets), not the number 1; it is ignored.`}) {
		t.Errorf("warnings %q", api.Warnings)
	}
	ops, _ := Filter{}.Select(api.Operations)
	tbl := compileConfig(t, Import(api, ops, Options{Source: "old.yaml"}).Config)
	if d := tbl.Tool("see_c").Description; d != "Sees C." {
		t.Errorf("description %q", d)
	}
}

// TestMCPExtensionList: --list shows the tool names the extensions give.
func TestMCPExtensionList(t *testing.T) {
	api := parseDoc(t, objectDoc)
	ops, _ := Filter{}.Select(api.Operations)
	var b strings.Builder
	if err := List(&b, ops); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "find_pets_2") || strings.Contains(b.String(), "create_pet") {
		t.Errorf("list:\n%s", b.String())
	}
}

func toolNames(tbl *table.Table) []string {
	var out []string
	for _, t := range tbl.Tools {
		out = append(out, t.Name)
	}
	return out
}

// TestHostileMCPExtensionText: names, descriptions and toolset names
// from the extensions are document text like any other: escape
// sequences and controls are dropped, template syntax is escaped, names
// are made valid, and the configuration compiles.
func TestHostileMCPExtensionText(t *testing.T) {
	api := parseDoc(t, `openapi: 3.0.3
info: {title: Hostile, version: "1"}
servers: [{url: https://hostile.example.com}]
paths:
  /a:
    get:
      operationId: getA
      x-mcp:
        name: "\e]52;c;aGk=\a${evil} %{ if true }"
        description: "Reads \e[31mA\e[0m ${var.secret} %{ for x in y }\u202e"
        toolsets: ["${x}", "\e[1m", "%%", "dup", "DUP"]
      responses: {"200": {description: ok}}
    post:
      operationId: postA
      x-speakeasy-mcp: {name: "!!!", scopes: ["tools"]}
      responses: {"200": {description: ok}}
`)
	if len(api.Warnings) != 0 {
		t.Errorf("warnings %q", api.Warnings)
	}
	res := Import(api, api.Operations, Options{Source: "hostile.yaml", ToolsetsFromTags: true})
	tbl := compileConfig(t, res.Config)
	out := string(res.Config)
	if strings.ContainsAny(out, "\x1b\x07\u202e") {
		t.Errorf("a control character reached the configuration:\n%q", out)
	}
	if got := toolNames(tbl); !slices.Equal(got, []string{"evil_if_true", "post_a"}) {
		t.Errorf("tools %v", got)
	}
	if d := tbl.Tool("evil_if_true").Description; d != "Reads A ${var.secret} %{ for x in y }" {
		t.Errorf("description %q", d)
	}
	if got := tbl.ToolsetNames(); !slices.Equal(got, []string{"x", "tag", "tag_2", "dup", "tools"}) {
		t.Errorf("toolsets %v\n%s", got, out)
	}
}
