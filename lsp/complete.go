package lsp

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
	"github.com/mcpdecl/mcpdecl/langref"
	"github.com/mcpdecl/mcpdecl/langschema"
)

type completionItem struct {
	Label            string         `json:"label"`
	Kind             int            `json:"kind"`
	Detail           string         `json:"detail,omitempty"`
	Documentation    *markupContent `json:"documentation,omitempty"`
	InsertText       string         `json:"insertText,omitempty"`
	InsertTextFormat int            `json:"insertTextFormat,omitempty"`
	TextEdit         *textEdit      `json:"textEdit,omitempty"`
	FilterText       string         `json:"filterText,omitempty"`
}

// Completion item kinds of the protocol.
const (
	itemField    = 5
	itemVariable = 6
	itemProperty = 10
	itemValue    = 12
	itemEnum     = 13
	itemStruct   = 22
	itemFunction = 3
)

const snippetFormat = 2

// What the text before the cursor may be.
var (
	referenceBefore = lazyregexp.New(`\b(args|var|local|steps)\.([A-Za-z0-9_]*)$`)
	stepFieldBefore = lazyregexp.New(`\bsteps\.([A-Za-z0-9_]+)\.([A-Za-z0-9_]*)$`)
	methodBefore    = lazyregexp.New(`^\s*method\s*=\s*"[A-Za-z]*$`)
	callLabelBefore = lazyregexp.New(`^\s*([a-z]+)\s+"[A-Za-z0-9_\-]*$`)
	backendBefore   = lazyregexp.New(`^\s*backend\s+"[a-z]*$`)
	bodyLineBefore  = lazyregexp.New(`^\s*[A-Za-z_]*$`)
)

var httpMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}

// completion answers with what may be written at the cursor: the names
// after args., var., local., steps. and steps.NAME. (in HCL and inside
// strings, where expr-lang and {{ }} read them too), HTTP methods,
// backend kinds and names in block labels, and the attributes and blocks
// that the block around the cursor takes, with their reference text.
func (s *Server) completion(_ context.Context, params json.RawMessage) (any, error) {
	p, doc, err := openFor[textDocumentPosition](s, params)
	if err != nil {
		return nil, err
	}
	offset := doc.text.offset(p.Position)
	if isJSONSyntax(doc.path) {
		items := s.jsonCompletion(doc, offset)
		if items == nil {
			items = []completionItem{}
		}
		return map[string]any{"isIncomplete": false, "items": items}, nil
	}
	lineStart := doc.text.lines[min(p.Position.Line, len(doc.text.lines)-1)]
	before := doc.text.src[lineStart:offset]
	blocks := blocksForCompletion(doc, offset, lineStart)
	items := s.completeAt(doc, before, blocks)
	if items == nil {
		items = []completionItem{}
	}
	return map[string]any{"isIncomplete": false, "items": items}, nil
}

func (s *Server) completeAt(doc *document, before string, blocks []*hclsyntax.Block) []completionItem {
	if m := stepFieldBefore.FindStringSubmatch(before); m != nil {
		for _, st := range stepsOf(blocks) {
			if st.name == m[1] {
				return plainItems(resultFields(st.kind), itemField, "steps."+st.name+" ("+st.kind+")")
			}
		}
		return nil
	}
	if m := referenceBefore.FindStringSubmatch(before); m != nil {
		return s.referenceItems(doc, m[1], blocks)
	}
	if items, ok := s.scopeItems(doc, before, blocks); ok {
		return items
	}
	switch {
	case methodBefore.MatchString(before):
		return plainItems(httpMethods, itemEnum, "HTTP method")
	case backendBefore.MatchString(before):
		return plainItems(langschema.Kinds(), itemEnum, "backend kind")
	}
	if m := callLabelBefore.FindStringSubmatch(before); m != nil && slices.Contains(langschema.Kinds(), m[1]) {
		names := s.namesOf(doc).backends[m[1]]
		slices.Sort(names)
		return plainItems(names, itemValue, "backend \""+m[1]+"\"")
	}
	if bodyLineBefore.MatchString(before) {
		return bodyItems(blocks, nil)
	}
	return functionCallItems(before)
}

func (s *Server) referenceItems(doc *document, root string, blocks []*hclsyntax.Block) []completionItem {
	switch root {
	case "args":
		var out []completionItem
		for _, a := range argsOf(blocks, doc.text.src) {
			item := completionItem{Label: a.name, Kind: itemField, Detail: strings.TrimSpace("arg " + a.typ)}
			if a.description != "" {
				item.Documentation = &markupContent{Kind: "markdown", Value: a.description}
			}
			out = append(out, item)
		}
		return out
	case "steps":
		var out []completionItem
		for _, st := range stepsOf(blocks) {
			out = append(out, completionItem{Label: st.name, Kind: itemField, Detail: "step (" + st.kind + ")"})
		}
		return out
	case "var":
		return plainItems(s.namesOf(doc).variables, itemVariable, "variable")
	}
	return plainItems(s.namesOf(doc).locals, itemVariable, "local")
}

func plainItems(names []string, kind int, detail string) []completionItem {
	out := make([]completionItem, 0, len(names))
	for _, n := range names {
		out = append(out, completionItem{Label: n, Kind: kind, Detail: detail})
	}
	return out
}

// bodyItems are the attributes not yet set and the blocks that the block
// around the cursor takes (the file's top level outside every block);
// with key, as JSON properties written over it.
func bodyItems(blocks []*hclsyntax.Block, key *keyEdit) []completionItem {
	node, path, also := schemaAt(blocks)
	if node == nil {
		return nil
	}
	set := map[string]bool{}
	if len(blocks) > 0 {
		for name := range blocks[len(blocks)-1].Body.Attributes {
			set[name] = true
		}
	}
	var out []completionItem
	for _, n := range []*langschema.Node{node, also} {
		if n == nil {
			continue
		}
		for _, a := range n.Attributes {
			if set[a.Name] {
				continue
			}
			item := completionItem{Label: a.Name, Kind: itemProperty, InsertText: a.Name + " = ", Detail: "attribute"}
			if a.Required {
				item.Detail = "attribute (required)"
			}
			if e, ok := langref.Attribute(path, a.Name); ok {
				item.Documentation = &markupContent{Kind: "markdown", Value: e.Markdown}
			}
			if key != nil {
				item = key.apply(item, "")
			}
			out = append(out, item)
		}
		for _, b := range n.Blocks {
			item := blockItem(b, append(slices.Clip(path), b.Type))
			if key != nil {
				item = key.apply(item, jsonBlockValue(b.Labels))
			}
			out = append(out, item)
		}
	}
	return out
}

// blockItem is a block type as a snippet: its labels as placeholders.
func blockItem(b *langschema.Node, path []string) completionItem {
	snippet := b.Type
	for i, l := range b.Labels {
		snippet += ` "${` + string(rune('1'+i)) + ":" + l + `}"`
	}
	snippet += " {\n\t$0\n}"
	item := completionItem{Label: b.Type, Kind: itemStruct, Detail: "block", InsertText: snippet, InsertTextFormat: snippetFormat}
	if e, ok := langref.Block(path); ok {
		item.Documentation = &markupContent{Kind: "markdown", Value: e.Markdown}
	}
	return item
}

// blocksForCompletion finds the blocks around the cursor. The line being
// typed often does not parse (args. with nothing after it), and a parse
// error can lose the blocks around it; so when the text has errors, the
// cursor's line is blanked (same offsets) and the rest parsed instead.
// The top-level item around the cursor is tried first (complete_span.go).
func blocksForCompletion(doc *document, offset, lineStart int) []*hclsyntax.Block {
	if blocks, ok := blocksInTopItem(doc, offset, lineStart); ok {
		return blocks
	}
	return blocksInWholeFile(doc, offset, lineStart)
}

func blocksInWholeFile(doc *document, offset, lineStart int) []*hclsyntax.Block {
	src := doc.text.src
	f, diags := hclsyntax.ParseConfig([]byte(src), doc.path, hcl.InitialPos)
	if diags.HasErrors() {
		f, _ = hclsyntax.ParseConfig([]byte(blankLine(src, lineStart)), doc.path, hcl.InitialPos)
	}
	if f == nil {
		return nil
	}
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return nil
	}
	return enclosing(body, offset)
}
