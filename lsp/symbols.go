package lsp

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mcpdecl/mcpdecl/langindex"
)

type documentSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail,omitempty"`
	Kind           int              `json:"kind"`
	Range          Range            `json:"range"`
	SelectionRange Range            `json:"selectionRange"`
	Children       []documentSymbol `json:"children,omitempty"`
}

// Symbol kinds of the protocol that fit the blocks.
const (
	symbolModule    = 2
	symbolNamespace = 3
	symbolProperty  = 7
	symbolFunction  = 12
	symbolVariable  = 13
	symbolObject    = 19
	symbolEvent     = 24
)

var symbolKinds = map[string]int{
	"server": symbolNamespace, "backend": symbolModule, "tool": symbolFunction, "prompt": symbolFunction,
	"variable": symbolVariable, "locals": symbolVariable, "arg": symbolProperty, "step": symbolEvent,
}

// documentSymbol answers with the outline: every block, nested, named
// by its type and labels (tool "search_books").
func (s *Server) documentSymbol(_ context.Context, params json.RawMessage) (any, error) {
	_, doc, err := openFor[textDocumentParams](s, params)
	if err != nil {
		return nil, err
	}
	if strings.HasSuffix(doc.path, ".json") {
		return jsonSymbols(doc), nil
	}
	body := parse(doc)
	if body == nil {
		return []documentSymbol{}, nil
	}
	return symbolsOf(body, doc.text), nil
}

// jsonSymbols is the outline of a file in the JSON syntax, whose blocks
// are objects that hclsyntax cannot read: the declarations langindex
// finds in it, with their arguments and steps below them.
func jsonSymbols(doc *document) []documentSymbol {
	idx := langindex.Build(map[string][]byte{doc.path: []byte(doc.text.src)})
	return fromIndex(idx.Symbols(doc.path), doc.text)
}

// indexKinds are the protocol's symbol kinds of langindex's kinds; the
// others are objects.
var indexKinds = map[langindex.Kind]int{
	langindex.KindServer: symbolNamespace, langindex.KindBackend: symbolModule,
	langindex.KindTool: symbolFunction, langindex.KindPrompt: symbolFunction,
	langindex.KindVariable: symbolVariable, langindex.KindLocals: symbolVariable, langindex.KindLocal: symbolVariable,
	langindex.KindArgument: symbolProperty, langindex.KindStep: symbolEvent,
}

// indexDetail is as much of the block's header as the index knows: its
// type and name (tool "lookup"), or its type alone (server).
func indexDetail(sym *langindex.Symbol) string {
	if sym.Name == "" || sym.Name == string(sym.Kind) {
		return string(sym.Kind)
	}
	return string(sym.Kind) + ` "` + sym.Name + `"`
}

func fromIndex(syms []*langindex.Symbol, t *text) []documentSymbol {
	out := []documentSymbol{}
	for _, sym := range syms {
		kind, ok := indexKinds[sym.Kind]
		if !ok {
			kind = symbolObject
		}
		d := documentSymbol{
			Name:           sym.Name,
			Detail:         indexDetail(sym),
			Kind:           kind,
			Range:          t.rangeOf(sym.Range),
			SelectionRange: t.rangeOf(sym.NameRange),
		}
		if children := fromIndex(sym.Children, t); len(children) > 0 {
			d.Children = children
		}
		out = append(out, d)
	}
	return out
}

func symbolsOf(body *hclsyntax.Body, t *text) []documentSymbol {
	out := []documentSymbol{}
	for _, b := range body.Blocks {
		kind, ok := symbolKinds[b.Type]
		if !ok {
			kind = symbolObject
		}
		name := b.Type
		if len(b.Labels) > 0 {
			name = b.Labels[len(b.Labels)-1]
		}
		sym := documentSymbol{
			Name:           name,
			Detail:         blockHeader(b),
			Kind:           kind,
			Range:          t.rangeOf(b.Range()),
			SelectionRange: t.rangeOf(b.DefRange()),
		}
		if children := symbolsOf(b.Body, t); len(children) > 0 {
			sym.Children = children
		}
		out = append(out, sym)
	}
	return out
}

// blockHeader is how the block is written: tool "search_books".
func blockHeader(b *hclsyntax.Block) string {
	parts := []string{b.Type}
	for _, l := range b.Labels {
		parts = append(parts, `"`+l+`"`)
	}
	return strings.Join(parts, " ")
}
