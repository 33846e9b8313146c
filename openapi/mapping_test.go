package openapi

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/lint"
	"github.com/mcpdecl/mcpdecl/table"
)

// generateDoc parses a document given as text, generates it whole and
// validates the result.
func generateDoc(t *testing.T, name, doc string) string {
	t.Helper()
	api, err := parseBytes(t, name, []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	out := Generate(api, api.Operations, Options{Source: name})
	checkConfig(t, name, out)
	return string(out)
}

// block returns the lines of the first block whose header line contains
// head, up to its closing brace at the same indentation.
func block(t *testing.T, out, head string) string {
	t.Helper()
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if !strings.Contains(l, head) || !strings.HasSuffix(l, "{") {
			continue
		}
		indent := l[:len(l)-len(strings.TrimLeft(l, " "))]
		for j := i + 1; j < len(lines); j++ {
			if lines[j] == indent+"}" {
				return strings.Join(lines[i:j+1], "\n")
			}
		}
	}
	t.Fatalf("no block %q in:\n%s", head, numbered([]byte(out)))
	return ""
}

const tasksDoc = `openapi: VERSION
info: {title: Tasks, version: "1"}
servers: [{url: "https://api.example.com"}]
paths:
  /tasks:
    get:
      operationId: listTasks
      parameters:
        - name: priority
          in: query
          schema: {$ref: '#/components/schemas/Priority', default: low}
      responses: {"200": {description: ok}}
    post:
      operationId: createTask
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [title]
              properties:
                title: {type: string}
                priority: {$ref: '#/components/schemas/Priority', default: normal, description: How urgent.}
      responses: {"200": {description: ok}}
components:
  schemas:
    Priority: {type: string, enum: [low, normal, high], description: The priority.}
`

// TestRefSiblings31: in OpenAPI 3.1 a $ref's sibling keywords apply
// together with the referenced schema; the result is the 3.0.3 one.
func TestRefSiblings31(t *testing.T) {
	v30 := generateDoc(t, "tasks30.yaml", strings.Replace(tasksDoc, "VERSION", "3.0.3", 1))
	v31 := generateDoc(t, "tasks31.yaml", strings.Replace(tasksDoc, "VERSION", "3.1.0", 1))
	prop := block(t, v31, `property "priority"`)
	for _, want := range []string{`type        = string`, `description = "How urgent."`, `default     = "normal"`, `enum        = ["low", "normal", "high"]`} {
		if !strings.Contains(prop, want) {
			t.Errorf("3.1: the property lacks %s:\n%s", want, prop)
		}
	}
	arg := block(t, v31, `arg "priority"`)
	if !strings.Contains(arg, `default     = "low"`) || !strings.Contains(arg, "type        = string") {
		t.Errorf("3.1: the parameter lost its reference or its default:\n%s", arg)
	}
	body30 := v30[strings.Index(v30, "server {"):]
	body31 := v31[strings.Index(v31, "server {"):]
	if body30 != body31 {
		t.Errorf("3.1 and 3.0.3 differ:\n%s", firstDiff(body30, body31))
	}
}

// TestToolNamesFitLint: generated tool names are abbreviated to lint's
// limit (no MCPD201), the same each time, told apart by a suffix when
// two abbreviate alike, and each abbreviated tool names its operationId.
func TestToolNamesFitLint(t *testing.T) {
	ids := []string{
		"actions/set-selected-repositories-enabled-github-actions-organization",
		"actions_set_selected_repositories_enabled_github_actions_organization",
		"copilot/copilot-enterprise-one-day-usage-metrics",
		"repos/create-or-update-environment-secret-for-authenticated-user",
		"shortName",
	}
	var doc strings.Builder
	doc.WriteString("openapi: 3.0.3\ninfo: {title: Long, version: '1'}\nservers: [{url: 'https://api.example.com'}]\npaths:\n")
	for i, id := range ids {
		fmt.Fprintf(&doc, "  /p%d:\n    get:\n      operationId: %s\n      responses: {'200': {description: ok}}\n", i, id)
	}
	fmt.Fprintf(&doc, "  /a-very-long-path-without-any-operation-id/{and_a_parameter}/with-more-segments:\n    delete:\n      parameters: [{name: and_a_parameter, in: path, required: true, schema: {type: string}}]\n      responses: {'204': {description: ok}}\n")
	out := generateDoc(t, "long.yaml", doc.String())
	if again := generateDoc(t, "long.yaml", doc.String()); again != out {
		t.Fatalf("two imports differ:\n%s", firstDiff(out, again))
	}
	cfg, diags := lang.Load(writeTemp(t, out))
	tbl, d := table.Compile(cfg, all.Registry(), table.Options{})
	diags = append(diags, d...)
	for _, d := range append(diags, lint.Check(cfg, tbl)...) {
		if lint.CodeOf(d) == lint.CodeLongName {
			t.Errorf("lint: %s", d.Error())
		}
	}
	seen := map[string]bool{}
	for _, tool := range cfg.Tools {
		if len(tool.Name) > maxToolName || seen[tool.Name] {
			t.Errorf("tool name %q is longer than %d or repeated", tool.Name, maxToolName)
		}
		seen[tool.Name] = true
	}
	for _, want := range []string{
		`tool "actions_set_selec_repos_enabl_github_org"`,
		`tool "actions_set_selec_repos_enabl_git_org_2"`,
		`tool "copilot_ent_one_day_usage_metrics"`,
		`tool "short_name"`,
		`"repos/create-or-update-environment-secret-for-authenticated-user"`,
		`# "/a-very-long-path-without-any-operation-id/{and_a_parameter}/with-more-segments".`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %s:\n%s", want, numbered([]byte(out)))
		}
	}
	api, err := parseBytes(t, "long.yaml", []byte(doc.String()))
	if err != nil {
		t.Fatal(err)
	}
	var list strings.Builder
	if err := List(&list, api.Operations); err != nil {
		t.Fatal(err)
	}
	for _, tool := range cfg.Tools {
		if !strings.Contains(list.String(), tool.Name+" ") {
			t.Errorf("--list does not show the tool name %s:\n%s", tool.Name, list.String())
		}
	}
}

// comments joins the comment lines of out into one text, as written
// before they were wrapped.
func comments(out string) string {
	var parts []string
	for _, l := range strings.Split(out, "\n") {
		if c, ok := strings.CutPrefix(strings.TrimSpace(l), "# "); ok {
			parts = append(parts, c)
		}
	}
	return strings.Join(parts, " ")
}

func writeTemp(t *testing.T, out string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "import.hcl")
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

const keysDoc = `openapi: 3.0.3
info: {title: Keys, version: "1"}
paths:
  /a:
    get: {operationId: getA, responses: {"200": {description: ok}}}
  /b:
    get: {operationId: getB, deprecated: true, responses: {"200": {description: ok}}}
  /c:
    get: {operationId: getC, deprecated: true, responses: {"200": {description: ok}}}
security: [{key: []}]
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: authorization}
`

// TestImportWarnings: what a reader must do before serving is said in
// the configuration and as warnings: the scheme word an Authorization
// API key needs, how to give base_url when the document names no
// server, and how many deprecated operations were left out.
func TestImportWarnings(t *testing.T) {
	api, err := parseBytes(t, "keys.yaml", []byte(keysDoc))
	if err != nil {
		t.Fatal(err)
	}
	f := Filter{}
	ops, err := f.Select(api.Operations)
	if err != nil {
		t.Fatal(err)
	}
	n, err := f.DeprecatedLeftOut(api.Operations)
	if err != nil || n != 2 {
		t.Fatalf("DeprecatedLeftOut: %d, %v; want 2", n, err)
	}
	res := Import(api, ops, Options{Source: "keys.yaml", DeprecatedLeftOut: n})
	checkConfig(t, "keys.yaml", res.Config)
	out := string(res.Config)
	warnings := strings.Join(res.Warnings, "\n")
	for _, c := range []struct{ where, want string }{
		{comments(out), "2 operations the document marks deprecated are left out; add --deprecated to import them too."},
		{warnings, "2 operations the document marks deprecated are left out; add --deprecated to import them too."},
		{comments(block(t, out, `backend "http"`)), `base_url has no default (the document names no server): give it when serving, with --var base_url=https://api.example.com or the environment variable MCPDECL_VAR_base_url.`},
		{warnings, "base_url has no default (the document names no server): give it when serving, with --var base_url=https://api.example.com or the environment variable MCPDECL_VAR_base_url."},
		{comments(block(t, out, `backend "http"`)), `sends KEYS_API_KEY as the whole Authorization header: its value must include the scheme word the API expects, e.g. KEYS_API_KEY="Bearer <token>" or KEYS_API_KEY="token <token>"`},
		{warnings, `its value must include the scheme word the API expects, e.g. KEYS_API_KEY="Bearer <token>" or KEYS_API_KEY="token <token>"`},
	} {
		if !strings.Contains(c.where, c.want) {
			t.Errorf("missing %q in:\n%s", c.want, c.where)
		}
	}
	if len(res.Warnings) != 3 {
		t.Errorf("%d warnings, want 3:\n%s", len(res.Warnings), warnings)
	}

	// With a server, a bearer scheme and --deprecated, nothing to warn.
	calm := strings.Replace(keysDoc, "paths:", "servers: [{url: 'https://api.example.com'}]\npaths:", 1)
	calm = strings.Replace(calm, "{type: apiKey, in: header, name: authorization}", "{type: http, scheme: bearer}", 1)
	api, err = parseBytes(t, "calm.yaml", []byte(calm))
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := (Filter{Deprecated: true}).DeprecatedLeftOut(api.Operations); n != 0 {
		t.Errorf("DeprecatedLeftOut with --deprecated: %d", n)
	}
	res = Import(api, api.Operations, Options{Source: "calm.yaml"})
	if len(res.Warnings) > 0 {
		t.Errorf("warnings for a document that needs none: %q", res.Warnings)
	}
	if s := string(res.Config); strings.Contains(s, "deprecated are left out") || strings.Contains(s, "base_url has no default") {
		t.Errorf("a comment for a document that needs none:\n%s", s)
	}
}

const petsDoc = `openapi: 3.1.0
info: {title: Pets, version: "1"}
servers: [{url: "https://api.example.com"}]
paths:
  /pets/{id}:
    patch:
      operationId: updatePet
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer, minimum: 1}}
        - {name: tags, in: query, style: form, explode: false, schema: {type: array, items: {type: string}}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              oneOf:
                - $ref: '#/components/schemas/Cat'
                - $ref: '#/components/schemas/Dog'
      responses: {"200": {description: ok}}
  /things:
    post:
      operationId: addThing
      requestBody:
        content:
          application/json:
            schema:
              anyOf:
                - {type: string, minLength: 1}
                - {type: array, items: {type: string}}
      responses: {"200": {description: ok}}
components:
  schemas:
    Cat:
      type: object
      required: [pet_type, hunts]
      properties:
        pet_type: {type: string, enum: [cat]}
        hunts: {type: boolean}
    Dog:
      type: object
      required: [pet_type]
      properties:
        pet_type: {type: string, const: dog}
        bark: {type: string, enum: [soft, loud]}
        id: {type: integer, readOnly: true}
`

// TestOneOfBodies: a oneOf or anyOf request body keeps its alternatives:
// the tool's arguments are an input_schema that lists them, and the
// compiled tool accepts each alternative and refuses what fits none.
func TestOneOfBodies(t *testing.T) {
	out := generateDoc(t, "pets.yaml", petsDoc)
	update := block(t, out, `tool "update_pet"`)
	for _, want := range []string{"input_schema = {", "oneOf = [", `pet_type = { type = "string", enum = ["cat"] }`, `= ["pet_type", "hunts"]`, `= ["id", "body"]`} {
		if !strings.Contains(update, want) {
			t.Errorf("update_pet lacks %s:\n%s", want, update)
		}
	}
	if strings.Contains(update, "readOnly") || strings.Contains(update, `id = { type = "integer" }`) {
		t.Errorf("update_pet sends a read-only field:\n%s", update)
	}
	if add := block(t, out, `tool "add_thing"`); !strings.Contains(add, "anyOf = [") {
		t.Errorf("add_thing lacks its anyOf:\n%s", add)
	}
	cfg, diags := lang.Load(writeTemp(t, out))
	tbl, d := table.Compile(cfg, all.Registry(), table.Options{})
	if diags = append(diags, d...); diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, c := range []struct {
		tool string
		args string
		ok   bool
	}{
		{"update_pet", `{"id": 1, "body": {"pet_type": "cat", "hunts": true}}`, true},
		{"update_pet", `{"id": 1, "tags": ["a"], "body": {"pet_type": "dog", "bark": "loud"}}`, true},
		{"update_pet", `{"id": 1, "body": {"pet_type": "cat"}}`, false},
		{"update_pet", `{"id": 1, "body": {"pet_type": "dog", "bark": "howl"}}`, false},
		{"update_pet", `{"id": 0, "body": {"pet_type": "dog"}}`, false},
		{"update_pet", `{"id": 1}`, false},
		{"add_thing", `{"body": "x"}`, true},
		{"add_thing", `{"body": ["x", "y"]}`, true},
		{"add_thing", `{}`, true},
		{"add_thing", `{"body": 5}`, false},
		{"add_thing", `{"body": ""}`, false},
	} {
		tool := tbl.Tool(c.tool)
		if tool == nil {
			t.Fatalf("no tool %s", c.tool)
		}
		if _, err := tool.Args.Validator(); err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal([]byte(c.args), &v); err != nil {
			t.Fatal(err)
		}
		if err := tool.Args.Validate(v); (err == nil) != c.ok {
			t.Errorf("%s %s: accepted %v, want %v (%v)", c.tool, c.args, err == nil, c.ok, err)
		}
	}
}

// TestOneOfBodyDeep: a oneOf body nested 40 objects deep is written
// to a bounded depth, and validates.
func TestOneOfBodyDeep(t *testing.T) {
	deep := string(deepBodies(40))
	at := strings.Index(deep, `"schema":`) + len(`"schema":`)
	deep = deep[:at] + `{"oneOf":[{"type":"string"},` + deep[at:len(deep)-7] + `]}` + deep[len(deep)-7:]
	out := generateDoc(t, "deep.json", deep)
	if !strings.Contains(out, "input_schema") || !strings.Contains(out, fmt.Sprintf("Nested deeper than %d levels", maxJSONDepth)) {
		t.Errorf("the deep oneOf body is not cut:\n%s", numbered([]byte(out)))
	}
	if len(out) > 20000 {
		t.Errorf("%d bytes for one tool", len(out))
	}
}
