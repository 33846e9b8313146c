package lsp

import (
	"context"
	"encoding/json"
	"os"
	"slices"
)

// Index is what answers the requests that need every name of a
// configuration and every place it is used: textDocument/definition,
// references, rename, semanticTokens/full. It is given to Server and
// plugged in as it is: its capabilities join initialize's answer and its
// methods are routed to it, each on its own goroutine with a context
// that $/cancelRequest ends.
type Index interface {
	// Capabilities are added to the server capabilities of initialize
	// ("definitionProvider": true, ...).
	Capabilities() map[string]any
	// Methods are the request methods Answer takes.
	Methods() []string
	// Answer answers one request; src reads the files as the editor
	// has them.
	Answer(ctx context.Context, method string, params json.RawMessage, src Source) (any, error)
}

// Source is the configuration as the editor has it.
type Source interface {
	// Overlay is the text of every open file, by path, for
	// lang.LoadOptions.Overlay.
	Overlay() map[string][]byte
	// ConfigPaths are the paths to load for the configuration of the
	// file at path (its folder, or the file alone with its test file).
	ConfigPaths(path string) []string
	// ConfigFiles are the texts of every file of path's configuration,
	// the editor's buffers before the disk, by path (langindex.Build
	// takes them as they are).
	ConfigFiles(path string) map[string][]byte
	// Text is an open file's text as the editor has it.
	Text(path string) (string, bool)
	// Path and URI convert between the client's URIs and file paths.
	Path(uri string) string
	URI(path string) string
}

// PositionOf is the protocol position (UTF-16) of a byte offset of src,
// and OffsetOf the byte offset of a position: an index works in hcl's
// bytes and answers in the protocol's units through them.
func PositionOf(src string, offset int) Position { return newText(src).position(offset) }

// OffsetOf is the byte offset of p in src.
func OffsetOf(src string, p Position) int { return newText(src).offset(p) }

// source is Server's Source.
type source struct{ s *Server }

func (src source) Overlay() map[string][]byte { return src.s.docs.overlay() }
func (src source) ConfigPaths(path string) []string {
	return unitOf(path, src.s.docs.overlay()).paths
}
func (src source) ConfigFiles(path string) map[string][]byte {
	overlay := src.s.docs.overlay()
	out := map[string][]byte{}
	for _, f := range unitFiles(path, overlay) {
		if text, ok := overlay[f]; ok {
			out[f] = text
		} else if text, err := os.ReadFile(f); err == nil {
			out[f] = text
		}
	}
	return out
}

func (src source) Text(path string) (string, bool) {
	if doc := src.s.docs.get(path); doc != nil {
		return doc.text.src, true
	}
	return "", false
}
func (src source) Path(uri string) string { return uriToPath(uri) }
func (src source) URI(path string) string { return src.s.docs.uriOf(path) }

// indexRequest is the handler of method when the Index answers it.
func (s *Server) indexRequest(method string) (handler, bool) {
	if s.Index == nil || !slices.Contains(s.Index.Methods(), method) {
		return nil, false
	}
	return func(s *Server, ctx context.Context, params json.RawMessage) (any, error) {
		return s.Index.Answer(ctx, method, params, source{s})
	}, true
}
