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

// TestRealClientNames drives the built `mcpdecl lsp` with
// vscode-languageserver-protocol (scripts/lsp-client/names.js): the
// definition of args.query in an expr-lang string, prepareRename and a
// rename of the tool across two files and a test file (the client
// applies the edits; the folder they leave validates), a refused rename,
// and the semantic tokens.
func TestRealClientNames(t *testing.T) {
	modules := filepath.Join(toolsDir(), "lsp-client", "node_modules")
	node, err := exec.LookPath("node")
	if _, statErr := os.Stat(filepath.Join(modules, "vscode-languageserver-protocol")); statErr != nil || err != nil {
		testenv.Require(t, "node and vscode-languageserver-protocol in "+modules, "run ./scripts/lsp-client.sh")
	}
	bin := filepath.Join(t.TempDir(), "mcpdecl")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/mcpdecl").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := folder(t, shelf)
	cmd := exec.Command(node, "../scripts/lsp-client/names.js", bin, dir)
	cmd.Env = append(os.Environ(), "LSP_CLIENT_MODULES="+modules)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("names.js: %v\n%s", err, out)
	}
	var got struct {
		Legend     []string `json:"legend"`
		Definition location `json:"definition"`
		Prepared   struct {
			Range       Range  `json:"range"`
			Placeholder string `json:"placeholder"`
		} `json:"prepared"`
		Renamed map[string]string `json:"renamed"`
		Refused string            `json:"refused"`
		Tokens  []int             `json:"tokens"`
		Exit    int               `json:"exit"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	src := shelf["tools.hcl"]
	if want := wordRange(t, src, `arg "`, "query"); got.Definition.URI != pathToURI(filepath.Join(dir, "tools.hcl")) || got.Definition.Range != want {
		t.Errorf("definition %+v, want tools.hcl %+v", got.Definition, want)
	}
	if want := wordRange(t, src, `tool "`, "search"); got.Prepared.Range != want || got.Prepared.Placeholder != "search" {
		t.Errorf("prepareRename %+v, want search at %+v", got.Prepared, want)
	}
	if len(got.Renamed) != 3 || !strings.Contains(got.Renamed["shelf_test.hcl"], "tool.find_books") ||
		!strings.Contains(got.Renamed["server.hcl"], `["find_books"]`) {
		t.Errorf("the files after the rename: %v", got.Renamed)
	}
	validatesLikeValidate(t, folder(t, got.Renamed))
	if !strings.Contains(got.Refused, "MCP name") {
		t.Errorf("the rename to %q was not refused with the name rule: %q", "find books", got.Refused)
	}
	if !slices.Equal(got.Legend, tokenTypes) {
		t.Errorf("legend %v", got.Legend)
	}
	toks := decodeTokens(t, src, got.Tokens)
	if !slices.ContainsFunc(toks, func(d decodedToken) bool { return d.text == "query" && d.typ == "parameter" }) {
		t.Errorf("no parameter token query in %+v", toks)
	}
	if got.Exit != 0 {
		t.Errorf("exit status %d", got.Exit)
	}
}
