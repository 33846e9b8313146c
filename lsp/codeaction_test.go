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
