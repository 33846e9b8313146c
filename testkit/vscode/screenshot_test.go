package vscode

import (
	"bytes"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
)

// screenshotAt is the README's picture of the grammar.
const screenshotAt = "docs/images/vscode-grammar.png"

// palette colours scopes as VS Code's Dark Modern theme does, the first
// rule whose scope a token has winning (so the most specific come first).
var palette = []struct{ scope, color string }{
	{"comment", "#6a9955"},
	{"punctuation.definition.template-expression", "#c586c0"},
	{"punctuation.section.interpolation", "#c586c0"},
	{"keyword.control.heredoc-token", "#c586c0"},
	{"string.quoted.single.expr", "#ce9178"},
	{"support.function", "#dcdcaa"},
	{"variable.language.expr", "#4fc1ff"},
	{"variable.other.property", "#9cdcfe"},
	{"constant.numeric", "#b5cea8"},
	{"constant.language", "#569cd6"},
	{"keyword.operator.expr", "#d4d4d4"},
	{"meta.embedded.expr", "#d4d4d4"},
	{"meta.interpolation", "#9cdcfe"},
	{"variable.language", "#569cd6"},
	{"entity.name.type.block", "#569cd6"},
	{"entity.name.label", "#4ec9b0"},
	{"storage.type", "#4ec9b0"},
	{"variable.other.readwrite", "#9cdcfe"},
	{"string", "#ce9178"},
}

func colorOf(tok token) string {
	for _, p := range palette {
		for _, s := range tok.scopes {
			if strings.HasPrefix(s, p.scope) {
				return p.color
			}
		}
	}
	return "#d4d4d4"
}

// render writes lines from..to (from 1) of file's tokens as an HTML page:
// each token in its colour, and the expr-lang inside strings on a darker
// ground, so that the picture shows where the embedded language is.
func render(toks []token, from, to int) string {
	var b strings.Builder
	b.WriteString(`<!doctype html><meta charset="utf-8"><style>
body{margin:0;background:#1f1f1f}
pre{margin:0;padding:14px 18px;font:15px/21px "DejaVu Sans Mono",monospace;color:#d4d4d4}
.n{display:inline-block;width:2.5em;color:#6e7681;text-align:right;margin-right:1.2em}
.x{background:#2b2f3a}
</style><pre>`)
	line := from
	fmt.Fprintf(&b, `<span class="n">%d</span>`, line)
	for _, tok := range toks {
		if tok.line < from || tok.line > to {
			continue
		}
		for line < tok.line {
			line++
			fmt.Fprintf(&b, "\n<span class=\"n\">%d</span>", line)
		}
		class := ""
		if tok.has("meta.embedded.expr.mcpdecl") {
			class = ` class="x"`
		}
		fmt.Fprintf(&b, `<span%s style="color:%s">%s</span>`, class, colorOf(tok), html.EscapeString(tok.text))
	}
	b.WriteString("</pre>")
	return b.String()
}

// TestGrammarScreenshot renders the checkout tool of examples/library.hcl
// as the grammar colours it and photographs it with headless Chromium;
// with MCPDECL_UPDATE_SCREENSHOT=1 the picture replaces the README's.
func TestGrammarScreenshot(t *testing.T) {
	const file = "../../examples/library.hcl"
	toks := tokenise(t, file)[file]
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		testenv.Require(t, "chromium on PATH", "run ./scripts/browser.sh (Debian's chromium)")
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	from, to := 0, 0
	for i, l := range strings.Split(string(src), "\n") {
		switch {
		case strings.HasPrefix(l, `tool "checkout"`):
			from = i + 1
		case from > 0 && to == 0 && l == "}":
			to = i + 1
		}
	}
	if from == 0 || to == 0 {
		t.Fatalf("%s has no tool \"checkout\" block", file)
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "grammar.html")
	if err := os.WriteFile(page, []byte(render(toks, from, to)), 0o644); err != nil {
		t.Fatal(err)
	}
	png := filepath.Join(dir, "grammar.png")
	height := 28 + 21*(to-from+1)
	cmd := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-default-apps", "--force-device-scale-factor=1", "--user-data-dir="+filepath.Join(dir, "profile"),
		fmt.Sprintf("--window-size=1040,%d", height), "--screenshot="+png, "file://"+page)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	shot, err := os.ReadFile(png)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(shot, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("%s is not a PNG", png)
	}
	if os.Getenv("MCPDECL_UPDATE_SCREENSHOT") == "" {
		return
	}
	if err := os.WriteFile(filepath.Join("../..", screenshotAt), shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", screenshotAt)
}
