package lsp

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// requestsAtAPosition are the requests a cursor makes: each must answer
// with a result or an ordinary error on any text at any position, never
// with the internal error a recovered panic becomes.
var requestsAtAPosition = []string{
	"textDocument/hover", "textDocument/completion", "textDocument/definition",
	"textDocument/references", "textDocument/prepareRename",
}

// FuzzRequestsOnAnyText opens any text, as HCL or as JSON, and asks about
// any position of it: hover, completion, the names' requests, a rename,
// a code action over the position's line, the outline, the semantic
// tokens and formatting.
func FuzzRequestsOnAnyText(f *testing.F) {
	json, err := os.ReadFile("../testdata/valid/json_syntax.hcl.json")
	if err != nil {
		f.Fatal(err)
	}
	for _, src := range []string{books, withCallLine(books, `    query  = { x = "😀é", q = args.qery }`), sideEffects, "tool \"x\" {\n  arg \"\n", "{{ args.", "\"\xff\"\r\n\t"} {
		for _, pos := range [][2]int{{0, 0}, {3, 4}, {28, 20}, {34, 35}, {100, 100}, {-1, -5}} {
			f.Add(src, false, pos[0], pos[1])
		}
	}
	f.Add(string(json), true, 14, 6)
	f.Add(string(json), true, 22, 40)
	for _, src := range []string{booksJSON, plantsJSON, `{"tool": {"x": {"arg": {"q": {"ty`, "{\"a\": ]] {\"\\", `[{"tool": {"x": {"when": "args.`} {
		for _, pos := range [][2]int{{0, 1}, {3, 4}, {20, 10}, {39, 30}} {
			f.Add(src, true, pos[0], pos[1])
		}
	}
	f.Fuzz(func(t *testing.T, src string, asJSON bool, line, char int) {
		name := "fuzz.hcl"
		if asJSON {
			name = "fuzz.hcl.json"
		}
		s := &Server{Debounce: time.Hour, Index: NewNameIndex()}
		c := startClient(t, s)
		c.initialize()
		uri := c.open(filepath.Join(t.TempDir(), name), src)
		doc := map[string]any{"uri": uri}
		pos := Position{Line: line, Character: char}
		ask := func(method string, params map[string]any) {
			if m := c.await(c.send(method, params)); m.Error != nil && m.Error.Code == codeInternalError {
				t.Errorf("%s at %+v: %s", method, pos, m.Error.Message)
			}
		}
		for _, method := range requestsAtAPosition {
			ask(method, map[string]any{"textDocument": doc, "position": pos, "context": map[string]any{"includeDeclaration": true}})
		}
		ask("textDocument/rename", map[string]any{"textDocument": doc, "position": pos, "newName": "renamed"})
		whole := Range{Start: Position{Line: line}, End: Position{Line: line + 1}}
		diag := Diagnostic{Range: whole, Code: "MCPD012", Message: "Did you mean args.query?"}
		ask("textDocument/codeAction", map[string]any{"textDocument": doc, "range": whole, "context": map[string]any{"diagnostics": []Diagnostic{diag}}})
		ask("textDocument/documentSymbol", map[string]any{"textDocument": doc})
		ask("textDocument/semanticTokens/full", map[string]any{"textDocument": doc})
		ask("textDocument/formatting", map[string]any{"textDocument": doc, "options": map[string]any{"tabSize": 2, "insertSpaces": true}})
	})
}
