package lsp

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/mcpdecl/mcpdecl/lang"
)

type textEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// formatting answers with the bytes `mcpdecl fmt` would write, as one
// edit of the whole document; none when it is formatted already, or in
// the JSON syntax, or does not parse (its diagnostics say why).
func (s *Server) formatting(_ context.Context, params json.RawMessage) (any, error) {
	_, doc, err := openFor[textDocumentParams](s, params)
	if err != nil {
		return nil, err
	}
	if strings.HasSuffix(doc.path, ".json") {
		return []textEdit{}, nil
	}
	out, diags := lang.Format(doc.path, []byte(doc.text.src))
	if diags.HasErrors() || string(out) == doc.text.src {
		return []textEdit{}, nil
	}
	whole := Range{End: doc.text.position(len(doc.text.src))}
	return []textEdit{{Range: whole, NewText: string(out)}}, nil
}

// open is the open document at uri, or the error to answer.
// aboutDocument are the params of a request about one open document.
type aboutDocument interface{ documentURI() string }

// textDocumentParams are the params of a request that names only the
// document (formatting, documentSymbol).
type textDocumentParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}

func (p textDocumentParams) documentURI() string   { return p.TextDocument.URI }
func (p textDocumentPosition) documentURI() string { return p.TextDocument.URI }

// openFor decodes a request's params and finds the open document they
// name.
func openFor[P aboutDocument](s *Server, params json.RawMessage) (P, *document, error) {
	var p P
	if err := decode(params, &p); err != nil {
		return p, nil, err
	}
	doc, err := s.open(p.documentURI())
	return p, doc, err
}

func (s *Server) open(uri string) (*document, error) {
	doc := s.docs.get(uriToPath(uri))
	if doc == nil {
		return nil, &rpcError{Code: codeInvalidParams, Message: uri + " is not open: send textDocument/didOpen first"}
	}
	return doc, nil
}
