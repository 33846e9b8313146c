package lang

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestSyntaxFastPathDecodesAlike loads every configuration of the
// repository's testdata and examples, valid and broken, with and without
// decodeSyntaxBody: the diagnostics must be the same, word for word and
// in order, and so must every decoded value.
func TestSyntaxFastPathDecodesAlike(t *testing.T) {
	var paths []string
	for _, root := range []string{"../testdata", "../examples"} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".hcl") || strings.HasSuffix(p, ".hcl.json")) {
				paths = append(paths, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	paths = append(paths, scriptConfigs(t)...)
	paths = append(paths, manyBlocksConfig(t))
	if len(paths) < 90 {
		t.Fatalf("only %d configurations found", len(paths))
	}
	// A remainder made by PartialContent with an empty schema hides
	// nothing, as the body it came from: compare what a body holds.
	bodies := cmp.Transformer("body", func(b *hclsyntax.Body) map[string]any {
		if b == nil {
			return nil
		}
		return map[string]any{"attrs": b.Attributes, "blocks": b.Blocks, "src": b.SrcRange, "end": b.EndRange, "hidden": hiddenNames(b)}
	})
	all := cmp.Exporter(func(reflect.Type) bool { return true })
	// Functions (cty's, reached through the values of literals) are
	// equal when they are the same code.
	isFunc := func(x, y any) bool {
		return x != nil && y != nil && reflect.TypeOf(x).Kind() == reflect.Func && reflect.TypeOf(y) == reflect.TypeOf(x)
	}
	sameCode := cmp.FilterValues(isFunc, cmp.Comparer(func(x, y any) bool {
		return reflect.ValueOf(x).Pointer() == reflect.ValueOf(y).Pointer()
	}))
	fast, broken := 0, 0
	for _, p := range paths {
		syntaxFastPath = false
		slowCfg, slowDiags := LoadWith(LoadOptions{Tests: true}, p)
		syntaxFastPath = true
		fastCfg, fastDiags := LoadWith(LoadOptions{Tests: true}, p)
		if got, want := render(fastDiags), render(slowDiags); got != want {
			t.Errorf("%s: diagnostics differ:\nfast path:\n%s\nPartialContent:\n%s", p, got, want)
			continue
		}
		if slowDiags.HasErrors() {
			broken++
		}
		slowCfg.Files, fastCfg.Files = nil, nil // each load parsed its own
		if d := cmp.Diff(slowCfg, fastCfg, bodies, all, sameCode); d != "" {
			t.Errorf("%s: decoded values differ (-PartialContent +fast path):\n%s", p, d)
		}
		fast++
	}
	t.Logf("%d configurations compared, %d of them with errors", fast, broken)
	if broken == 0 {
		t.Error("no broken configuration was compared")
	}
}

// scriptConfigs writes out the configurations of cmd/mcpdecl's scripts
// (txtar archives), which hold many of the repository's broken ones.
func scriptConfigs(t *testing.T) []string {
	archives, err := filepath.Glob("../cmd/mcpdecl/testdata/script/*.txtar")
	if err != nil || len(archives) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	var paths []string
	for _, a := range archives {
		ar, err := txtar.ParseFile(a)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), filepath.Base(a))
		for _, f := range ar.Files {
			p := filepath.Join(dir, f.Name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			if IsConfigFile(p) {
				paths = append(paths, p)
			}
		}
	}
	return paths
}

// manyBlocksConfig writes a file of more top-level blocks than
// manyBlocks, some of them with mistakes inside, so that its blocks are
// decoded on every core and their diagnostics must still come in order.
func manyBlocksConfig(t *testing.T) string {
	var b strings.Builder
	for i := range 3 * manyBlocks {
		fmt.Fprintf(&b, "tool \"t%d\" {\n  description = \"Tool %d.\"\n", i, i)
		switch i % 7 {
		case 3:
			b.WriteString("  descriptin = \"typo\"\n")
		case 5:
			b.WriteString("  arg \"x\" {\n    type = strin\n  }\n")
		case 6:
			b.WriteString("  arg {\n  }\n")
		}
		b.WriteString("  result {\n    text = \"'ok'\"\n  }\n}\n")
	}
	p := filepath.Join(t.TempDir(), "many.hcl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func render(diags hcl.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		fmt.Fprintf(&b, "%v %d: %s; %s\n", d.Subject, d.Severity, d.Summary, d.Detail)
	}
	return b.String()
}

// hiddenNames is what a body hides from a later Content call, read
// through the one way hcl offers: the remainder of an empty schema.
func hiddenNames(b *hclsyntax.Body) []string {
	var hidden []string
	for name := range b.Attributes {
		content, _, _ := b.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: name}}})
		if _, ok := content.Attributes[name]; !ok {
			hidden = append(hidden, name)
		}
	}
	slices.Sort(hidden) // cmp calls a transformer twice and wants the same
	return hidden
}

// TestManyBlocksReportInOrder: a big file's blocks are decoded, and its
// tools checked, on every core, and the findings of each stage still come
// in the order the blocks are written (decoding reports before checking,
// as it did one block at a time).
func TestManyBlocksReportInOrder(t *testing.T) {
	_, diags := Load(manyBlocksConfig(t))
	lines := map[string][]int{}
	for _, d := range diags {
		if d.Subject == nil {
			t.Fatalf("no subject: %s", render(hcl.Diagnostics{d}))
		}
		lines[d.Summary] = append(lines[d.Summary], d.Subject.Start.Line)
	}
	if len(lines) < 3 {
		t.Fatalf("want three kinds of mistake:\n%s", render(diags))
	}
	for summary, ls := range lines {
		if len(ls) < 3*manyBlocks/7-1 || !slices.IsSorted(ls) {
			t.Errorf("%q at lines %v: too few or out of order", summary, ls)
		}
	}
}
