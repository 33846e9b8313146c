package lsp

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestDidYouMeanFixes: every kind of misspelt name whose diagnostic
// suggests one is mended by its quick fix, back to the original text.
func TestDidYouMeanFixes(t *testing.T) {
	c := startClient(t, newServer())
	c.initialize()
	for i, pair := range [][]string{
		{"description = \"Find books", "descripton = \"Find books"},
		{"  annotations {\n    read_only = true", "  annotatons {\n    read_only = true"},
		{"  http \"catalog\" {\n    method", "  http \"catalg\" {\n    method"},
		{"base_url = var.base_url", "base_url = var.base_ur"},
		{`text = "string(len(body))"`, `text = "string(len(bdy))"`},
		{`text = "string(len(body))"`, `text = "string(len(steps.lookup.bdy))"`, `text = "string(len(steps.lookup.body))"`},
	} {
		src := strings.Replace(books, pair[0], pair[1], 1)
		want := books
		if len(pair) == 3 { // the fix differs from books
			want = strings.Replace(books, pair[0], pair[2], 1)
		}
		uri := c.open(filepath.Join(t.TempDir(), "b.hcl"), src)
		diags := c.diagnosticsFor(uri, func(d []Diagnostic) bool { return len(d) > 0 })
		var actions []codeAction
		c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
			"range": diags[0].Range, "context": map[string]any{"diagnostics": diags}}, &actions)
		if len(actions) != 1 {
			t.Errorf("%d: %s: actions %+v", i, diags[0].Message, actions)
			continue
		}
		if fixed := applyEdits(t, src, actions[0].Edit.Changes[uri]); fixed != want {
			t.Errorf("%d: %s: %q did not mend the text", i, diags[0].Message, actions[0].Title)
		}
	}
}

// TestDidYouMeanFixesFromTheirData: the misspelt names whose makers say
// what to replace are mended from that (a label with its quotes, in
// either syntax), back to the original text.
func TestDidYouMeanFixesFromTheirData(t *testing.T) {
	c := startClient(t, newServer())
	c.initialize()
	for i, tc := range []struct{ name, src, old, new, title string }{
		{"b.hcl", books, "  http \"catalog\" {\n    method", "  http \"catalg\" {\n    method", "Change to catalog"},
		{"b.hcl", books, `backend "http" "catalog"`, `backend "htp" "catalog"`, "Change to http"},
		{"b.hcl", books, "base_url = var.base_url", "base_url = var.base_ur", "Change to var.base_url"},
		{"b.hcl.json", booksJSON, "\"catalog\": { \"method\": \"GET\", \"path\": \"/books\", \"query\": { \"q\": \"${args.query}\" } }\n      },\n      \"error\"",
			"\"catalg\": { \"method\": \"GET\", \"path\": \"/books\", \"query\": { \"q\": \"${args.query}\" } }\n      },\n      \"error\"", "Change to catalog"},
		{"b.hcl.json", booksJSON, `"${var.base_url}"`, `"${var.base_ul}"`, "Change to var.base_url"},
		{"b.hcl", books, "type        = string\n    description = \"Words", "type        = strng\n    description = \"Words", "Change to string"},
		{"b.hcl.json", booksJSON, "\"type\": \"string\",\n          \"description\": \"Words", "\"type\": \"str\",\n          \"description\": \"Words", "Change to string"},
		{"b.hcl", books + "\ntoolset \"reading\" {\n  tools = [\"search\"]\n}\n", `tools = ["search"]`, `tools = ["serch"]`, "Change to search"},
	} {
		if !strings.Contains(tc.src, tc.old) {
			t.Fatalf("%d: %q is not in the text", i, tc.old)
		}
		src := strings.Replace(tc.src, tc.old, tc.new, 1)
		uri := c.open(filepath.Join(t.TempDir(), tc.name), src)
		diags := c.diagnosticsFor(uri, func(d []Diagnostic) bool { return len(d) > 0 })
		if diags[0].Data == nil || diags[0].Data.At == nil {
			t.Errorf("%d: %s: no replacement range in %+v", i, diags[0].Message, diags[0].Data)
			continue
		}
		var actions []codeAction
		c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
			"range": diags[0].Range, "context": map[string]any{"diagnostics": diags}}, &actions)
		if len(actions) != 1 || actions[0].Title != tc.title {
			t.Errorf("%d: %s: actions %+v", i, diags[0].Message, actions)
			continue
		}
		if fixed := applyEdits(t, src, actions[0].Edit.Changes[uri]); fixed != tc.src {
			t.Errorf("%d: %s: %q did not mend the text:\n%s", i, diags[0].Message, actions[0].Title, fixed)
		}
	}
}
