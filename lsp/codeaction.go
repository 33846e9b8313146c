package lsp

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mcpdecl/mcpdecl/lint"
)

type codeAction struct {
	Title       string         `json:"title"`
	Kind        string         `json:"kind"`
	Diagnostics []Diagnostic   `json:"diagnostics"`
	IsPreferred bool           `json:"isPreferred,omitempty"`
	Edit        *workspaceEdit `json:"edit"`
}

type workspaceEdit struct {
	Changes map[string][]textEdit `json:"changes"`
}

// hasMechanicalFix says a lint finding is repaired by text that does not
// depend on what the author means: the missing line or block is added
// for them to complete.
func hasMechanicalFix(code string) bool {
	return code == lint.CodeMissingDescription || code == lint.CodeWriteWithoutHints
}

// codeAction answers with a quick fix for each diagnostic of the request
// that carries one: the name a "Did you mean" offers in place of the
// misspelt one, a description line for a missing description, an
// annotations block for a writing tool that has none, the folder and the
// name for a file() whose path comes from the arguments.
func (s *Server) codeAction(_ context.Context, params json.RawMessage) (any, error) {
	var p struct {
		TextDocument textDocumentIdentifier `json:"textDocument"`
		Context      struct {
			Diagnostics []Diagnostic `json:"diagnostics"`
		} `json:"context"`
	}
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	doc, err := s.open(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []codeAction{}
	for _, d := range p.Context.Diagnostics {
		if d.Source != "mcpdecl" || d.Data == nil {
			continue
		}
		title, edit, ok := fixFor(doc, d)
		if !ok {
			continue
		}
		out = append(out, codeAction{
			Title: title, Kind: "quickfix", Diagnostics: []Diagnostic{d}, IsPreferred: d.Data.Replace != "" || d.Data.Arguments != "",
			Edit: &workspaceEdit{Changes: map[string][]textEdit{p.TextDocument.URI: {edit}}},
		})
	}
	return out, nil
}

func fixFor(doc *document, d Diagnostic) (string, textEdit, bool) {
	if d.Data.Replace != "" {
		return replaceFix(doc, d)
	}
	if d.Data.Arguments != "" {
		return confineFix(doc, d)
	}
	body := parse(doc)
	if body == nil {
		return "", textEdit{}, false
	}
	at := doc.text.offset(d.Range.Start)
	switch d.Data.Code {
	case lint.CodeMissingDescription:
		b := labelledAt(body, at)
		if b == nil {
			return "", textEdit{}, false
		}
		return "Add description = \"\"", insertLine(doc.text, b, `description = ""`), true
	case lint.CodeWriteWithoutHints:
		blocks := enclosingAny(body, at)
		if len(blocks) == 0 || blocks[0].Type != "tool" {
			return "", textEdit{}, false
		}
		return "Add annotations (destructive = true, idempotent = false: set them to what the tool does)",
			insertLine(doc.text, blocks[0], "annotations {\n  destructive = true\n  idempotent  = false\n}"), true
	}
	return "", textEdit{}, false
}

// replaceFix puts the suggested name in place of the misspelt one: the
// last name of the diagnostic's text (args.nme → args.name, "strng" →
// "string"), or the whole reference when the suggestion is one
// (args.nme → args.name given as such).
func replaceFix(doc *document, d Diagnostic) (string, textEdit, bool) {
	if at := d.Data.At; at != nil {
		start, end := doc.text.offset(at.Start), doc.text.offset(at.End)
		if end < start || doc.text.src[start:end] == d.Data.Replace {
			return "", textEdit{}, false
		}
		// A label or string is replaced with its quotes; the title names it as the detail does.
		return "Change to " + strings.Trim(d.Data.Replace, `"`), textEdit{Range: *at, NewText: d.Data.Replace}, true
	}
	start, end := doc.text.offset(d.Range.Start), doc.text.offset(d.Range.End)
	if end <= start {
		start, end = wordAround(doc.text.src, start)
	}
	word := doc.text.src[start:end]
	want := d.Data.Replace
	// A suggestion with dots replaces as many names at the end of the
	// word as it has.
	wantParts := strings.Split(want, ".")
	parts := strings.Split(strings.Trim(word, `"`), ".")
	quote := strings.HasPrefix(word, `"`)
	if strings.ContainsAny(word, " {}()=\n") {
		return "", textEdit{}, false
	}
	var newWord string
	if len(parts) < len(wantParts) {
		// The range holds the end of the reference only (bdy of
		// steps.lookup.bdy): the text before it must be the rest.
		cut := len(wantParts) - len(parts)
		if !strings.HasSuffix(doc.text.src[:start], strings.Join(wantParts[:cut], ".")+".") {
			return "", textEdit{}, false
		}
		newWord = strings.Join(wantParts[cut:], ".")
	} else {
		kept := parts[:len(parts)-len(wantParts)]
		newWord = strings.Join(append(kept, wantParts...), ".")
	}
	if quote {
		newWord = `"` + newWord + `"`
	}
	if newWord == word {
		return "", textEdit{}, false
	}
	r := Range{Start: doc.text.position(start), End: doc.text.position(end)}
	return "Change to " + want, textEdit{Range: r, NewText: newWord}, true
}

// labelledAt is the block whose label or type is at offset.
func labelledAt(body *hclsyntax.Body, offset int) *hclsyntax.Block {
	for _, b := range body.Blocks {
		if contains(b.DefRange(), offset) {
			return b
		}
		if inner := labelledAt(b.Body, offset); inner != nil {
			return inner
		}
	}
	return nil
}

// enclosingAny is enclosing, counting a block's header as inside it.
func enclosingAny(body *hclsyntax.Body, offset int) []*hclsyntax.Block {
	for _, b := range body.Blocks {
		if contains(b.Range(), offset) {
			return append([]*hclsyntax.Block{b}, enclosingAny(b.Body, offset)...)
		}
	}
	return nil
}

// insertLine is an edit that adds lines at the top of a block's body,
// indented one step deeper than the block.
func insertLine(t *text, b *hclsyntax.Block, lines string) textEdit {
	open := b.OpenBraceRange.End.Byte
	lineStart := t.lines[t.position(b.Range().Start.Byte).Line]
	indent := leadingSpace(t.src[lineStart:]) + "  "
	var sb strings.Builder
	for _, l := range strings.Split(lines, "\n") {
		sb.WriteString("\n" + indent + l)
	}
	at := t.position(open)
	return textEdit{Range: Range{Start: at, End: at}, NewText: sb.String()}
}

func leadingSpace(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}
