package langindex

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

func fixture(t testing.TB) (map[string][]byte, *Index) {
	t.Helper()
	files := readDir(t, "testdata")
	return files, Build(files)
}

// Every kind of name, used in HCL, in expr-lang programs and templates
// (after escapes, in a heredoc), across files, in a test file and in the
// JSON syntax, leads to its declaration.
func TestDefinition(t *testing.T) {
	files, idx := fixture(t)
	tests := []struct {
		name     string
		at, decl spot
	}{
		{"variable", spot{"main.hcl", "base_url = var.base_url", "base_url"}, spot{"main.hcl", `variable "base_url"`, "base_url"}},
		{"variable in another file", spot{"more.hcl", "var.base_url", "base_url"}, spot{"main.hcl", `variable "base_url"`, "base_url"}},
		{"variable in JSON", spot{"json.hcl.json", "${var.base_url}", "base_url"}, spot{"main.hcl", `variable "base_url"`, "base_url"}},
		{"local", spot{"main.hcl", "default = local.page", "page"}, spot{"main.hcl", "page = 20", "page"}},
		{"local in a template", spot{"main.hcl", "${local.page} books", "page"}, spot{"main.hcl", "page = 20", "page"}},
		{"backend of a call", spot{"main.hcl", "http \"api\" {\n      path  = \"/books\"", "api"}, spot{"main.hcl", `backend "http" "api"`, "api"}},
		{"backend of a shell call", spot{"more.hcl", `backend = "tools"`, "tools"}, spot{"more.hcl", `backend "shell" "tools"`, "tools"}},
		{"backend of a mock", spot{"main_test.hcl", `mock "api"`, "api"}, spot{"main.hcl", `backend "http" "api"`, "api"}},
		{"backend of a JSON call", spot{"json.hcl.json", `"http": { "api"`, "api"}, spot{"main.hcl", `backend "http" "api"`, "api"}},
		{"argument in HCL", spot{"main.hcl", "q = args.query", "query"}, spot{"main.hcl", "arg \"query\" {\n    type = string", "query"}},
		{"argument after escapes in expr-lang", spot{"main.hcl", `\"\" && args.limit`, "limit"}, spot{"main.hcl", `arg "limit"`, "limit"}},
		{"argument in a template after escapes", spot{"main.hcl", `\"{{ args.query }}\"`, "query"}, spot{"main.hcl", "arg \"query\" {\n    type = string", "query"}},
		{"argument in a heredoc template", spot{"main.hcl", "books for {{ args.query }}", "query"}, spot{"main.hcl", "arg \"query\" {\n    type = string", "query"}},
		{"argument with a word operator", spot{"main.hcl", "and args.query matches", "query"}, spot{"main.hcl", "arg \"query\" {\n    type = string", "query"}},
		{"argument of a prompt", spot{"main.hcl", "${args.query} in", "query"}, spot{"main.hcl", "arg \"query\" {\n  }", "query"}},
		{"argument of a tool in another file", spot{"more.hcl", `structured = "args.query"`, "query"}, spot{"more.hcl", `arg "query"`, "query"}},
		{"argument in a test's args", spot{"main_test.hcl", `{ query = "dune"`, "query"}, spot{"main.hcl", "arg \"query\" {\n    type = string", "query"}},
		{"quoted argument in a test's args", spot{"main_test.hcl", `"limit" = 2`, "limit"}, spot{"main.hcl", `arg "limit"`, "limit"}},
		{"argument of a prompt in a test", spot{"main_test.hcl", `query = "rivers"`, "query"}, spot{"main.hcl", "arg \"query\" {\n  }", "query"}},
		{"argument in a URI template", spot{"main.hcl", "{isbn}", "isbn"}, spot{"main.hcl", `arg "isbn"`, "isbn"}},
		{"URI template variable without arg block", spot{"main.hcl", "lang = args.lang", "lang"}, spot{"main.hcl", "{?lang}", "lang"}},
		{"URI template variable in expr-lang", spot{"main.hcl", "'lang': args.lang", "lang"}, spot{"main.hcl", "{?lang}", "lang"}},
		{"argument in JSON after a \\u escape", spot{"json.hcl.json", `\u0024{args.id}`, "id"}, spot{"json.hcl.json", `"id": {`, "id"}},
		{"argument in a JSON template", spot{"json.hcl.json", `{{ args.id }}`, "id"}, spot{"json.hcl.json", `"id": {`, "id"}},
		{"step in HCL", spot{"main.hcl", "${steps.lookup.body.id}", "lookup"}, spot{"main.hcl", `step "lookup"`, "lookup"}},
		{"step in a template", spot{"main.hcl", "len(steps.lookup.body)", "lookup"}, spot{"main.hcl", `step "lookup"`, "lookup"}},
		{"app", spot{"main.hcl", `app = "dash"`, "dash"}, spot{"main.hcl", `app "dash"`, "dash"}},
		{"tool in a toolset", spot{"main.hcl", `["search", "other"`, "search"}, spot{"main.hcl", `tool "search"`, "search"}},
		{"tool of another file in a toolset", spot{"main.hcl", `"other", "oth*"`, "other"}, spot{"more.hcl", `tool "other"`, "other"}},
		{"tool in a limit", spot{"main.hcl", `tools = ["search"]`, "search"}, spot{"main.hcl", `tool "search"`, "search"}},
		{"tool called by a test", spot{"main_test.hcl", "tool.search", "search"}, spot{"main.hcl", `tool "search"`, "search"}},
		{"prompt called by a test", spot{"main_test.hcl", "prompt.plan", "plan"}, spot{"main.hcl", `prompt "plan"`, "plan"}},
		{"tool called by a JSON test", spot{"json_test.hcl.json", `"tool.lookup"`, "lookup"}, spot{"json.hcl.json", `"lookup": {`, "lookup"}},
		{"argument in a JSON test's args", spot{"json_test.hcl.json", `{ "id": 7 }`, "id"}, spot{"json.hcl.json", `"id": {`, "id"}},
		{"backend of a JSON mock", spot{"json_test.hcl.json", `"mock": { "api"`, "api"}, spot{"main.hcl", `backend "http" "api"`, "api"}},
		{"scope of a tool", spot{"auth.hcl", `scopes      = ["books:read"]`, "books:read"}, spot{"auth.hcl", `scope "books:read"`, "books:read"}},
		{"scope of a test's token", spot{"main_test.hcl", `scopes = ["books:read"]`, "books:read"}, spot{"auth.hcl", `scope "books:read"`, "books:read"}},
		{"claim in HCL", spot{"auth.hcl", "${auth.claims.tenant}", "tenant"}, spot{"auth.hcl", `claim "tenant"`, "tenant"}},
		{"claim in a template", spot{"auth.hcl", "{{ auth.claims.tenant }}", "tenant"}, spot{"auth.hcl", `claim "tenant"`, "tenant"}},
		{"claim of a static token", spot{"auth.hcl", `{ tenant = "acme" }`, "tenant"}, spot{"auth.hcl", `claim "tenant"`, "tenant"}},
		{"claim of a test's token", spot{"main_test.hcl", `claims = { tenant`, "tenant"}, spot{"auth.hcl", `claim "tenant"`, "tenant"}},
		{"question key in expr-lang", spot{"more.hcl", `"answers.agree.content`, "agree"}, spot{"more.hcl", `key              = "agree"`, "agree"}},
		{"question key in a template", spot{"more.hcl", `{{ answers.agree.action }}`, "agree"}, spot{"more.hcl", `key              = "agree"`, "agree"}},
		{"question key in a test's answers", spot{"main_test.hcl", `{ agree = {`, "agree"}, spot{"more.hcl", `key              = "agree"`, "agree"}},
		{"default question key", spot{"more.hcl", `{{ answers.elicit2.action }}`, "elicit2"}, spot{"more.hcl", "elicit {\n    round", "elicit"}},
		{"default question key in a test", spot{"main_test.hcl", `elicit2 = {`, "elicit2"}, spot{"more.hcl", "elicit {\n    round", "elicit"}},
		{"resource by its URI", spot{"main.hcl", `uri = "library://policy"`, "library://policy"}, spot{"more.hcl", `resource "policy"`, "policy"}},
		{"resource template by a URI it serves", spot{"main_test.hcl", `resource = "books://9780441172719?lang=fr"`, "books://9780441172719?lang=fr"}, spot{"main.hcl", `resource_template "book"`, "book"}},
		{"a declaration is its own", spot{"main.hcl", `toolset "books"`, "books"}, spot{"main.hcl", `toolset "books"`, "books"}},
		{"a limit", spot{"main.hcl", `limit "per_caller"`, "per_caller"}, spot{"main.hcl", `limit "per_caller"`, "per_caller"}},
		{"a JSON block", spot{"json.hcl.json", `"lookup"`, "lookup"}, spot{"json.hcl.json", `"lookup"`, "lookup"}},
		{"a local in JSON", spot{"json.hcl.json", `"json_local"`, "json_local"}, spot{"json.hcl.json", `"json_local"`, "json_local"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := idx.Definition(tt.at.file, tt.at.pos(t, files))
			if !ok {
				t.Fatalf("no definition at %s", textOf(files, tt.at.rng(t, files)))
			}
			if want := tt.decl.rng(t, files); got != want {
				t.Errorf("definition = %s %q, want %s", got, textOf(files, got), want)
			}
		})
	}
}

func TestDefinitionNowhere(t *testing.T) {
	files, idx := fixture(t)
	for _, at := range []spot{
		{"main.hcl", `description = "Find books."`, "description"}, // an attribute name
		{"main.hcl", "status == 404", "status"},                    // an answer's name, declared by no block
		{"main.hcl", `"oth*"`, "oth*"},                             // a pattern
	} {
		if got, ok := idx.Definition(at.file, at.pos(t, files)); ok {
			t.Errorf("%q has a definition at %s", at.context, got)
		}
	}
	if _, ok := idx.Definition("missing.hcl", hcl.Pos{Line: 1, Column: 1}); ok {
		t.Error("a file not in the index has definitions")
	}
}

// References are scoped: the query of one tool is not another's, nor the
// prompt's.
func TestReferences(t *testing.T) {
	files, idx := fixture(t)
	tests := []struct {
		name string
		at   spot
		want []spot
	}{
		{"argument of a tool", spot{"main.hcl", "q = args.query", "query"}, []spot{
			{"main.hcl", "arg \"query\" {\n    type = string", "query"},
			{"main.hcl", `"args.query != `, "query"},
			{"main.hcl", "q = args.query", "query"},
			{"main.hcl", "and args.query matches", "query"},
			{"main.hcl", `\"{{ args.query }}\"`, "query"},
			{"main.hcl", "books for {{ args.query }}", "query"},
			{"main_test.hcl", `{ query = "dune"`, "query"},
		}},
		{"argument of a prompt", spot{"main.hcl", "${args.query} in", "query"}, []spot{
			{"main.hcl", "arg \"query\" {\n  }", "query"},
			{"main.hcl", "${args.query} in", "query"},
			{"main_test.hcl", `query = "rivers"`, "query"},
		}},
		{"argument of a tool in another file", spot{"more.hcl", `arg "query"`, "query"}, []spot{
			{"more.hcl", `arg "query"`, "query"},
			{"more.hcl", `"--", args.query`, "query"},
			{"more.hcl", `structured = "args.query"`, "query"},
		}},
		{"backend", spot{"main.hcl", `backend "http" "api"`, "api"}, []spot{
			{"auth.hcl", `http "api"`, "api"},
			{"json.hcl.json", `"http": { "api"`, "api"},
			{"json_test.hcl.json", `"mock": { "api"`, "api"},
			{"main.hcl", `backend "http" "api"`, "api"},
			{"main.hcl", "http \"api\" {\n      path  = \"/books\"", "api"},
			{"main.hcl", "http \"api\" {\n    path = \"/books/${steps", "api"},
			{"main.hcl", "http \"api\" {\n    path  = \"/books/${args.isbn}", "api"},
			{"main_test.hcl", `mock "api"`, "api"},
			{"main_test.hcl", "mock \"api\" {\n    response {\n      json = { isbn", "api"},
		}},
		{"tool", spot{"main.hcl", `tool "search"`, "search"}, []spot{
			{"main.hcl", `tool "search"`, "search"},
			{"main.hcl", `["search", "other"`, "search"},
			{"main.hcl", `tools = ["search"]`, "search"},
			{"main_test.hcl", "tool.search", "search"},
		}},
		{"variable", spot{"main.hcl", `variable "base_url"`, "base_url"}, []spot{
			{"json.hcl.json", "${var.base_url}", "base_url"},
			{"main.hcl", `variable "base_url"`, "base_url"},
			{"main.hcl", "= var.base_url", "base_url"},
			{"more.hcl", "var.base_url", "base_url"},
		}},
		{"resource, read by URI", spot{"more.hcl", `resource "policy"`, "policy"}, []spot{
			{"main.hcl", `uri = "library://policy"`, "library://policy"},
			{"more.hcl", `resource "policy"`, "policy"},
		}},
		{"step", spot{"main.hcl", `step "lookup"`, "lookup"}, []spot{
			{"main.hcl", `step "lookup"`, "lookup"},
			{"main.hcl", "${steps.lookup.body.id}", "lookup"},
			{"main.hcl", "len(steps.lookup.body)", "lookup"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var want []hcl.Range
			for _, s := range tt.want {
				want = append(want, s.rng(t, files))
			}
			got := idx.References(tt.at.file, tt.at.pos(t, files), true)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("references (-want +got):\n%s", diff)
			}
			withoutDecl := idx.References(tt.at.file, tt.at.pos(t, files), false)
			if len(withoutDecl) != len(want)-1 {
				t.Errorf("without the declaration: %d references, want %d", len(withoutDecl), len(want)-1)
			}
		})
	}
}

func TestNameAt(t *testing.T) {
	files, idx := fixture(t)
	at := spot{"main.hcl", `\"{{ args.query }}\"`, "query"}
	got, ok := idx.NameAt("main.hcl", at.pos(t, files))
	want := Name{Kind: KindArgument, Name: "query", Owner: "tool.search", Range: at.rng(t, files)}
	if !ok || got != want {
		t.Errorf("NameAt = %+v, %v; want %+v", got, ok, want)
	}
	// Given by line and column alone, as a position without its byte.
	byLine := at.pos(t, files)
	byLine.Byte = 0
	if got, ok := idx.NameAt("main.hcl", byLine); !ok || got != want {
		t.Errorf("NameAt by line and column = %+v, %v; want %+v", got, ok, want)
	}
	// Just after the name still finds it (a cursor at the end of a word).
	end := at.rng(t, files).End
	if got, ok := idx.NameAt("main.hcl", end); !ok || got.Name != "query" {
		t.Errorf("NameAt the end of the name = %+v, %v", got, ok)
	}
}
