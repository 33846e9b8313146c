// Package vscode tests the VS Code extension of editors/vscode: its
// TextMate grammar, run in VS Code's own engine (vscode-textmate on
// vscode-oniguruma, installed by scripts/vsix.sh), tokenises the examples
// with the scopes an editor's theme colours, expr-lang programs and
// {{ }} templates included; and its detection of mcpdecl .hcl files.
package vscode

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
)

// token is one token of a line: where it is, its text and its scopes,
// outermost first.
type token struct {
	line, start, end int
	text             string
	scopes           []string
}

func (t token) has(scope string) bool { return slices.Contains(t.scopes, scope) }

func toolsDir() string {
	if d := os.Getenv("MCPDECL_TOOLS_DIR"); d != "" {
		return d
	}
	abs, _ := filepath.Abs("../../.tools")
	return abs
}

// tokenise runs editors/vscode/grammar-test/tokenize.mjs on files.
func tokenise(t *testing.T, files ...string) map[string][]token {
	t.Helper()
	modules := filepath.Join(toolsDir(), "vscode-grammar", "node_modules")
	node, err := exec.LookPath("node")
	if _, statErr := os.Stat(filepath.Join(modules, "vscode-textmate")); statErr != nil || err != nil {
		testenv.Require(t, "node and vscode-textmate, vscode-oniguruma in "+modules, "run ./scripts/vsix.sh")
	}
	args := append([]string{"../../editors/vscode/grammar-test/tokenize.mjs", "../../editors/vscode/syntaxes/mcpdecl.tmLanguage.json"}, files...)
	cmd := exec.Command(node, args...)
	cmd.Env = append(os.Environ(), "TEXTMATE_MODULES="+modules)
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("tokenize.mjs: %v\n%s", err, stderr)
	}
	var raw map[string][][]any
	if err := json.Unmarshal(out, &raw); err != nil {
		t.Fatal(err)
	}
	got := map[string][]token{}
	for file, toks := range raw {
		for _, r := range toks {
			tok := token{line: int(r[0].(float64)), start: int(r[1].(float64)), end: int(r[2].(float64)), text: r[3].(string)}
			for _, s := range r[4:] {
				tok.scopes = append(tok.scopes, s.(string))
			}
			got[file] = append(got[file], tok)
		}
	}
	return got
}

// at returns the token holding the n-th (from 1) occurrence of word on
// the first line of file that contains marker.
func at(t *testing.T, toks []token, src, marker, word string, n int) token {
	t.Helper()
	lines := strings.Split(src, "\n")
	for i, line := range lines {
		if !strings.Contains(line, marker) {
			continue
		}
		col := -1
		for k := 0; k < n; k++ {
			next := strings.Index(line[col+1:], word)
			if next < 0 {
				t.Fatalf("line %d %q has no occurrence %d of %q", i+1, line, n, word)
			}
			col += 1 + next
		}
		for _, tok := range toks {
			if tok.line == i+1 && tok.start <= col && col < tok.end {
				return tok
			}
		}
		t.Fatalf("no token at line %d column %d", i+1, col)
	}
	t.Fatalf("no line holds %q", marker)
	return token{}
}

type want struct {
	marker, word string
	n            int
	scopes       []string // each must be among the token's scopes
	not          []string // none may be
}

func check(t *testing.T, file string, toks []token, wants []want) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range wants {
		n := max(w.n, 1)
		tok := at(t, toks, string(src), w.marker, w.word, n)
		for _, s := range w.scopes {
			if !tok.has(s) {
				t.Errorf("%s:%d: %q (in %q) lacks %s; scopes %v", file, tok.line, w.word, tok.text, s, tok.scopes)
			}
		}
		for _, s := range w.not {
			if tok.has(s) {
				t.Errorf("%s:%d: %q (in %q) has %s; scopes %v", file, tok.line, w.word, tok.text, s, tok.scopes)
			}
		}
	}
}

const (
	expr     = "meta.embedded.expr.mcpdecl"
	template = "meta.embedded.template.mcpdecl"
	piece    = "meta.template.expression.mcpdecl"
	str      = "string.quoted.double.mcpdecl"
)

func TestGrammarTokenisesTheExamples(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*.hcl")
	edges := "testdata/edges.hcl"
	all := tokenise(t, append(files, edges)...)

	// Everything of every file has a scope besides the file's, and every
	// line that starts a top-level block is read as one: no region (a
	// string, a result block) ran on past its end.
	for _, file := range append(files, edges) {
		toks := all[file]
		if len(toks) == 0 {
			t.Fatalf("%s: no tokens", file)
		}
		for _, tok := range toks {
			if strings.TrimSpace(tok.text) != "" && len(tok.scopes) < 2 {
				t.Errorf("%s:%d: %q has no scope of its own", file, tok.line, tok.text)
			}
			if tok.start == 0 && tok.text != "" && tok.text[0] >= 'a' && tok.text[0] <= 'z' &&
				!tok.has("entity.name.type.block.mcpdecl") {
				t.Errorf("%s:%d: the top-level block %q is read as %v", file, tok.line, tok.text, tok.scopes)
			}
		}
	}

	check(t, "../../examples/library.hcl", all["../../examples/library.hcl"], []want{
		// HCL: comments, blocks, labels, attributes, interpolation, functions.
		{marker: "# A city library", word: "city", scopes: []string{"comment.line.number-sign.mcpdecl"}},
		{marker: `tool "search"`, word: "tool", scopes: []string{"entity.name.type.block.mcpdecl"}},
		{marker: `tool "search"`, word: "search", scopes: []string{"entity.name.label.mcpdecl"}},
		{marker: `backend "http" "catalog"`, word: "catalog", scopes: []string{"entity.name.label.mcpdecl"}},
		{marker: `Find books by words`, word: "description", scopes: []string{"variable.other.readwrite.attribute.mcpdecl"}},
		{marker: `Find books by words`, word: "Find", scopes: []string{str}, not: []string{expr}},
		{marker: `Bearer ${env(`, word: "${", scopes: []string{"punctuation.section.interpolation.begin.mcpdecl"}},
		{marker: `Bearer ${env(`, word: "env", scopes: []string{"meta.interpolation.mcpdecl", "support.function.mcpdecl"}},
		{marker: `type        = integer`, word: "integer", scopes: []string{"storage.type.mcpdecl"}},
		{marker: `= args.limit >= 1`, word: "args", scopes: []string{"variable.language.mcpdecl"}, not: []string{expr}},
		// expr-lang: error.when and result programs.
		{marker: `when    = "status == 404"`, word: "status", scopes: []string{expr, "variable.language.expr.mcpdecl"}},
		{marker: `when    = "status == 404"`, word: "==", scopes: []string{expr, "keyword.operator.expr.mcpdecl"}},
		{marker: `when    = "status == 404"`, word: "404", scopes: []string{expr, "constant.numeric.expr.mcpdecl"}},
		{marker: `(body.available ?? 0) < 1`, word: "??", scopes: []string{expr, "keyword.operator.expr.mcpdecl"}},
		{marker: `(body.available ?? 0) < 1`, word: "available", scopes: []string{expr, "variable.other.property.expr.mcpdecl"}},
		{marker: `structured = "{'books': body}"`, word: "'books'", scopes: []string{expr, "string.quoted.single.expr.mcpdecl"}},
		{marker: `text       = "join(map(body`, word: "join", scopes: []string{expr, "support.function.builtin.expr.mcpdecl"}},
		{marker: `text       = "join(map(body`, word: "#", scopes: []string{expr, "variable.language.expr.mcpdecl"}},
		// {{ }} templates: error.message.
		{marker: `There is no book with ISBN`, word: "There", scopes: []string{template}, not: []string{expr, piece}},
		{marker: `There is no book with ISBN`, word: "{{", scopes: []string{piece, "punctuation.definition.template-expression.begin.mcpdecl"}},
		{marker: `There is no book with ISBN`, word: "args", scopes: []string{piece, expr, "variable.language.expr.mcpdecl"}},
		{marker: `There is no book with ISBN`, word: "}}", scopes: []string{"punctuation.definition.template-expression.end.mcpdecl"}},
		{marker: `steps.book.body.title`, word: "body", scopes: []string{expr, "variable.other.property.expr.mcpdecl"}},
	})
	check(t, "../../examples/calendar.hcl", all["../../examples/calendar.hcl"], []want{
		// result.text holding {{ is a template; without, a program.
		{marker: `{{ len(body) }} events between`, word: "events", scopes: []string{template}, not: []string{expr}},
		{marker: `{{ len(body) }} events between`, word: "len", scopes: []string{piece, "support.function.builtin.expr.mcpdecl"}},
		{marker: `{{ body?.id ?? 'unknown' }}`, word: "?.", scopes: []string{piece, "keyword.operator.expr.mcpdecl"}},
		{marker: `{{ body?.id ?? 'unknown' }}`, word: "'unknown'", scopes: []string{"string.quoted.single.expr.mcpdecl"}},
	})
	check(t, "../../examples/orders.hcl", all["../../examples/orders.hcl"], []want{
		// A heredoc's interpolations are HCL.
		{marker: `WHERE created_at >= ${args.since}`, word: "since", scopes: []string{"string.unquoted.heredoc.mcpdecl", "meta.interpolation.mcpdecl", "variable.other.property.mcpdecl"}},
		{marker: `WHERE created_at >= ${args.since}`, word: "WHERE", scopes: []string{"string.unquoted.heredoc.mcpdecl"}, not: []string{"meta.interpolation.mcpdecl"}},
		{marker: `when    = "len(rows) == 0"`, word: "rows", scopes: []string{expr, "variable.language.expr.mcpdecl"}},
	})
	check(t, edges, all[edges], []want{
		// {{ outside error and result is text, and $${ an escape.
		{marker: `Not a template`, word: "{{", scopes: []string{str}, not: []string{piece, template}},
		{marker: `Not a template`, word: "$${", scopes: []string{"constant.character.escape.mcpdecl"}},
		{marker: `type = list(string)`, word: "list", scopes: []string{"storage.type.mcpdecl"}},
		// A step's when is expr-lang, an escaped quote inside it too.
		{marker: `when = "len(args.x)`, word: "len", scopes: []string{expr, "support.function.builtin.expr.mcpdecl"}},
		{marker: `when = "len(args.x)`, word: "&&", scopes: []string{expr, "keyword.operator.expr.mcpdecl"}},
		{marker: `when = "len(args.x)`, word: "skip", scopes: []string{expr}},
		// The call's path is HCL again.
		{marker: `path = "/items/${args.x[0]}"`, word: "args", scopes: []string{"meta.interpolation.mcpdecl", "variable.language.mcpdecl"}, not: []string{expr}},
		// Inside result: an object's braces do not end the block, and
		// structured, is_error and a heredoc text are read as such.
		{marker: `output_schema = {`, word: "properties", scopes: []string{"meta.block.result.mcpdecl", "variable.other.readwrite.key.mcpdecl"}},
		{marker: `structured    = "{'n'`, word: "len", scopes: []string{"meta.block.result.mcpdecl", expr}},
		{marker: `is_error      = "status >= 500"`, word: ">=", scopes: []string{expr, "keyword.operator.expr.mcpdecl"}},
		{marker: `Found {{ len(body) }} items.`, word: "Found", scopes: []string{template, "string.unquoted.heredoc.mcpdecl"}, not: []string{expr}},
		{marker: `Found {{ len(body) }} items.`, word: "body", scopes: []string{piece, "variable.language.expr.mcpdecl"}},
		{marker: `The result block above has ended.`, word: "description", scopes: []string{"variable.other.readwrite.attribute.mcpdecl"}, not: []string{"meta.block.result.mcpdecl"}},
	})
}

// TestDetectTakesMcpdeclFilesOnly runs the extension's detect.js: every
// example is taken as mcpdecl, HCL of other tools is not.
func TestDetectTakesMcpdeclFilesOnly(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		testenv.Require(t, "node on PATH", "apt-get install nodejs")
	}
	files, _ := filepath.Glob("../../examples/*.hcl")
	files = append(files, "testdata/edges.hcl")
	others := []string{
		"resource \"aws_s3_bucket\" \"b\" {\n  bucket = \"x\"\n}\n",
		"variable \"region\" {\n  default = \"eu\"\n}\nprovider \"aws\" {}\n",
		"job \"web\" {\n  group \"g\" {}\n}\n",
		"source \"amazon-ebs\" \"ubuntu\" {}\nbuild {\n  sources = [\"source.amazon-ebs.ubuntu\"]\n}\n",
		"project = \"shop\"\napp \"web\" {\n  build {\n    use \"docker\" {}\n  }\n}\n", // Waypoint
		"run \"plan\" {\n  command = plan\n}\n",                                         // Terraform's tests
	}
	marked := []string{"# mcpdecl\nvariable \"x\" {}\n", "// mcpdecl: shared variables\nlocals {}\n"}
	script := `
const { looksLikeMcpdecl } = require(process.argv[1]);
const fs = require('fs');
const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const out = {};
for (const f of input.files) out[f] = looksLikeMcpdecl(fs.readFileSync(f, 'utf8'));
input.texts.forEach((s, i) => { out['text' + i] = looksLikeMcpdecl(s); });
process.stdout.write(JSON.stringify(out));`
	detect, _ := filepath.Abs("../../editors/vscode/detect.js")
	in, _ := json.Marshal(map[string]any{"files": files, "texts": append(others, marked...)})
	cmd := exec.Command(node, "-e", script, detect)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got map[string]bool
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !got[f] {
			t.Errorf("%s is not recognised as mcpdecl", f)
		}
	}
	for i, s := range others {
		if got["text"+strconv.Itoa(i)] {
			t.Errorf("another tool's HCL is taken as mcpdecl:\n%s", s)
		}
	}
	for i, s := range marked {
		if !got["text"+strconv.Itoa(len(others)+i)] {
			t.Errorf("a file marked on its first line is not taken:\n%s", s)
		}
	}
}

// TestManifestNamesItsFiles: what editors/vscode/package.json points at is
// in the extension (or copied in by scripts/vsix.sh, as the schema is),
// and its scripts parse.
func TestManifestNamesItsFiles(t *testing.T) {
	raw, err := os.ReadFile("../../editors/vscode/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Main         string
		Dependencies map[string]string
		Contributes  struct {
			Languages []struct {
				ID            string
				Configuration string
			}
			Grammars []struct {
				Language, ScopeName, Path string
			}
			JSONValidation []struct {
				FileMatch []string
				URL       string
			}
		}
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	dir := "../../editors/vscode/"
	files := []string{m.Main, m.Contributes.Languages[0].Configuration, m.Contributes.Grammars[0].Path}
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("package.json names %s: %v", f, err)
		}
	}
	if g := m.Contributes.Grammars[0]; g.Language != m.Contributes.Languages[0].ID || g.ScopeName != "source.mcpdecl" {
		t.Errorf("the grammar %+v is not the language's %q", g, m.Contributes.Languages[0].ID)
	}
	if v := m.Contributes.JSONValidation; len(v) != 1 || v[0].URL != "./schema/mcpdecl.schema.json" || !slices.Contains(v[0].FileMatch, "*.hcl.json") {
		t.Errorf("jsonValidation = %+v", v)
	}
	script, err := os.ReadFile("../../scripts/vsix.sh")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(script), `cp editors/schema/mcpdecl.schema.json "$stage/schema/"`) {
		t.Error("scripts/vsix.sh no longer copies the schema to where jsonValidation points")
	}
	for dep, version := range m.Dependencies {
		if strings.ContainsAny(version, "^~<>*") {
			t.Errorf("dependency %s is not pinned: %q", dep, version)
		}
	}
	node, err := exec.LookPath("node")
	if err != nil {
		testenv.Require(t, "node on PATH", "apt-get install nodejs")
	}
	for _, f := range []string{"extension.js", "detect.js", "grammar-test/tokenize.mjs"} {
		if out, err := exec.Command(node, "--check", filepath.Join(dir, f)).CombinedOutput(); err != nil {
			t.Errorf("%s does not parse: %v\n%s", f, err, out)
		}
	}
}
