package lsp

import (
	"path/filepath"
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
