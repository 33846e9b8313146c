package lang_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/diagtext"
	"github.com/mcpdecl/mcpdecl/internal/largecfg"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/lint"
	"github.com/mcpdecl/mcpdecl/serving"
	"github.com/mcpdecl/mcpdecl/table"
)

// TestLeanLoadFindsTheSame: a lean load and a compile that makes the
// tools slim give what a load with the syntax tree and a plain compile
// give, for every configuration of the repository: the load's and the compile's
// diagnostics as the text report prints them (snippets, and the "in tool
// ..." line that File.Nav answers), the compiled table as inspect shows
// it, and the lint findings (which read the references Load records, and
// only what a slim tool keeps).
func TestLeanLoadFindsTheSame(t *testing.T) {
	paths := repositoryConfigs(t)
	headed := 0
	for _, p := range paths {
		t.Run(p, func(t *testing.T) {
			full := outcomeOf(t, lang.LoadOptions{}, p)
			lean := outcomeOf(t, lang.LoadOptions{Lean: true}, p)
			for _, part := range []string{"load", "compile", "table", "lint"} {
				if full[part] != lean[part] {
					t.Errorf("%s differs.\nwith the tree:\n%s\nlean:\n%s", part, full[part], lean[part])
				}
			}
			if lean["heads"] != "" {
				headed++
			}
		})
	}
	if headed < len(paths)/2 {
		t.Errorf("only %d of %d configurations kept their block headers", headed, len(paths))
	}
}

func configPaths(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() || lang.IsConfigFile(e.Name()) && !lang.IsTestFile(e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// outcomeOf loads p with opts and says what came of it, part by part.
func outcomeOf(t *testing.T, opts lang.LoadOptions, p string) map[string]string {
	t.Helper()
	out := map[string]string{}
	cfg, diags := lang.LoadWith(opts, p)
	out["load"] = report(t, diags, cfg.Files)
	for name, f := range cfg.Files {
		body, ok := f.Body.(*hclsyntax.Body)
		if opts.Lean && ok && len(body.Blocks) > 0 {
			t.Errorf("a lean load kept the syntax tree of %s", name)
		}
		if _, heads := f.Nav.(interface{ ContextString(int) string }); opts.Lean && ok && heads && len(f.Bytes) > 0 {
			out["heads"] = "yes"
		}
	}
	if cfg.Incomplete {
		return out
	}
	tbl, d := table.Compile(cfg, all.Registry(), table.Options{Slim: opts.Lean}) // as serve and validate compile
	compiled := compiledOutcome(t, cfg, tbl, d)
	out["compile"], out["table"], out["lint"] = compiled["diagnostics"], compiled["table"], compiled["lint"]
	return out
}

func report(t *testing.T, diags hcl.Diagnostics, files map[string]*hcl.File) string {
	t.Helper()
	diagtext.Sort(diags)
	var b bytes.Buffer
	if err := diagtext.WriteText(&b, diags, files); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestServedCompileFindsTheSame: what serve and validate compile
// (serving.Compile: a big file's tools compiled as they are read, batch by
// batch, else a lean load; tools made slim) is what a load with the tree
// and a plain compile give, for every configuration of the repository,
// with every file cut into pieces of one top-level block: the load's and
// the compile's diagnostics together as the text report prints them, the
// table as inspect shows it, the lint findings.
func TestServedCompileFindsTheSame(t *testing.T) {
	defer lang.SetLeanChunkSize(1)()
	paths := repositoryConfigs(t)
	streamed := 0
	for _, p := range paths {
		t.Run(p, func(t *testing.T) {
			compareServed(t, p)
			if _, ok := lang.OpenStream([]string{p}); ok {
				streamed++
			}
		})
	}
	t.Logf("%d of %d configurations compiled as their tools were read", streamed, len(paths))
	if streamed < len(paths)/2 {
		t.Errorf("only %d of %d configurations were compiled as their tools were read", streamed, len(paths))
	}
}

// compareServed compares what serving.Compile makes of path with a load
// of the tree and a plain compile, and returns the latter's outcome.
func compareServed(t *testing.T, path string) map[string]string {
	t.Helper()
	cfg, diags := lang.Load(path)
	var tbl *table.Table
	if !cfg.Incomplete {
		var d hcl.Diagnostics
		tbl, d = table.Compile(cfg, all.Registry(), table.Options{})
		diags = diagtext.Dedupe(append(diags, d...))
	}
	want := compiledOutcome(t, cfg, tbl, diags)
	cfg, tbl, diags = serving.Compile([]string{path}, nil, nil)
	got := compiledOutcome(t, cfg, tbl, diags)
	for _, part := range []string{"diagnostics", "table", "lint"} {
		if want[part] != got[part] {
			t.Errorf("%s differs.\nloaded whole:\n%s\nas served:\n%s", part, want[part], got[part])
		}
	}
	return want
}

func compiledOutcome(t *testing.T, cfg *lang.Config, tbl *table.Table, diags hcl.Diagnostics) map[string]string {
	t.Helper()
	out := map[string]string{"diagnostics": report(t, diags, cfg.Files)}
	if tbl == nil {
		return out
	}
	inspected, err := json.Marshal(table.Inspect(tbl))
	if err != nil {
		t.Fatal(err)
	}
	out["table"] = string(inspected)
	out["lint"] = report(t, lint.Check(cfg, tbl), cfg.Files)
	return out
}

// TestLeanLoadKeepsNoTree: what a lean load of a big generated
// configuration keeps is well under what a load with the tree keeps; a
// kept node of the parser's chunks (a block's body held by what was
// decoded) would keep a good part of the tree, and this fails.
func TestLeanLoadKeepsNoTree(t *testing.T) {
	path := filepath.Join(t.TempDir(), "large.hcl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := largecfg.Write(f, 1000); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	full := heldBy(t, lang.LoadOptions{}, path)
	lean := heldBy(t, lang.LoadOptions{Lean: true}, path)
	t.Logf("held after load: %.1f MB with the tree, %.1f MB lean", float64(full)/1e6, float64(lean)/1e6)
	if lean*10 > full*7 {
		t.Errorf("a lean load holds %d bytes, more than 70%% of the %d a load with the tree holds", lean, full)
	}
}

// heldBy is the live heap a load of path holds.
func heldBy(t *testing.T, opts lang.LoadOptions, path string) uint64 {
	t.Helper()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cfg, diags := lang.LoadWith(opts, path)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(cfg)
	return after.HeapAlloc - before.HeapAlloc
}

// TestStreamFallsBack: a big file a stream cannot read (a syntax error in
// a tool; a tool and another block on one line) is loaded whole instead,
// with what a whole load finds.
func TestStreamFallsBack(t *testing.T) {
	defer lang.SetLeanChunkSize(1)()
	tool := func(i int) string {
		return fmt.Sprintf("tool \"t%d\" {\n  description = \"Echo a text back, number %d, for tests of the stream.\"\n  arg \"text\" {\n    type = string\n    description = \"The text to echo.\"\n  }\n  result {\n    text = \"args.text\"\n  }\n}\n", i, i)
	}
	var many strings.Builder
	for i := range 20 {
		many.WriteString(tool(i))
	}
	for name, src := range map[string]string{
		"syntax.hcl":   many.String() + "tool \"broken\" {\n  description = \"unterminated\n}\n" + tool(99),
		"oneline.hcl":  many.String() + "tool \"x\" { description = \"One line.\" \n result { text = \"'x'\" } } variable \"v\" { default = 1 }\n",
		"variable.hcl": "variable \"greeting\" {\n  default = \"hi\"\n}\n" + many.String(),
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			if want := compareServed(t, path); want["diagnostics"] == "" && name != "variable.hcl" {
				t.Errorf("no diagnostics for %s: the case tests nothing", name)
			}
		})
	}
}

// TestStreamKeepsToolOrder: in a directory, the tools of files read whole
// (one block, JSON syntax) come in their file's turn among the tools of a
// big file read in pieces, as a load orders them.
func TestStreamKeepsToolOrder(t *testing.T) {
	defer lang.SetLeanChunkSize(1)()
	dir := t.TempDir()
	tool := func(name string) string {
		return fmt.Sprintf("tool %q {\n  description = \"Echo a text back, for tests of the stream's order.\"\n  arg \"text\" {\n    type = string\n    description = \"The text to echo.\"\n  }\n  result {\n    text = \"args.text\"\n  }\n}\n", name)
	}
	var big strings.Builder
	for i := range 10 {
		big.WriteString(tool(fmt.Sprintf("b%d", i)))
	}
	files := map[string]string{
		"a_one.hcl":       tool("a"),
		"b_many.hcl":      big.String(),
		"c_one.hcl":       tool("c"),
		"d_json.hcl.json": `{"tool": {"d": {"description": "Echo a text back, for tests of the stream's order.", "arg": {"text": {"type": "string", "description": "The text to echo."}}, "result": {"text": "args.text"}}}}`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := lang.OpenStream([]string{dir}); !ok {
		t.Fatal("the directory is not read as a stream")
	}
	compareServed(t, dir)
	_, tbl, diags := serving.Compile([]string{dir}, nil, nil)
	if tbl == nil {
		t.Fatal(diags)
	}
	var names []string
	for _, tool := range tbl.Tools {
		names = append(names, tool.Name)
	}
	if got, want := strings.Join(names, " "), "a b0 b1 b2 b3 b4 b5 b6 b7 b8 b9 c d"; got != want {
		t.Errorf("tools in the order %s, want %s", got, want)
	}
}

// repositoryConfigs are the configurations of testdata/valid,
// testdata/invalid and examples.
func repositoryConfigs(t *testing.T) []string {
	var paths []string
	for _, dir := range []string{"../testdata/valid", "../testdata/invalid", "../examples"} {
		paths = append(paths, configPaths(t, dir)...)
	}
	return paths
}
