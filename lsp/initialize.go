package lsp

import (
	"context"
	"encoding/json"
	"maps"
)

// initialize answers the client's first request with what the server
// does: full documents on open, incremental changes after.
func (s *Server) initialize(context.Context, json.RawMessage) (any, error) {
	const incremental = 2
	caps := map[string]any{
		"textDocumentSync": map[string]any{
			"openClose": true,
			"change":    incremental,
			"save":      map[string]any{"includeText": false},
		},
		"documentFormattingProvider": true,
		"documentSymbolProvider":     true,
		"hoverProvider":              true,
		"completionProvider": map[string]any{
			// "." after args, steps.NAME, var, local; '"' opens a label
			// or a string whose {{ }} may name them.
			"triggerCharacters": []string{".", "\"", "{"},
		},
		"codeActionProvider": map[string]any{"codeActionKinds": []string{"quickfix"}},
	}
	if s.Index != nil {
		maps.Copy(caps, s.Index.Capabilities())
	}
	return map[string]any{
		"capabilities": caps,
		"serverInfo":   map[string]any{"name": "mcpdecl", "version": s.Version},
	}, nil
}
