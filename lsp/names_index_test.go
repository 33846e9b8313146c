package lsp

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
	"github.com/mcpdecl/mcpdecl/testrun"
)

// shelf is a configuration in three files: the server with a toolset
// that lists the tool, the tool, and its test. The tool's result reads
// args.query after an emoji, which takes two UTF-16 units.
var shelf = map[string]string{
	"server.hcl": `server {
  name    = "shelf"
  version = "1.0.0"
}

backend "http" "catalog" {
  base_url = "http://127.0.0.1:3000"
}

toolset "reading" {
  tools = ["search"]
}
`,
	"tools.hcl": `tool "search" {
  description = "Find books by words from the title."
  arg "query" {
    type        = string
    description = "Words from the title."
  }
  http "catalog" {
    method = "GET"
    path   = "/books"
    query  = { q = args.query }
  }
  result {
    text = "'😀 ' + args.query + string(len(body))"
  }
}
`,
	"shelf_test.hcl": `test "search finds dune" {
  call = tool.search
  args = { query = "dune" }
  mock "catalog" {
    response {
      json = []
    }
  }
}
`,
}

func newNameServer() *Server { return &Server{Debounce: 5 * time.Millisecond, Index: NewNameIndex()} }

// position is a request's textDocument and position.
func posParams(uri string, p Position) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": p}
}

// wordRange is the range of the first occurrence of word after marker.
func wordRange(t *testing.T, src, marker, word string) Range {
	t.Helper()
	i := strings.Index(src, marker)
	j := strings.Index(src[max(i, 0):], word)
	if i < 0 || j < 0 {
		t.Fatalf("%q then %q not in the text", marker, word)
	}
	tx := newText(src)
	return Range{Start: tx.position(i + j), End: tx.position(i + j + len(word))}
}

func TestInitializeNamesTheIndexCapabilities(t *testing.T) {
	c := startClient(t, newNameServer())
	caps := c.initialize()
	for _, k := range []string{"definitionProvider", "referencesProvider", "renameProvider", "semanticTokensProvider"} {
		if caps[k] == nil {
			t.Errorf("initialize does not announce %s: %v", k, caps)
		}
	}
	legend := caps["semanticTokensProvider"].(map[string]any)["legend"].(map[string]any)
	if len(legend["tokenTypes"].([]any)) != len(tokenTypes) {
		t.Errorf("legend %v", legend)
	}
}

func TestDefinitionOfAnArgInAnExprStringIsItsArgBlock(t *testing.T) {
	dir := folder(t, shelf)
	c := startClient(t, newNameServer())
	c.initialize()
	src := shelf["tools.hcl"]
	uri := c.open(filepath.Join(dir, "tools.hcl"), src)
	var loc location
	c.call("textDocument/definition", posParams(uri, at(t, src, "+ args.query", 8)), &loc)
	want := wordRange(t, src, `arg "`, "query")
	if loc.URI != uri || loc.Range != want {
		t.Errorf("definition %+v, want %s %+v", loc, uri, want)
	}
	// From the test file, not open: the tool's label in tools.hcl.
	testURI := pathToURI(filepath.Join(dir, "shelf_test.hcl"))
	c.call("textDocument/definition", posParams(testURI, at(t, shelf["shelf_test.hcl"], "tool.search", 6)), &loc)
	if want := wordRange(t, src, `tool "`, "search"); loc.URI != uri || loc.Range != want {
		t.Errorf("definition from the test %+v, want %+v", loc, want)
	}
	var none json.RawMessage
	c.call("textDocument/definition", posParams(uri, Position{Line: 1, Character: 2}), &none)
	if string(none) != "null" {
		t.Errorf("definition on an attribute name: %s, want null", none)
	}
}

func TestReferencesAcrossTwoFilesAndATestFile(t *testing.T) {
	dir := folder(t, shelf)
	c := startClient(t, newNameServer())
	c.initialize()
	src := shelf["tools.hcl"]
	uri := c.open(filepath.Join(dir, "tools.hcl"), src)
	params := posParams(uri, at(t, src, `tool "search"`, 7))
	params["context"] = map[string]any{"includeDeclaration": true}
	var locs []location
	c.call("textDocument/references", params, &locs)
	want := []location{
		{pathToURI(filepath.Join(dir, "server.hcl")), wordRange(t, shelf["server.hcl"], "tools", "search")},
		{pathToURI(filepath.Join(dir, "shelf_test.hcl")), wordRange(t, shelf["shelf_test.hcl"], "tool.", "search")},
		{uri, wordRange(t, src, `tool "`, "search")},
	}
	sortByURI(locs)
	sortByURI(want)
	if !slices.Equal(locs, want) {
		t.Errorf("references\n got %+v\nwant %+v", locs, want)
	}
	params["context"] = map[string]any{"includeDeclaration": false}
	c.call("textDocument/references", params, &locs)
	if len(locs) != 2 || slices.ContainsFunc(locs, func(l location) bool { return l.URI == uri }) {
		t.Errorf("references without the declaration: %+v", locs)
	}
}

func sortByURI(ls []location) {
	sort.Slice(ls, func(i, j int) bool { return ls[i].URI < ls[j].URI })
}

func TestRenameOfAToolAcrossFilesValidates(t *testing.T) {
	dir := folder(t, shelf)
	c := startClient(t, newNameServer())
	c.initialize()
	src := shelf["tools.hcl"]
	uri := c.open(filepath.Join(dir, "tools.hcl"), src)
	params := posParams(uri, at(t, src, `tool "search"`, 8))
	params["newName"] = "find_books"
	var edit workspaceEdit
	c.call("textDocument/rename", params, &edit)
	if len(edit.Changes) != 3 {
		t.Fatalf("rename changes %d files, want 3: %+v", len(edit.Changes), edit.Changes)
	}
	renamed := map[string]string{}
	for name, text := range shelf {
		renamed[name] = applyClientEdits(t, text, edit.Changes[pathToURI(filepath.Join(dir, name))])
	}
	for name, want := range map[string]string{"tools.hcl": `tool "find_books"`, "server.hcl": `tools = ["find_books"]`,
		"shelf_test.hcl": "call = tool.find_books"} {
		if !strings.Contains(renamed[name], want) {
			t.Errorf("%s lacks %q after the rename:\n%s", name, want, renamed[name])
		}
	}
	validatesLikeValidate(t, folder(t, renamed))
}

// validates loads dir with its tests, compiles it and checks its tests
// against the tools, as mcpdecl validate does.
func validatesLikeValidate(t *testing.T, dir string) {
	t.Helper()
	cfg, diags := lang.LoadWith(lang.LoadOptions{Tests: true}, dir)
	if diags.HasErrors() {
		t.Fatalf("load: %v", diags)
	}
	tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
	if diags.HasErrors() {
		t.Fatalf("compile: %v", diags)
	}
	if _, diags := testrun.Check(cfg, tbl); diags.HasErrors() {
		t.Fatalf("tests: %v", diags)
	}
}

// applyClientEdits applies a file's edits, read in UTF-16 units as a client
// reads them, from the last to the first.
func applyClientEdits(t *testing.T, src string, edits []textEdit) string {
	t.Helper()
	sort.Slice(edits, func(i, j int) bool {
		a, b := edits[i].Range.Start, edits[j].Range.Start
		return a.Line > b.Line || a.Line == b.Line && a.Character > b.Character
	})
	lines := strings.Split(src, "\n")
	for _, e := range edits {
		if e.Range.Start.Line != e.Range.End.Line {
			t.Fatalf("a rename edit spans lines: %+v", e)
		}
		u := utf16.Encode([]rune(lines[e.Range.Start.Line]))
		lines[e.Range.Start.Line] = string(utf16.Decode(u[:e.Range.Start.Character])) + e.NewText +
			string(utf16.Decode(u[e.Range.End.Character:]))
	}
	return strings.Join(lines, "\n")
}

func TestTheOriginalConfigurationValidates(t *testing.T) {
	validatesLikeValidate(t, folder(t, shelf))
}

func TestRenameOfAnArgInAnExprStringAfterAnEmoji(t *testing.T) {
	dir := folder(t, shelf)
	c := startClient(t, newNameServer())
	c.initialize()
	src := shelf["tools.hcl"]
	uri := c.open(filepath.Join(dir, "tools.hcl"), src)
	params := posParams(uri, at(t, src, "+ args.query", 9))
	params["newName"] = "words"
	var edit workspaceEdit
	c.call("textDocument/rename", params, &edit)
	renamed := maps.Clone(shelf)
	for name := range renamed {
		renamed[name] = applyClientEdits(t, renamed[name], edit.Changes[pathToURI(filepath.Join(dir, name))])
	}
	for _, want := range []string{`arg "words"`, `q = args.words`, `'😀 ' + args.words +`} {
		if !strings.Contains(renamed["tools.hcl"], want) {
			t.Errorf("tools.hcl lacks %q after the rename:\n%s", want, renamed["tools.hcl"])
		}
	}
	if !strings.Contains(renamed["shelf_test.hcl"], "args = { words = ") {
		t.Errorf("the test's args after the rename:\n%s", renamed["shelf_test.hcl"])
	}
	validatesLikeValidate(t, folder(t, renamed))
}

func TestPrepareRenameAndRefusals(t *testing.T) {
	dir := folder(t, shelf)
	c := startClient(t, newNameServer())
	c.initialize()
	src := shelf["tools.hcl"]
	uri := c.open(filepath.Join(dir, "tools.hcl"), src)
	var prep struct {
		Range       Range  `json:"range"`
		Placeholder string `json:"placeholder"`
	}
	c.call("textDocument/prepareRename", posParams(uri, at(t, src, "+ args.query", 10)), &prep)
	if want := wordRange(t, src, "+ args.", "query"); prep.Range != want || prep.Placeholder != "query" {
		t.Errorf("prepareRename %+v, want query at %+v", prep, want)
	}
	m := c.await(c.send("textDocument/prepareRename", posParams(uri, Position{Line: 1, Character: 3})))
	if m.Error == nil || m.Error.Code != codeRequestFailed || !strings.Contains(m.Error.Message, "no name to rename") {
		t.Errorf("prepareRename on description: %+v %s", m.Error, m.Result)
	}
	params := posParams(uri, at(t, src, `tool "search"`, 8))
	params["newName"] = "find books"
	m = c.await(c.send("textDocument/rename", params))
	if m.Error == nil || m.Error.Code != codeRequestFailed || !strings.Contains(m.Error.Message, "MCP name") {
		t.Errorf("rename to a name with a space: %+v %s", m.Error, m.Result)
	}
}

// decodedToken is one semantic token as a client reads it.
type decodedToken struct {
	text, typ string
	mods      []string
}

// decodeTokens reads the data of a semantic tokens answer against src
// the way the protocol defines it, in UTF-16 units.
func decodeTokens(t *testing.T, src string, data []int) []decodedToken {
	t.Helper()
	if len(data)%5 != 0 {
		t.Fatalf("%d integers, not a multiple of 5", len(data))
	}
	lines := strings.Split(src, "\n")
	var out []decodedToken
	line, start := 0, 0
	for i := 0; i < len(data); i += 5 {
		if data[i] > 0 {
			start = 0
		}
		line += data[i]
		start += data[i+1]
		u := utf16.Encode([]rune(lines[line]))
		tok := decodedToken{text: string(utf16.Decode(u[start : start+data[i+2]])), typ: tokenTypes[data[i+3]]}
		for bit, name := range tokenModifiers {
			if data[i+4]&(1<<bit) != 0 {
				tok.mods = append(tok.mods, name)
			}
		}
		out = append(out, tok)
	}
	return out
}

func TestSemanticTokensDecodeToTheirNames(t *testing.T) {
	dir := folder(t, shelf)
	c := startClient(t, newNameServer())
	c.initialize()
	src := shelf["tools.hcl"]
	uri := c.open(filepath.Join(dir, "tools.hcl"), src)
	var res struct {
		Data []int `json:"data"`
	}
	c.call("textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": uri}}, &res)
	toks := decodeTokens(t, src, res.Data)
	for _, want := range []decodedToken{
		{text: "'😀 '", typ: "string"},
		{text: "args", typ: "variable"},
		{text: "query", typ: "parameter"},
		{text: "string", typ: "function", mods: []string{"defaultLibrary"}},
		{text: "len", typ: "function", mods: []string{"defaultLibrary"}},
		{text: "body", typ: "variable"},
	} {
		if !slices.ContainsFunc(toks, func(d decodedToken) bool {
			return d.text == want.text && d.typ == want.typ && slices.Equal(d.mods, want.mods)
		}) {
			t.Errorf("no token %+v in %+v", want, toks)
		}
	}
}

func TestUnsavedEditsAreSeen(t *testing.T) {
	dir := folder(t, shelf)
	c := startClient(t, newNameServer())
	c.initialize()
	src := shelf["tools.hcl"]
	path := filepath.Join(dir, "tools.hcl")
	uri := c.open(path, src)
	var loc location
	c.call("textDocument/definition", posParams(uri, at(t, src, "+ args.query", 8)), &loc)

	// Unsaved: the arg becomes "words", its uses too, in one change.
	edited := strings.ReplaceAll(src, "query", "words")
	edited = strings.Replace(edited, "q = args.words", "query = args.words", 1)
	c.change(uri, 2, contentChange{Text: edited})
	c.call("textDocument/definition", posParams(uri, at(t, edited, "+ args.words", 8)), &loc)
	if want := wordRange(t, edited, `arg "`, "words"); loc.Range != want {
		t.Errorf("definition after the change %+v, want %+v", loc, want)
	}
	// The test file, open unsaved with the new key, and the server file
	// still on disk: a rename sees both.
	testPath := filepath.Join(dir, "shelf_test.hcl")
	testSrc := strings.Replace(shelf["shelf_test.hcl"], "query =", "words =", 1)
	testURI := c.open(testPath, testSrc)
	params := posParams(uri, at(t, edited, `arg "words"`, 6))
	params["newName"] = "terms"
	var edit workspaceEdit
	c.call("textDocument/rename", params, &edit)
	if got := applyClientEdits(t, testSrc, edit.Changes[testURI]); !strings.Contains(got, "terms = ") {
		t.Errorf("the open test file after the rename:\n%s", got)
	}
	if got := applyClientEdits(t, edited, edit.Changes[uri]); strings.Count(got, "terms") != 3 {
		t.Errorf("tools.hcl after the rename:\n%s", got)
	}
	// A file saved on disk after the first request is read again.
	if err := os.WriteFile(filepath.Join(dir, "server.hcl"), []byte(strings.Replace(shelf["server.hcl"], `["search"]`, `["search", "search"]`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	refs := posParams(uri, at(t, edited, `tool "search"`, 7))
	refs["context"] = map[string]any{"includeDeclaration": false}
	var locs []location
	c.call("textDocument/references", refs, &locs)
	if len(locs) != 3 {
		t.Errorf("references after server.hcl changed on disk: %+v", locs)
	}
}

func TestClosedConfigurationsAreForgotten(t *testing.T) {
	one, two := folder(t, shelf), folder(t, shelf)
	s := newNameServer()
	c := startClient(t, s)
	c.initialize()
	src := shelf["tools.hcl"]
	where := at(t, src, "+ args.query", 8)
	first := c.open(filepath.Join(one, "tools.hcl"), src)
	var loc location
	c.call("textDocument/definition", posParams(first, where), &loc)
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": first}})
	second := c.open(filepath.Join(two, "tools.hcl"), src)
	c.call("textDocument/definition", posParams(second, where), &loc)
	cache := &s.Index.(*NameIndex).cache
	cache.mu.Lock()
	defer cache.mu.Unlock()
	if len(cache.configs) != 1 || cache.configs[two] == nil {
		t.Errorf("indexes kept for %v, want %s alone", slices.Collect(maps.Keys(cache.configs)), two)
	}
}

// TestConcurrentNameRequestsDuringEdits sends requests without waiting
// while the file changes: each answers from one consistent index (run
// with -race, the cache's sharing is checked too).
func TestConcurrentNameRequestsDuringEdits(t *testing.T) {
	dir := folder(t, shelf)
	c := startClient(t, newNameServer())
	c.initialize()
	src := shelf["tools.hcl"]
	uri := c.open(filepath.Join(dir, "tools.hcl"), src)
	where := at(t, src, "+ args.query", 8)
	end := newText(src).position(len(src))
	var ids []string
	for i := range 20 {
		c.change(uri, i+2, contentChange{Range: &Range{Start: end, End: end}, Text: "#"})
		end.Character++
		ids = append(ids, c.send("textDocument/definition", posParams(uri, where)))
		ids = append(ids, c.send("textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": uri}}))
	}
	want := wordRange(t, src, `arg "`, "query")
	for i, id := range ids {
		m := c.await(id)
		if m.Error != nil {
			t.Fatalf("request %s: %v", id, m.Error)
		}
		var loc location
		if i%2 == 0 && (json.Unmarshal(m.Result, &loc) != nil || loc.Range != want) {
			t.Errorf("definition %s: %s, want %+v", id, m.Result, want)
		}
	}
}

// TestNamesInTheJSONSyntax renames an argument of a .hcl.json file whose
// strings escape: each edit lands on the name as written, in UTF-16
// units after a "é".
func TestNamesInTheJSONSyntax(t *testing.T) {
	src := `{
  "tool": {
    "lookup": {
      "description": "é \u00e9 finds an item.",
      "arg": { "id": { "type": "integer" } },
      "error": [
        { "when": "status == 404", "message": "No \"é\" {{ args.id }}." }
      ]
    }
  }
}
`
	dir := folder(t, map[string]string{"items.hcl.json": src})
	c := startClient(t, newNameServer())
	c.initialize()
	uri := c.open(filepath.Join(dir, "items.hcl.json"), src)
	var loc location
	c.call("textDocument/definition", posParams(uri, at(t, src, "args.id", 6)), &loc)
	if want := wordRange(t, src, `"arg": { "`, "id"); loc.Range != want {
		t.Errorf("definition %+v, want %+v", loc, want)
	}
	params := posParams(uri, at(t, src, "args.id", 5))
	params["newName"] = "item_id"
	var edit workspaceEdit
	c.call("textDocument/rename", params, &edit)
	got := applyClientEdits(t, src, edit.Changes[uri])
	for _, want := range []string{`"arg": { "item_id": {`, `"No \"é\" {{ args.item_id }}."`} {
		if !strings.Contains(got, want) {
			t.Errorf("after the rename, no %s in\n%s", want, got)
		}
	}
}
