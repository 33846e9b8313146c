package langindex

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// apply returns the files with the edits made.
func apply(files map[string][]byte, edits map[string][]Edit) map[string][]byte {
	out := map[string][]byte{}
	for name, src := range files {
		es := append([]Edit(nil), edits[name]...)
		sort.Slice(es, func(i, j int) bool { return es[i].Range.Start.Byte > es[j].Range.Start.Byte })
		b := append([]byte(nil), src...)
		for _, e := range es {
			b = append(b[:e.Range.Start.Byte], append([]byte(e.NewText), b[e.Range.End.Byte:]...)...)
		}
		out[name] = b
	}
	return out
}

// compiles loads and compiles the files as mcpdecl validate does, tests
// included, and fails on any error: a rename that misses a use leaves an
// unknown name behind.
func compiles(t *testing.T, files map[string][]byte) {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, diags := lang.LoadWith(lang.LoadOptions{Tests: true}, dir)
	if !diags.HasErrors() {
		_, diags = table.Compile(cfg, all.Registry(), table.Options{})
	}
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			t.Errorf("after the rename: %s", d.Error())
		}
	}
}

func TestRename(t *testing.T) {
	files, idx := fixture(t)
	compiles(t, files)
	tests := []struct {
		name    string
		at      spot
		newName string
		// edits counts the edits by file.
		edits map[string]int
		// after holds texts the renamed files must contain.
		after []spot
	}{
		{"tool, with its toolset, limit and test", spot{"main.hcl", `tool "search"`, "search"}, "find_books",
			map[string]int{"main.hcl": 3, "main_test.hcl": 1},
			[]spot{{"main_test.hcl", "call = tool.find_books", ""}, {"main.hcl", `tools = ["find_books"]`, ""}}},
		{"argument, in both languages and the test", spot{"main.hcl", "q = args.query", "query"}, "words",
			map[string]int{"main.hcl": 6, "main_test.hcl": 1},
			[]spot{
				{"main.hcl", `when = "args.words != \"\" && args.limit > 0"`, ""},
				{"main.hcl", `"No book \u00e9\"{{ args.words }}\" in`, ""},
				{"main.hcl", "books for {{ args.words }}", ""},
				{"main_test.hcl", `{ words = "dune"`, ""},
				{"main_test.hcl", `args = { query = "rivers" }`, ""}, // the prompt's query is another
			}},
		{"quoted test key", spot{"main.hcl", `arg "limit"`, "limit"}, "count",
			map[string]int{"main.hcl": 3, "main_test.hcl": 1},
			[]spot{{"main_test.hcl", `"count" = 2`, ""}}},
		{"argument in a URI template", spot{"main.hcl", "args.isbn}", "isbn"}, "code",
			map[string]int{"main.hcl": 4},
			[]spot{{"main.hcl", `"books://{code}{?lang}"`, ""}}},
		{"URI template variable without arg block", spot{"main.hcl", "= args.lang", "lang"}, "language",
			map[string]int{"main.hcl": 3},
			[]spot{{"main.hcl", `{?language}`, ""}, {"main.hcl", `'lang': args.language`, ""}}},
		{"backend, across syntaxes and tests", spot{"main_test.hcl", `mock "api"`, "api"}, "catalog",
			map[string]int{"main.hcl": 4, "main_test.hcl": 2, "json.hcl.json": 1, "json_test.hcl.json": 1, "auth.hcl": 1},
			[]spot{{"json.hcl.json", `"http": { "catalog"`, ""}}},
		{"variable, across files", spot{"more.hcl", "var.base_url", "base_url"}, "api_url",
			map[string]int{"main.hcl": 2, "more.hcl": 1, "json.hcl.json": 1}, nil},
		{"step", spot{"main.hcl", "len(steps.lookup.body)", "lookup"}, "first",
			map[string]int{"main.hcl": 3}, nil},
		{"local", spot{"main.hcl", "page = 20", "page"}, "per_page",
			map[string]int{"main.hcl": 3}, nil},
		{"JSON tool, with its JSON test", spot{"json.hcl.json", `"lookup": {`, "lookup"}, "find_item",
			map[string]int{"json.hcl.json": 1, "json_test.hcl.json": 1},
			[]spot{{"json_test.hcl.json", `"call": "tool.find_item"`, ""}}},
		{"scope", spot{"auth.hcl", `scope "books:read"`, "books:read"}, "books.read",
			map[string]int{"auth.hcl": 4, "main_test.hcl": 1},
			[]spot{{"auth.hcl", `initial_scopes        = ["books.read"]`, ""}}},
		{"claim", spot{"auth.hcl", "{{ auth.claims.tenant }}", "tenant"}, "org",
			map[string]int{"auth.hcl": 4, "main_test.hcl": 1},
			[]spot{{"auth.hcl", "${auth.claims.org}", ""}, {"main_test.hcl", "claims = { org =", ""}}},
		{"question key", spot{"main_test.hcl", `{ agree = {`, "agree"}, "consent",
			map[string]int{"more.hcl": 3, "main_test.hcl": 1},
			[]spot{{"more.hcl", `"answers.consent.content?.ok != true"`, ""}, {"main_test.hcl", `answers = { consent = {`, ""}}},
		{"resource, its URIs left as they are", spot{"more.hcl", `resource "policy"`, "policy"}, "rules",
			map[string]int{"more.hcl": 1},
			[]spot{{"main.hcl", `uri = "library://policy"`, ""}}},
		{"app", spot{"main.hcl", `app "dash"`, "dash"}, "board",
			map[string]int{"main.hcl": 2}, nil},
		{"argument in JSON after escapes", spot{"json.hcl.json", `{{ args.id }}`, "id"}, "item",
			map[string]int{"json.hcl.json": 4, "json_test.hcl.json": 1},
			[]spot{{"json.hcl.json", `"/items/\u0024{args.item}/${args.item}"`, ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			edits, err := idx.Rename(tt.at.file, tt.at.pos(t, files), tt.newName)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			for name, es := range edits {
				got[name] = len(es)
			}
			if !equalCounts(got, tt.edits) {
				t.Errorf("edits by file = %v, want %v", got, tt.edits)
			}
			renamed := apply(files, edits)
			for _, s := range tt.after {
				if !strings.Contains(string(renamed[s.file]), s.context) {
					t.Errorf("%s does not hold %q after the rename:\n%s", s.file, s.context, renamed[s.file])
				}
			}
			compiles(t, renamed)
			// The renamed files index the same: as many uses of the new
			// name as there were of the old.
			again := Build(renamed)
			before := idx.References(tt.at.file, tt.at.pos(t, files), true)
			decl, _ := idx.Definition(tt.at.file, tt.at.pos(t, files))
			after := again.References(decl.Filename, hcl.Pos{Byte: renamedOffset(decl, edits)}, true)
			if len(after) != len(before) {
				t.Errorf("%d references after the rename, %d before", len(after), len(before))
			}
		})
	}
}

// renamedOffset is where the declaration at decl starts after the edits
// of its file: moved by the edits before it.
func renamedOffset(decl hcl.Range, edits map[string][]Edit) int {
	off := decl.Start.Byte
	shift := 0
	for _, e := range edits[decl.Filename] {
		if e.Range.Start.Byte < off {
			shift += len(e.NewText) - (e.Range.End.Byte - e.Range.Start.Byte)
		}
	}
	return off + shift + 1
}

func equalCounts(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestRenameRefused(t *testing.T) {
	files, idx := fixture(t)
	tests := []struct {
		name    string
		at      spot
		newName string
		want    string
	}{
		{"argument with a dash", spot{"main.hcl", `arg "limit"`, "limit"}, "max-items", `"max-items" is not a valid argument name: use letters, digits and '_'`},
		{"argument starting with a digit", spot{"main.hcl", `arg "limit"`, "limit"}, "1st", `"1st" is not a valid argument name`},
		{"tool with a space", spot{"main.hcl", `tool "search"`, "search"}, "find books", `"find books" is not a valid tool name: use an MCP name`},
		{"tool a test names as tool.x", spot{"main.hcl", `tool "search"`, "search"}, "find.books", `"find.books" cannot be written as tool.find.books, as main_test.hcl:2:15 names it`},
		{"argument clashing", spot{"main.hcl", `arg "limit"`, "limit"}, "query", `argument "query" is already declared at main.hcl:16:8; choose another name`},
		{"URI variable clashing", spot{"main.hcl", `{?lang}`, "lang"}, "isbn", `argument "isbn" is already declared at main.hcl:64:8`},
		{"backend clashing with one of another kind", spot{"main.hcl", `backend "http" "api"`, "api"}, "tools", `backend "tools" is already declared at more.hcl:15:18`},
		{"tool clashing across files", spot{"main.hcl", `tool "search"`, "search"}, "other", `tool "other" is already declared at more.hcl:1:7`},
		{"scope with a space", spot{"auth.hcl", `scope "books:read"`, "books:read"}, "books read", `"books read" is not a valid scope name`},
		{"claim with a dash", spot{"auth.hcl", `claim "tenant"`, "tenant"}, "org-id", `"org-id" is not a valid claim name`},
		{"default question key", spot{"more.hcl", `{{ answers.elicit2.action }}`, "elicit2"}, "sure", `the elicit at more.hcl:28:3 has no key attribute, so its key is the default "elicit2": give it key = "sure", then rename`},
		{"a resource at a URI that reads it", spot{"main.hcl", `uri = "library://policy"`, "library://policy"}, "rules", `this URI reads the resource "policy" by its address, not its name; rename the resource at its block`},
		{"toolset with a dot", spot{"main.hcl", `toolset "books"`, "books"}, "my.books", `"my.books" is not a valid toolset name`},
		{"nothing there", spot{"main.hcl", `description = "Find books."`, "description"}, "x", "there is no name to rename here"},
		{"an answer's name", spot{"main.hcl", "status == 404", "status"}, "x", "there is no name to rename here"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			edits, err := idx.Rename(tt.at.file, tt.at.pos(t, files), tt.newName)
			if err == nil {
				t.Fatalf("renamed to %q: %v", tt.newName, edits)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want it to say %q", err, tt.want)
			}
		})
	}
}

func TestRenameUndeclared(t *testing.T) {
	files := map[string][]byte{"a.hcl": []byte("tool \"t\" {\n  result {\n    text = \"{{ args.nope }}\"\n  }\n}\n")}
	idx := Build(files)
	at := spot{"a.hcl", "args.nope", "nope"}
	if _, err := idx.Rename("a.hcl", at.pos(t, files), "yes"); err == nil || !strings.Contains(err.Error(), `argument "nope" is declared nowhere`) {
		t.Errorf("error %v, want one saying the argument is declared nowhere", err)
	}
	if refs := idx.References("a.hcl", at.pos(t, files), true); len(refs) != 1 {
		t.Errorf("references of an undeclared name: %v, want its one use", refs)
	}
}

func TestRenameToItself(t *testing.T) {
	files, idx := fixture(t)
	edits, err := idx.Rename("main.hcl", spot{"main.hcl", `tool "search"`, "search"}.pos(t, files), "search")
	if err != nil || len(edits) != 0 {
		t.Errorf("renaming to the same name: %v, %v; want no edits", edits, err)
	}
}
