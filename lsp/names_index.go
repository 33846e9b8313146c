package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// NameIndex is the Index `mcpdecl lsp` runs with: package langindex over
// the editor's buffers, one index per configuration (its folder, or a
// file alone with its test file), kept between requests and brought up
// to date file by file. It answers textDocument/definition, references,
// prepareRename, rename and semanticTokens/full.
type NameIndex struct {
	cache nameCache
}

// NewNameIndex returns an empty NameIndex; the configurations are
// indexed on their first request.
func NewNameIndex() *NameIndex { return &NameIndex{} }

// codeRequestFailed is the protocol's error for a request that was
// understood but cannot be done (a refused rename).
const codeRequestFailed = -32803

// Capabilities implements Index.
func (*NameIndex) Capabilities() map[string]any {
	return map[string]any{
		"definitionProvider": true,
		"referencesProvider": true,
		"renameProvider":     map[string]any{"prepareProvider": true},
		"semanticTokensProvider": map[string]any{
			"legend": map[string]any{"tokenTypes": tokenTypes, "tokenModifiers": tokenModifiers},
			"full":   true,
		},
	}
}

var nameMethods = map[string]func(*snapshot, Source, json.RawMessage) (any, error){
	"textDocument/definition":          definition,
	"textDocument/references":          references,
	"textDocument/prepareRename":       prepareRename,
	"textDocument/rename":              rename,
	"textDocument/semanticTokens/full": semanticTokens,
}

// Methods implements Index.
func (*NameIndex) Methods() []string {
	out := make([]string, 0, len(nameMethods))
	for m := range nameMethods {
		out = append(out, m)
	}
	return out
}

// Answer implements Index: it reads the document the request names,
// brings its configuration's index up to date and answers from it.
func (n *NameIndex) Answer(ctx context.Context, method string, params json.RawMessage, src Source) (any, error) {
	answer, ok := nameMethods[method]
	if !ok {
		return nil, &rpcError{Code: codeMethodNotFound, Message: "the name index does not answer " + method}
	}
	var doc struct {
		TextDocument textDocumentIdentifier `json:"textDocument"`
	}
	if err := decode(params, &doc); err != nil {
		return nil, err
	}
	path := src.Path(doc.TextDocument.URI)
	if path == "" {
		return nil, &rpcError{Code: codeInvalidParams, Message: doc.TextDocument.URI + " is not a file: URI"}
	}
	snap := n.cache.indexOf(src, path)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if _, ok := snap.texts[path]; !ok {
		return nil, &rpcError{Code: codeRequestFailed, Message: fmt.Sprintf("%s is neither open nor readable", path)}
	}
	return answer(snap, src, params)
}

// at is where a position request points: the file and its byte offset
// as langindex takes it.
func (s *snapshot) at(src Source, p textDocumentPosition) (string, hcl.Pos) {
	path := src.Path(p.TextDocument.URI)
	off := s.textOf(path).offset(p.Position)
	// Line and Column 1 make Byte the position, even at offset 0.
	return path, hcl.Pos{Line: 1, Column: 1, Byte: off}
}

// location is an hcl range as the protocol's location.
func (s *snapshot) location(src Source, r hcl.Range) location {
	return location{URI: src.URI(r.Filename), Range: s.textOf(r.Filename).rangeOf(r)}
}

func definition(s *snapshot, src Source, params json.RawMessage) (any, error) {
	var p textDocumentPosition
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	r, ok := s.idx.Definition(s.at(src, p))
	if !ok {
		return nil, nil
	}
	return s.location(src, r), nil
}

func references(s *snapshot, src Source, params json.RawMessage) (any, error) {
	var p struct {
		textDocumentPosition
		Context struct {
			IncludeDeclaration bool `json:"includeDeclaration"`
		} `json:"context"`
	}
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	file, pos := s.at(src, p.textDocumentPosition)
	out := []location{}
	for _, r := range s.idx.References(file, pos, p.Context.IncludeDeclaration) {
		out = append(out, s.location(src, r))
	}
	return out, nil
}

// prepareRename answers the name under the cursor and its range, or
// refuses with the reason a rename would give (no name there, a URI that
// reads a resource, a name declared nowhere).
func prepareRename(s *snapshot, src Source, params json.RawMessage) (any, error) {
	var p textDocumentPosition
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	file, pos := s.at(src, p)
	name, ok := s.idx.NameAt(file, pos)
	if !ok {
		return nil, &rpcError{Code: codeRequestFailed, Message: "there is no name to rename here"}
	}
	// Renaming to the name itself runs every refusal but the new name's.
	if _, err := s.idx.Rename(file, pos, name.Name); err != nil {
		return nil, &rpcError{Code: codeRequestFailed, Message: err.Error()}
	}
	return map[string]any{"range": s.textOf(file).rangeOf(name.Range), "placeholder": name.Name}, nil
}

// rename answers the edits of every file of the configuration that
// names the renamed thing, open or not.
func rename(s *snapshot, src Source, params json.RawMessage) (any, error) {
	var p struct {
		textDocumentPosition
		NewName string `json:"newName"`
	}
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	file, pos := s.at(src, p.textDocumentPosition)
	edits, err := s.idx.Rename(file, pos, p.NewName)
	if err != nil {
		return nil, &rpcError{Code: codeRequestFailed, Message: err.Error()}
	}
	out := workspaceEdit{Changes: map[string][]textEdit{}}
	for path, es := range edits {
		t := s.textOf(path)
		uri := src.URI(path)
		for _, e := range es {
			out.Changes[uri] = append(out.Changes[uri], textEdit{Range: t.rangeOf(e.Range), NewText: e.NewText})
		}
	}
	return out, nil
}

func semanticTokens(s *snapshot, src Source, params json.RawMessage) (any, error) {
	var p struct {
		TextDocument textDocumentIdentifier `json:"textDocument"`
	}
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	path := src.Path(p.TextDocument.URI)
	return map[string]any{"data": encodeTokens(s.textOf(path), s.idx.SemanticTokens(path))}, nil
}
