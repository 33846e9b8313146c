package lsp

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/internal/diagcode"
)

// TestFixAndRelatedFromTheHint: a diagnostic whose maker gave a hint is
// converted from it (the text to replace and the places, whatever the
// detail says); one without is read from its detail.
func TestFixAndRelatedFromTheHint(t *testing.T) {
	src := "tool \"a\" {\n  x = args.qery.more\n}\n"
	tx := newText(src)
	textOf := func(string) *text { return tx }
	at := func(from, to int) hcl.Range {
		pos := func(off int) hcl.Pos {
			p := tx.position(off)
			return hcl.Pos{Line: p.Line + 1, Column: p.Character + 1, Byte: off}
		}
		return hcl.Range{Filename: "a.hcl", Start: pos(from), End: pos(to)}
	}
	start := strings.Index(src, "args.qery")
	misspelt, decl := at(start, start+len("args.qery")), at(0, 4)
	// The detail names another place and another name: the hint wins.
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Reference to undeclared argument",
		Detail: `Did you mean "other"? See a.hcl:9,1-5.`, Subject: at(start, start+len("args.qery.more")).Ptr()}
	diagcode.Relate(diagcode.Suggest(d, "args.query", misspelt), decl)
	got := toDiagnostic(d, tx, textOf)
	wantAt := tx.rangeOf(misspelt)
	if got.Data == nil || got.Data.Replace != "args.query" || got.Data.At == nil || *got.Data.At != wantAt {
		t.Errorf("data %+v", got.Data)
	}
	if len(got.RelatedInformation) != 1 || got.RelatedInformation[0].Location.Range != tx.rangeOf(decl) ||
		got.RelatedInformation[0].Message != "named in the message: a.hcl:1,1-5" {
		t.Errorf("related %+v", got.RelatedInformation)
	}
	doc := &document{path: "a.hcl", text: tx}
	title, edit, ok := fixFor(doc, got)
	if !ok || title != "Change to args.query" || applyEdits(t, src, []textEdit{edit}) != strings.Replace(src, "qery", "query", 1) {
		t.Errorf("fix %q %+v", title, edit)
	}
	// Without a hint: the detail's name and place.
	plain := toDiagnostic(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown reference",
		Detail: "Did you mean args.query? See a.hcl:1,1-5.", Subject: misspelt.Ptr()}, tx, textOf)
	if plain.Data == nil || plain.Data.Replace != "args.query" || plain.Data.At != nil || len(plain.RelatedInformation) != 1 {
		t.Errorf("from the text: %+v %+v", plain.Data, plain.RelatedInformation)
	}
}

// TestReferenceErrorsCarryTheirFix: the checker's "Did you mean" for an
// argument reaches the editor with the text it replaces.
func TestReferenceErrorsCarryTheirFix(t *testing.T) {
	c := startClient(t, newServer())
	c.initialize()
	src := withCallLine(books, `    query  = { q = args.qery }`)
	uri := c.open(filepath.Join(t.TempDir(), "books.hcl"), src)
	diags := c.diagnosticsFor(uri, func(d []Diagnostic) bool { return len(d) > 0 })
	i := strings.Index(src, "args.qery")
	want := Range{Start: newText(src).position(i), End: newText(src).position(i + len("args.qery"))}
	if len(diags) != 1 || diags[0].Data == nil || diags[0].Data.At == nil || *diags[0].Data.At != want || diags[0].Data.Replace != "args.query" {
		t.Fatalf("diagnostics %+v", diags)
	}
}
