package lsp

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// booksJSON is books in the JSON syntax, with an error block (an array
// of one) whose program reads a step.
const booksJSON = `{
  "server": { "name": "books", "version": "1.0.0" },
  "variable": {
    "base_url": {
      "type": "string",
      "default": "http://127.0.0.1:3000",
      "description": "Where the catalogue listens."
    }
  },
  "backend": {
    "http": {
      "catalog": { "base_url": "${var.base_url}" }
    }
  },
  "tool": {
    "search": {
      "description": "Find books by words from the title or the author's name.",
      "annotations": { "read_only": true },
      "arg": {
        "query": {
          "type": "string",
          "description": "Words from the title or author."
        }
      },
      "step": {
        "lookup": {
          "http": {
            "catalog": { "method": "GET", "path": "/books", "query": { "q": "${args.query}" } }
          }
        }
      },
      "http": {
        "catalog": { "method": "GET", "path": "/books", "query": { "q": "${args.query}" } }
      },
      "error": [
        { "when": "status == 404 && len(steps.lookup.body) > 0", "message": "No book {{ args.query }}." }
      ],
      "result": { "text": "string(len(body))" }
    }
  }
}
`

// booksWithError is books with booksJSON's error block, for hovers that
// must read the same in both syntaxes.
var booksWithError = strings.Replace(books, "  result {", `  error {
    when    = "status == 404 && len(steps.lookup.body) > 0"
    message = "No book {{ args.query }}."
  }
  result {`, 1)

func hoverText(t *testing.T, c *client, uri, src, marker string, offset int) string {
	t.Helper()
	var h *hoverResult
	c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri},
		"position": at(t, src, marker, offset)}, &h)
	if h == nil {
		return ""
	}
	return h.Contents.Value
}

func TestHoverInJSONIsTheNativeHover(t *testing.T) {
	dir := t.TempDir()
	c := startClient(t, newServer())
	c.initialize()
	native := c.open(filepath.Join(dir, "native", "books.hcl"), booksWithError)
	js := c.open(filepath.Join(dir, "json", "books.hcl.json"), booksJSON)
	cases := []struct {
		what                  string
		nativeMarker, jsonKey string
		nativeAt, jsonAt      int
	}{
		{"a block type", `tool "search"`, `"tool"`, 1, 2},
		{"a block's label", `tool "search"`, `"search"`, 7, 3},
		{"a nested block", `arg "query"`, `"arg"`, 1, 1},
		{"a backend's kind", `backend "http"`, "\"http\": {\n      \"catalog\"", 10, 2},
		{"a variable's attribute", "type        = string\n  default", "\"type\": \"string\",\n      \"default\"", 0, 3},
		{"an arg's attribute", "type        = string\n    description = \"Words", "\"type\": \"string\",\n          \"description\": \"Words", 2, 2},
		{"a backend's attribute", "base_url = var", `"base_url": "${var`, 1, 2},
		{"a call's attribute", `method = "GET"`, `"method": "GET"`, 2, 2},
		{"a nested block's attribute", "read_only", `"read_only"`, 1, 1},
		{"an attribute in an array's block", "when    =", `"when"`, 1, 2},
		{"an expr-lang attribute", `text = "string`, `"text": "string`, 1, 1},
		{"args in a ${ }", "q = args.query", `"q": "${args.query`, 6, 11},
		{"args in a {{ }}", "{{ args.query", "{{ args.query", 5, 5},
		{"a step in a program", "steps.lookup.body", "steps.lookup.body", 8, 8},
		{"an expr-lang builtin", "len(steps", "len(steps", 1, 1},
		{"a builtin in result.text", `"string(len(body`, `"string(len(body`, 2, 2},
		{"a plain string", `"/books"`, `"/books"`, 2, 2},
	}
	for _, tc := range cases {
		want := hoverText(t, c, native, booksWithError, tc.nativeMarker, tc.nativeAt)
		// A call is shown as its file writes it.
		want = strings.Replace(want, "query = { q = args.query }", `query = { "q": "${args.query}" }`, 1)
		got := hoverText(t, c, js, booksJSON, tc.jsonKey, tc.jsonAt)
		if got != want {
			t.Errorf("%s: JSON hover %q, native %q", tc.what, got, want)
		}
		if want == "" && tc.what != "a plain string" {
			t.Errorf("%s: no native hover to compare with", tc.what)
		}
	}
	// The native hovers these compare with, for what they are.
	for marker, prefix := range map[string]string{`"tool"`: "**tool**", `"read_only"`: "**read_only (annotations)**",
		`args.query}`: "**args.query** `string`", "lookup.body": "**steps.lookup** calls `http \"catalog\"`",
		"len(steps": "```\nlen("} {
		if got := hoverText(t, c, js, booksJSON, marker, 2); !strings.HasPrefix(got, prefix) {
			t.Errorf("hover on %s: %q, want %s...", marker, got, prefix)
		}
	}
}

// plantsJSON is plants in the JSON syntax: claims, questions (an array
// of two elicit blocks) and a step over a list.
const plantsJSON = `{
  "server": { "name": "plants", "version": "1.0.0" },
  "auth": {
    "issuers": ["https://id.example.com"],
    "claim": { "tenant": { "type": "string" }, "level": { "type": "number" } }
  },
  "backend": { "http": { "shop": { "base_url": "http://127.0.0.1:3000" } } },
  "tool": {
    "compare": {
      "description": "Compare the plants that match the words.",
      "arg": { "q": { "type": "string" } },
      "elicit": [
        { "message": "Go on?", "requested_schema": { "type": "object" } },
        { "key": "budget", "message": "How much?", "requested_schema": { "type": "object" } }
      ],
      "sample": { "prompt": "Pick one." },
      "step": {
        "search": { "http": { "shop": { "path": "/plants" } } },
        "details": {
          "for_each": "${steps.search.body.items}",
          "http": { "shop": { "path": "/plants/${each.value.id}" } }
        }
      },
      "result": { "text": "string(len(steps.details))" }
    }
  }
}
`

func TestCompletionInJSONStringsIsTheNativeCompletion(t *testing.T) {
	dir := t.TempDir()
	c := startClient(t, newServer())
	c.initialize()
	cases := []struct {
		name, src, old, new string
		want                []string
	}{
		{"args in a program", booksJSON, `"when": "status == 404`, `"when": "args.|`, []string{"query"}},
		{"args in a ${ }", booksJSON, `"q": "${args.query}"`, `"q": "${args.q|}"`, []string{"query"}},
		{"args in a {{ }}", booksJSON, "{{ args.query }}", "{{ args.|", []string{"query"}},
		{"steps", booksJSON, `"text": "string(len(body))"`, `"text": "steps.|"`, []string{"lookup"}},
		{"step fields", booksJSON, `"text": "string(len(body))"`, `"text": "steps.lookup.|"`, []string{"body", "headers", "status", "text"}},
		{"var", booksJSON, `"${var.base_url}"`, `"${var.|}"`, []string{"base_url"}},
		{"var in a broken line", booksJSON, `"${var.base_url}" }`, `"${var.|`, []string{"base_url"}},
		{"method", booksJSON, `"method": "GET"`, `"method": "P|"`, httpMethods},
		{"plain text", booksJSON, `"path": "/books"`, `"path": "/bo|"`, nil},
		{"each in a for_each step", plantsJSON, `"/plants/${each.value.id}"`, `"/plants/${each.|}"`, []string{"index", "value"}},
		{"each in a step without for_each", plantsJSON, `"path": "/plants"`, `"path": "/plants/${each.|}"`, nil},
		{"each in the step's for_each", plantsJSON, `"${steps.search.body.items}"`, `"${each.|}"`, nil},
		{"claims in a ${ }", plantsJSON, `"path": "/plants"`, `"path": "${auth.claims.|}"`, []string{"level", "tenant"}},
		{"claims in a program", plantsJSON, `"text": "string(len(steps.details))"`, `"text": "auth.claims.t|"`, []string{"level", "tenant"}},
		{"answers", plantsJSON, `"text": "string(len(steps.details))"`, `"text": "{{ answers.|"`, []string{"budget", "elicit", "sample"}},
	}
	for i, tc := range cases {
		if !strings.Contains(tc.src, tc.old) {
			t.Fatalf("%s: %q is not in the text", tc.name, tc.old)
		}
		got, _ := complete(t, c, filepath.Join(dir, strconv.Itoa(i), "c.hcl.json"), strings.Replace(tc.src, tc.old, tc.new, 1))
		if want := slices.Sorted(slices.Values(tc.want)); !slices.Equal(got, want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, want)
		}
	}
	// Functions: expr-lang's in a program, the configuration's in ${ }.
	program, _ := complete(t, c, filepath.Join(dir, "f1", "c.hcl.json"), strings.Replace(booksJSON, `"text": "string(len(body))"`, `"text": "le|"`, 1))
	hcl, _ := complete(t, c, filepath.Join(dir, "f2", "c.hcl.json"), strings.Replace(booksJSON, `"path": "/books"`, `"path": "${url|}"`, 1))
	if !slices.Contains(program, "len") || slices.Contains(program, "urlencode") || !slices.Contains(hcl, "urlencode") || slices.Contains(hcl, "len") {
		t.Errorf("functions: in a program %v, in ${ } %v", program, hcl)
	}
}

// TestCompletionOfJSONPropertyNames completes keys: the blocks and
// attributes of the block around the cursor, written as JSON.
func TestCompletionOfJSONPropertyNames(t *testing.T) {
	dir := t.TempDir()
	c := startClient(t, newServer())
	c.initialize()
	n := 0
	at := func(old, new string) ([]string, map[string]completionItem) {
		t.Helper()
		if !strings.Contains(booksJSON, old) {
			t.Fatalf("%q is not in the text", old)
		}
		n++
		got, items := complete(t, c, filepath.Join(dir, strconv.Itoa(n), "books.hcl.json"), strings.Replace(booksJSON, old, new, 1))
		byLabel := map[string]completionItem{}
		for _, it := range items {
			byLabel[it.Label] = it
		}
		return got, byLabel
	}
	// A key begun in the tool's body, before the next property: the
	// tool's blocks and the attributes not yet set.
	got, items := at(`"annotations": { "read_only": true },`, "\"annotations\": { \"read_only\": true },\n      \"t|\n")
	if slices.Contains(got, "description") || !slices.Contains(got, "title") || !slices.Contains(got, "arg") || !slices.Contains(got, "step") {
		t.Errorf("tool body: %v", got)
	}
	title, arg := items["title"], items["arg"]
	if title.TextEdit == nil || title.TextEdit.NewText != `"title": $0,` || title.InsertTextFormat != snippetFormat ||
		title.FilterText != `"title"` || title.Documentation == nil || title.Documentation.Value == "" {
		t.Errorf("title: %+v", title)
	}
	if title.TextEdit != nil && title.TextEdit.Range.Start == title.TextEdit.Range.End {
		t.Errorf("title's edit should replace the key begun: %+v", title.TextEdit)
	}
	if arg.TextEdit == nil || arg.TextEdit.NewText != "\"arg\": {\n\t\"${1:name}\": {\n\t\t$0\n\t}\n}," || arg.Kind != itemStruct {
		t.Errorf("arg: %+v", arg.TextEdit)
	}
	// A comma forgotten before the key, and a key whose colon is there:
	// the name alone.
	got, items = at(`"annotations": { "read_only": true },`, "\"annotations\": { \"read_only\": true }\n      \"ti|\": \"Search\",")
	if !slices.Contains(got, "title") || items["title"].TextEdit == nil || items["title"].TextEdit.NewText != `"title"` {
		t.Errorf("key with its colon: %v %+v", got, items["title"].TextEdit)
	}
	// In an arg's body, at the end: its attributes not yet set.
	got, items = at(`"description": "Words from the title or author."`, "\"description\": \"Words from the title or author.\",\n          |")
	if slices.Contains(got, "type") || !slices.Contains(got, "min_length") || !slices.Contains(got, "validation") {
		t.Errorf("arg body: %v", got)
	}
	if e := items["min_length"].TextEdit; e == nil || e.NewText != `"min_length": ` || e.Range.Start != e.Range.End {
		t.Errorf("min_length: %+v", e)
	}
	// In a block of an array (error): its attributes.
	got, _ = at(`, "message": "No book {{ args.query }}."`, `, "m|"`)
	if !slices.Equal(got, []string{"message"}) {
		t.Errorf("error block: %v", got)
	}
	// At the top level: the file's blocks.
	got, _ = at(`"server": {`, "\"|\n  \"server\": {")
	for _, want := range []string{"tool", "backend", "prompt", "variable", "server"} {
		if !slices.Contains(got, want) {
			t.Errorf("top level: %v lacks %s", got, want)
		}
	}
	// In a backend "http": its kind's attributes.
	got, _ = at(`{ "base_url": "${var.base_url}" }`, `{ "base_url": "${var.base_url}", | }`)
	if !slices.Contains(got, "timeout") || !slices.Contains(got, "headers") || slices.Contains(got, "base_url") {
		t.Errorf("backend http: %v", got)
	}
	// Backend kinds and names where they are labels.
	got, items = at(`"backend": {`, `"backend": { "|`)
	if !slices.Equal(got, []string{"http", "mcp", "shell", "sql"}) || items["sql"].TextEdit == nil ||
		items["sql"].TextEdit.NewText != "\"sql\": {\n\t\"${1:name}\": {\n\t\t$0\n\t}\n}," {
		t.Errorf("backend kinds: %v %+v", got, items["sql"].TextEdit)
	}
	got, _ = at("\"http\": {\n        \"catalog\": { \"method\"", "\"http\": {\n        \"c|\": { \"method\"")
	if !slices.Equal(got, []string{"catalog"}) {
		t.Errorf("backend names: %v", got)
	}
	// Nothing where no name goes: in an attribute's object, after a
	// colon, among a tool's names.
	for _, tc := range [][2]string{
		{`{ "q": "${args.query}" }`, `{ "q": "${args.query}", "|" }`},
		{`"method": "GET"`, `"method": |"GET"`},
		{`"search": {`, `"|search": {`},
	} {
		if got, _ := at(tc[0], tc[1]); len(got) != 0 {
			t.Errorf("%s: got %v, want nothing", tc[1], got)
		}
	}
}

// TestJSONWhileTyping asks for completion and hover in JSON as it is
// while being typed: each answers (with the names that fit, where the
// broken text still says where the cursor is), never with an error.
func TestJSONWhileTyping(t *testing.T) {
	dir := t.TempDir()
	c := startClient(t, newServer())
	c.initialize()
	cases := []struct {
		name, src string
		want      []string // among the completion's labels
	}{
		{"an unclosed file", `{"tool": {"x": {"arg": {"q": {"ty|`, []string{"type", "description"}},
		{"a quote missing", "{\n  \"tool\": {\n    \"x\": {\n      \"title\": \"Find\n      \"|\n    }\n  }\n}", []string{"step", "http", "description"}},
		{"a bare word", `{"tool": {"x": {"des|}}}`, []string{"description"}},
		{"no value yet", `{"tool": {"x": {"arg": {"q": {"type": "string"}}, "when": "args.|`, []string{"q"}},
		{"nothing", `|`, nil},
		{"an array at the top", `[{"tool": |}]`, nil},
		{"a stray closing", `{"tool": {"x": ]] {"|`, nil},
	}
	for i, tc := range cases {
		got, _ := complete(t, c, filepath.Join(dir, strconv.Itoa(i), "c.hcl.json"), tc.src)
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s: %v lacks %s", tc.name, got, w)
			}
		}
		src := strings.Replace(tc.src, "|", "", 1)
		uri := pathToURI(filepath.Join(dir, strconv.Itoa(i), "c.hcl.json"))
		for off := 0; off <= len(src); off++ {
			id := c.send("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri},
				"position": newText(src).position(off)})
			if m := c.await(id); m.Error != nil {
				t.Errorf("%s: hover at %d: %s", tc.name, off, m.Error.Message)
			}
		}
	}
}
