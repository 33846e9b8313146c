package lsp

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// books is a valid configuration, lint-clean, with an HTTP call block,
// a step, and an expr-lang string to complete in.
const books = `server {
  name    = "books"
  version = "1.0.0"
}

variable "base_url" {
  type        = string
  default     = "http://127.0.0.1:3000"
  description = "Where the catalogue listens."
}

backend "http" "catalog" {
  base_url = var.base_url
}

tool "search" {
  description = "Find books by words from the title or the author's name."
  annotations {
    read_only = true
  }
  arg "query" {
    type        = string
    description = "Words from the title or author."
  }
  step "lookup" {
    http "catalog" {
      method = "GET"
      path   = "/books"
      query  = { q = args.query }
    }
  }
  http "catalog" {
    method = "GET"
    path   = "/books"
    query  = { q = args.query }
  }
  result {
    text = "string(len(body))"
  }
}
`

func newServer() *Server { return &Server{Debounce: 5 * time.Millisecond} }

// line29 is the line of the tool's own call, with characters that take
// two UTF-16 units (😀) and two bytes (é) before the reference.
const line29 = `    query  = { q = args.query }` + "\n  }\n  result"

func withCallLine(src, line string) string {
	return strings.Replace(src, line29, line+"\n  }\n  result", 1)
}

func TestDiagnosticsAtExactRangesAndClearedByAnUnsavedFix(t *testing.T) {
	dir := folder(t, map[string]string{"books.hcl": books})
	c := startClient(t, newServer())
	c.initialize()
	broken := withCallLine(books, `    query  = { x = "😀é", q = args.qery }`)
	uri := c.open(filepath.Join(dir, "books.hcl"), broken)
	diags := c.diagnosticsFor(uri, func(d []Diagnostic) bool { return len(d) > 0 })
	if len(diags) != 1 {
		t.Fatalf("want one diagnostic, got %+v", diags)
	}
	d := diags[0]
	// 4 spaces, `query  = { x = "` (16), 😀 (2 units), é (1), `", q = ` (7).
	want := Range{Start: Position{Line: 34, Character: 30}, End: Position{Line: 34, Character: 39}}
	if d.Range != want || d.Code != "MCPD012" || d.Severity != severityError || d.Source != "mcpdecl" {
		t.Errorf("got %+v, want MCPD012 error at %+v", d, want)
	}
	if !strings.Contains(d.Message, "Did you mean args.query?") || d.CodeDescription.Href != lintDocs+"#mcpd012" {
		t.Errorf("message or link: %q %+v", d.Message, d.CodeDescription)
	}
	// The fix, typed but not saved: an incremental change of "qery" to
	// "query" at the diagnostic's own range.
	c.change(uri, 2, contentChange{Range: &Range{Start: Position{34, 35}, End: Position{34, 39}}, Text: "query"})
	c.diagnosticsFor(uri, func(d []Diagnostic) bool { return len(d) == 0 })
}

func TestEveryFileOfTheFolderIsPublishedAndCleared(t *testing.T) {
	// The tool's arg lives in one file, its use in another: breaking the
	// first breaks the second, and mending it clears both.
	dir := folder(t, map[string]string{"books.hcl": books, "extra.hcl": `tool "count" {
  description = "Count the books whose title holds the words given."
  annotations {
    read_only = true
  }
  arg "words" {
    type        = string
    description = "Words of the title."
  }
  http "catalog" {
    method = "GET"
    path   = "/count"
    query  = { q = args.words }
  }
}
`})
	c := startClient(t, newServer())
	c.initialize()
	booksURI := c.open(filepath.Join(dir, "books.hcl"), strings.Replace(books, `backend "http" "catalog"`, `backend "http" "catalogue"`, 1))
	extraURI := pathToURI(filepath.Join(dir, "extra.hcl"))
	got := c.diagnosticsFor(extraURI, func(d []Diagnostic) bool { return len(d) > 0 })
	if got[0].Code != "MCPD012" || !strings.Contains(got[0].Message, "catalog") {
		t.Errorf("extra.hcl: %+v", got)
	}
	c.change(booksURI, 2, contentChange{Text: books})
	c.diagnosticsFor(extraURI, func(d []Diagnostic) bool { return len(d) == 0 })
	c.diagnosticsFor(booksURI, func(d []Diagnostic) bool { return len(d) == 0 })
}

func TestLintFindingsHaveTheirCodesAndAFix(t *testing.T) {
	dir := t.TempDir()
	c := startClient(t, newServer())
	c.initialize()
	src := strings.Replace(books, `    description = "Words from the title or author."`+"\n", "", 1)
	path := filepath.Join(dir, "books.hcl") // never saved: the buffer alone
	uri := c.open(path, src)
	diags := c.diagnosticsFor(uri, func(d []Diagnostic) bool { return len(d) > 0 })
	if len(diags) != 1 || diags[0].Code != "MCPD101" || diags[0].Severity != severityWarning {
		t.Fatalf("want MCPD101, got %+v", diags)
	}
	var actions []codeAction
	c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": diags[0].Range, "context": map[string]any{"diagnostics": diags}}, &actions)
	if len(actions) != 1 {
		t.Fatalf("want one action, got %+v", actions)
	}
	fixed := applyEdits(t, src, actions[0].Edit.Changes[uri])
	if !strings.Contains(fixed, "  arg \"query\" {\n    description = \"\"\n    type") {
		t.Errorf("the description line is not where it belongs:\n%s", fixed)
	}
}

func TestCodeActionFixesATypo(t *testing.T) {
	dir := folder(t, map[string]string{"books.hcl": books})
	c := startClient(t, newServer())
	c.initialize()
	src := strings.Replace(books, "type        = string\n    description = \"Words", "type        = strng\n    description = \"Words", 1)
	uri := c.open(filepath.Join(dir, "books.hcl"), src)
	diags := c.diagnosticsFor(uri, func(d []Diagnostic) bool { return len(d) > 0 })
	var actions []codeAction
	c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": diags[0].Range, "context": map[string]any{"diagnostics": diags}}, &actions)
	if len(actions) != 1 || actions[0].Title != "Change to string" {
		t.Fatalf("diagnostics %+v gave actions %+v", diags, actions)
	}
	fixed := applyEdits(t, src, actions[0].Edit.Changes[uri])
	if fixed != books {
		t.Fatalf("the fix did not give back the original:\n%s", fixed)
	}
	c.change(uri, 2, contentChange{Text: fixed})
	c.diagnosticsFor(uri, func(d []Diagnostic) bool { return len(d) == 0 })
}

// applyEdits applies the edits (none overlapping) to src.
func applyEdits(t *testing.T, src string, edits []textEdit) string {
	t.Helper()
	if len(edits) == 0 {
		t.Fatal("no edits")
	}
	changes := make([]contentChange, 0, len(edits))
	for i := len(edits) - 1; i >= 0; i-- { // from the end, so earlier ranges hold
		r := edits[i].Range
		changes = append(changes, contentChange{Range: &r, Text: edits[i].NewText})
	}
	out, err := apply(newText(src), changes)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRapidChangesPublishInOrder types a hundred characters, one change
// each, with no pause: whatever the checks that ran meanwhile, no
// publish is of a version older than one published before it, and the
// last is of the final text.
func TestRapidChangesPublishInOrder(t *testing.T) {
	c := startClient(t, &Server{Debounce: time.Millisecond})
	c.initialize()
	uri := c.open(filepath.Join(t.TempDir(), "books.hcl"), books)
	end := newText(books).position(len(books))
	for v := 2; v <= 101; v++ {
		c.change(uri, v, contentChange{Range: &Range{Start: end, End: end}, Text: "#"})
		end.Character++
	}
	c.awaitVersion(uri, 101)
	c.mu.Lock()
	history := c.history[uri]
	c.mu.Unlock()
	for i := 1; i < len(history); i++ {
		if history[i] < history[i-1] {
			t.Fatalf("version %d published after %d: %v", history[i], history[i-1], history)
		}
	}
	if got := c.diagnosticsFor(uri, func([]Diagnostic) bool { return true }); len(got) != 0 {
		t.Errorf("a trailing comment gave %+v", got)
	}
}
