package lsp

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
)

func toolsDir() string {
	if d := os.Getenv("MCPDECL_TOOLS_DIR"); d != "" {
		return d
	}
	abs, _ := filepath.Abs("../.tools")
	return abs
}

// TestRealClient drives the built `mcpdecl lsp` over stdio with
// vscode-languageserver-protocol (scripts/lsp-client/client.js): the
// diagnostics of a broken file at UTF-16 ranges, its quick fix, then
// completion, hover, formatting, completion and hover in a file of the
// JSON syntax, and a clean shutdown.
func TestRealClient(t *testing.T) {
	modules := filepath.Join(toolsDir(), "lsp-client", "node_modules")
	node, err := exec.LookPath("node")
	if _, statErr := os.Stat(filepath.Join(modules, "vscode-languageserver-protocol")); statErr != nil || err != nil {
		testenv.Require(t, "node and vscode-languageserver-protocol in "+modules, "run ./scripts/lsp-client.sh")
	}
	bin := filepath.Join(t.TempDir(), "mcpdecl")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/mcpdecl").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "books.hcl")
	if err := os.WriteFile(file, []byte(withCallLine(books, `    query  = { x = "😀é", q = args.qery }`)), 0o644); err != nil {
		t.Fatal(err)
	}
	jsonFile := filepath.Join(t.TempDir(), "books.hcl.json")
	typing := strings.Replace(booksJSON, `"result": { "text": "string(len(body))" }`, `"result": { "text": "args.", "i" }`, 1)
	if err := os.WriteFile(jsonFile, []byte(typing), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "../scripts/lsp-client/client.js", bin, file, jsonFile)
	cmd.Env = append(os.Environ(), "LSP_CLIENT_MODULES="+modules)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("client.js: %v\n%s", err, out)
	}
	var got struct {
		Sync   int `json:"sync"`
		Broken []struct {
			Code   string `json:"code"`
			Range  Range  `json:"range"`
			Source string `json:"source"`
		} `json:"broken"`
		Fix        string   `json:"fix"`
		Completion []string `json:"completion"`
		Hover      string   `json:"hover"`
		Formatting int      `json:"formatting"`
		Exit       int      `json:"exit"`
		JSON       struct {
			Completion []string  `json:"completion"`
			Keys       []string  `json:"keys"`
			KeyEdit    *textEdit `json:"keyEdit"`
			Hover      string    `json:"hover"`
		} `json:"json"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	want := Range{Start: Position{34, 30}, End: Position{34, 39}}
	if len(got.Broken) != 1 || got.Broken[0].Code != "MCPD012" || got.Broken[0].Range != want || got.Broken[0].Source != "mcpdecl" {
		t.Errorf("diagnostics %+v, want MCPD012 at %+v", got.Broken, want)
	}
	if got.Sync != 2 || got.Fix != "Change to args.query" || !slices.Equal(got.Completion, []string{"query"}) ||
		got.Hover != "**args.query** `string`\n\nWords from the title or author." || got.Formatting != 0 || got.Exit != 0 {
		t.Errorf("the session: %s", out)
	}
	keyAt := newText(typing).position(strings.Index(typing, `"i"`))
	if j := got.JSON; !slices.Equal(j.Completion, []string{"query"}) || !slices.Contains(j.Keys, "is_error") || slices.Contains(j.Keys, "text") ||
		j.KeyEdit == nil || j.KeyEdit.NewText != `"is_error": ` || j.KeyEdit.Range.Start != keyAt ||
		!strings.HasPrefix(j.Hover, "**arg**") {
		t.Errorf("the JSON file: %+v", j)
	}
}
