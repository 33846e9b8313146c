package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/lang"
)

type completionList struct {
	Items []completionItem `json:"items"`
}

func labels(items []completionItem) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Label)
	}
	slices.Sort(out)
	return out
}

// complete opens src with "|" marking the cursor (the bar removed) and
// returns the labels completion offers there.
func complete(t *testing.T, c *client, path, src string) ([]string, []completionItem) {
	t.Helper()
	i := strings.Index(src, "|")
	src = src[:i] + src[i+1:]
	uri := c.open(path, src)
	var list completionList
	c.call("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uri},
		"position": newText(src).position(i)}, &list)
	return labels(list.Items), list.Items
}

func TestCompletionOfArgsInACallBlockAndInAnExprString(t *testing.T) {
	dir := t.TempDir()
	c := startClient(t, newServer())
	c.initialize()
	withSecondArg := strings.Replace(books, `  step "lookup" {`, `  arg "limit" {
    type        = number
    description = "How many books at most."
  }
  step "lookup" {`, 1)
	cases := map[string]string{
		// typing a new attribute of the call block: the line does not parse
		"call block": strings.Replace(withSecondArg, "    path   = \"/books\"\n    query", "    path   = \"/books\"\n    body = args.|\n    query", 1),
		// an expr-lang program in a string
		"expr string": strings.Replace(withSecondArg, `text = "string(len(body))"`, `text = "string(len(body)) + args.q|"`, 1),
		// a {{ }} template in a string
		"template": strings.Replace(withSecondArg, `text = "string(len(body))"`, `text = "Found {{ args.|"`, 1),
	}
	for name, src := range cases {
		got, items := complete(t, c, filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".hcl"), src)
		if !slices.Equal(got, []string{"limit", "query"}) {
			t.Errorf("%s: got %v, want limit and query", name, got)
			continue
		}
		for _, it := range items {
			if it.Label == "query" && (it.Detail != "arg string" || it.Documentation == nil || it.Documentation.Value != "Words from the title or author.") {
				t.Errorf("%s: query is %+v", name, it)
			}
		}
	}
}

func TestCompletionOfNamesMethodsAndBlocks(t *testing.T) {
	dir := folder(t, map[string]string{"books.hcl": books})
	c := startClient(t, newServer())
	c.initialize()
	path := filepath.Join(dir, "books.hcl")
	cases := []struct {
		name, src string
		want      []string
	}{
		{"step fields", strings.Replace(books, `text = "string(len(body))"`, `text = "steps.lookup.|"`, 1), []string{"body", "headers", "status", "text"}},
		{"steps", strings.Replace(books, `text = "string(len(body))"`, `text = "steps.|"`, 1), []string{"lookup"}},
		{"var", strings.Replace(books, "base_url = var.base_url", "base_url = var.|", 1), []string{"base_url"}},
		{"method", strings.Replace(books, `method = "GET"`, `method = "P|"`, 1), httpMethods},
		{"backend name", strings.Replace(books, "  http \"catalog\" {\n    method", "  http \"|\" {\n    method", 1), []string{"catalog"}},
		{"backend kind", strings.Replace(books, `backend "http" "catalog"`, `backend "|`, 1), []string{"http", "mcp", "shell", "sql"}},
	}
	for _, tc := range cases {
		got, _ := complete(t, c, path, tc.src)
		want := slices.Sorted(slices.Values(tc.want))
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, want)
		}
	}
	// In an arg block: its attributes not yet set, and its blocks, with
	// the reference text.
	got, items := complete(t, c, path, strings.Replace(books, "    description = \"Words from the title or author.\"\n", "    description = \"Words from the title or author.\"\n    |\n", 1))
	if slices.Contains(got, "type") || !slices.Contains(got, "min_length") || !slices.Contains(got, "validation") {
		t.Errorf("arg body: %v", got)
	}
	for _, it := range items {
		if it.Label == "min_length" && (it.Documentation == nil || it.Documentation.Value == "") {
			t.Errorf("min_length has no reference text: %+v", it)
		}
	}
	// At the top level: the file's blocks.
	got, _ = complete(t, c, path, books+"|")
	for _, want := range []string{"tool", "backend", "prompt", "variable", "server"} {
		if !slices.Contains(got, want) {
			t.Errorf("top level: %v lacks %s", got, want)
		}
	}
	// In a backend "http": its kind's attributes.
	got, _ = complete(t, c, path, strings.Replace(books, "  base_url = var.base_url\n", "  base_url = var.base_url\n  |\n", 1))
	if !slices.Contains(got, "timeout") || !slices.Contains(got, "headers") || slices.Contains(got, "base_url") {
		t.Errorf("backend http: %v", got)
	}
}

func TestHover(t *testing.T) {
	dir := t.TempDir()
	c := startClient(t, newServer())
	c.initialize()
	uri := c.open(filepath.Join(dir, "books.hcl"), books)
	hover := func(marker string, offset int) string {
		var h *hoverResult
		c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri},
			"position": at(t, books, marker, offset)}, &h)
		if h == nil {
			return ""
		}
		return h.Contents.Value
	}
	if got := hover("base_url = var", 2); !strings.Contains(got, "base_url") || !strings.Contains(got, "docs/language.md#") {
		t.Errorf("hover on base_url: %q", got)
	}
	if got := hover(`tool "search"`, 1); !strings.HasPrefix(got, "**tool**") {
		t.Errorf("hover on tool: %q", got)
	}
	if got := hover("q = args.query", 8); got != "**args.query** `string`\n\nWords from the title or author." {
		t.Errorf("hover on args.query: %q", got)
	}
	if got := hover(`"/books"`, 2); got != "" {
		t.Errorf("hover on nothing: %q", got)
	}
}

func TestFormattingGivesTheBytesOfFmt(t *testing.T) {
	dir := t.TempDir()
	c := startClient(t, newServer())
	c.initialize()
	messy := strings.ReplaceAll(books, "  ", "\t ")
	uri := c.open(filepath.Join(dir, "books.hcl"), messy)
	var edits []textEdit
	c.call("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": uri},
		"options": map[string]any{"tabSize": 2, "insertSpaces": true}}, &edits)
	want, diags := lang.Format("books.hcl", []byte(messy))
	if diags.HasErrors() || string(want) == messy {
		t.Fatalf("the test's text should need formatting: %v", diags)
	}
	if got := applyEdits(t, messy, edits); got != string(want) {
		t.Errorf("formatted:\n%s\nwant:\n%s", got, want)
	}
	c.call("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": c.open(filepath.Join(dir, "ok.hcl"), books)}}, &edits)
	if len(edits) != 0 {
		t.Errorf("a formatted file got edits: %+v", edits)
	}
}

func TestDocumentSymbols(t *testing.T) {
	c := startClient(t, newServer())
	c.initialize()
	uri := c.open(filepath.Join(t.TempDir(), "books.hcl"), books)
	var syms []documentSymbol
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, &syms)
	var top []string
	for _, s := range syms {
		top = append(top, s.Detail)
	}
	want := []string{"server", `variable "base_url"`, `backend "http" "catalog"`, `tool "search"`}
	if !slices.Equal(top, want) {
		t.Fatalf("outline %v, want %v", top, want)
	}
	tool := syms[3]
	if tool.Name != "search" || tool.Kind != symbolFunction || tool.Range.Start.Line != 15 || len(tool.Children) != 5 {
		t.Errorf("tool symbol: %+v", tool)
	}
}

// A file in the JSON syntax has its outline too: the declarations, with
// a tool's arguments below it, at the ranges of their objects.
func TestDocumentSymbolsOfTheJSONSyntax(t *testing.T) {
	src, err := os.ReadFile("../testdata/valid/json_syntax.hcl.json")
	if err != nil {
		t.Fatal(err)
	}
	c := startClient(t, newServer())
	c.initialize()
	uri := c.open(filepath.Join(t.TempDir(), "api.hcl.json"), string(src))
	var syms []documentSymbol
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, &syms)
	var top []string
	for _, s := range syms {
		top = append(top, s.Detail)
	}
	want := []string{"server", `variable "api"`, `backend "api"`, `tool "lookup"`}
	if !slices.Equal(top, want) {
		t.Fatalf("outline %v, want %v", top, want)
	}
	tool := syms[3]
	// The tool's object is lines 15 to 26 (0-based 14 to 25), its name on
	// line 15; its argument's name on line 18.
	if tool.Kind != symbolFunction || tool.Range.Start.Line > 14 || tool.Range.End.Line < 25 || tool.SelectionRange.Start.Line != 14 ||
		len(tool.Children) != 1 || tool.Children[0].Name != "id" || tool.Children[0].SelectionRange.Start.Line != 17 {
		t.Errorf("tool symbol: %+v", tool)
	}
}

func TestSeparateConfigurationsInOneFolder(t *testing.T) {
	// Like examples/: each file declares a server, so each is checked
	// alone (a folder check would call them duplicates).
	other := strings.Replace(books, `name    = "books"`, `name    = "other"`, 1)
	dir := folder(t, map[string]string{"books.hcl": books, "other.hcl": other})
	c := startClient(t, newServer())
	c.initialize()
	uri := c.open(filepath.Join(dir, "other.hcl"), strings.Replace(other, "args.query }\n  }\n  result", "args.qery }\n  }\n  result", 1))
	diags := c.diagnosticsFor(uri, func(d []Diagnostic) bool { return len(d) > 0 })
	if len(diags) != 1 || diags[0].Code != "MCPD012" {
		t.Errorf("want only the misspelt reference, got %+v", diags)
	}
}

// greeter is a tool whose command writes, with no annotations; dup
// declares it twice.
const greeter = `server {
  name    = "x"
  version = "1.0.0"
}

tool "greet" {
  description = "Say hello to the person named in the argument."
  shell {
    command = ["echo", "hi"]
  }
}
`

func TestAnnotationsFixAndRelatedInformation(t *testing.T) {
	dir := t.TempDir()
	c := startClient(t, newServer())
	c.initialize()
	uri := c.open(filepath.Join(dir, "w.hcl"), greeter)
	diags := c.diagnosticsFor(uri, func(d []Diagnostic) bool { return len(d) > 0 })
	if len(diags) != 1 || diags[0].Code != "MCPD401" {
		t.Fatalf("want MCPD401, got %+v", diags)
	}
	var actions []codeAction
	c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": diags[0].Range, "context": map[string]any{"diagnostics": diags}}, &actions)
	if len(actions) != 1 {
		t.Fatalf("actions: %+v", actions)
	}
	fixed := applyEdits(t, greeter, actions[0].Edit.Changes[uri])
	c.change(uri, 2, contentChange{Text: fixed})
	c.diagnosticsFor(uri, func(d []Diagnostic) bool { return len(d) == 0 })
	if formatted, _ := lang.Format("w.hcl", []byte(fixed)); string(formatted) != fixed {
		t.Errorf("the fix is not laid out as fmt would:\n%s", fixed)
	}

	dup := greeter + strings.TrimPrefix(greeter, "server {\n  name    = \"x\"\n  version = \"1.0.0\"\n}\n")
	uri = c.open(filepath.Join(dir, "dup.hcl"), dup)
	diags = c.diagnosticsFor(uri, func(d []Diagnostic) bool { return len(d) > 0 })
	if len(diags) != 1 || diags[0].Code != "MCPD015" || len(diags[0].RelatedInformation) != 1 {
		t.Fatalf("want a duplicate with the first declaration related, got %+v", diags)
	}
	rel := diags[0].RelatedInformation[0].Location
	if rel.URI != uri || rel.Range != (Range{Start: Position{5, 0}, End: Position{5, 12}}) {
		t.Errorf("related %+v", rel)
	}
}

func TestClosingAnUnsavedFileClearsIt(t *testing.T) {
	c := startClient(t, newServer())
	c.initialize()
	uri := c.open(filepath.Join(t.TempDir(), "new.hcl"), greeter)
	c.diagnosticsFor(uri, func(d []Diagnostic) bool { return len(d) > 0 })
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	c.diagnosticsFor(uri, func(d []Diagnostic) bool { return len(d) == 0 })
}
