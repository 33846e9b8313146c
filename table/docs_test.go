package table_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// configBlocks are the block types a configuration file holds at its top
// level; a documentation example with anything else is a fragment.
var configBlocks = map[string]bool{
	"server": true, "auth": true, "variable": true, "locals": true, "backend": true, "tool": true,
	"resource": true, "resource_template": true, "app": true, "prompt": true,
}

var (
	hclFence = regexp.MustCompile("(?s)```hcl\n(.*?)```")
	callRef  = regexp.MustCompile(`(?m)^\s+(http|sql) "([^"]+)" \{`)
	fileRef  = regexp.MustCompile(`\bfile(?:base64)?\("([^"]+)"\)|(?m)^\s*file\s*=\s*"([^"]+)"`)
	// folderRef is the folder of file(folder, name).
	folderRef = regexp.MustCompile(`\bfile(?:base64)?\("([^"]+)",`)
)

// TestDocumentationExamples validates every whole example configuration in
// README.md and docs/language.md, as a reader following them would write
// it: a backend an example only refers to is added as a stub, a file it
// reads is created empty. Fragments (a call block, a few attributes) are
// skipped; the examples must hold no error.
func TestDocumentationExamples(t *testing.T) {
	checked := 0
	for _, doc := range []string{"../README.md", "../docs/language.md"} {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range hclFence.FindAllStringSubmatch(string(text), -1) {
			src := m[1]
			if !wholeConfig(src) {
				continue
			}
			checked++
			t.Run(fmt.Sprintf("%s#%d", filepath.Base(doc), i+1), func(t *testing.T) {
				path := writeExample(t, src)
				_, _, diags := compilePaths(path)
				for _, d := range diags {
					if d.Severity == hcl.DiagError {
						t.Errorf("%s: %s\n%s", d.Summary, d.Detail, src)
					}
				}
			})
		}
	}
	if checked < 15 {
		t.Errorf("only %d whole examples found in the documentation; the extraction is broken", checked)
	}
}

// wholeConfig reports whether src parses as a file of configuration
// blocks only.
func wholeConfig(src string) bool {
	f, diags := hclsyntax.ParseConfig([]byte(src), "example.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		return false
	}
	body := f.Body.(*hclsyntax.Body)
	if len(body.Attributes) > 0 || len(body.Blocks) == 0 {
		return false
	}
	for _, b := range body.Blocks {
		if !configBlocks[b.Type] {
			return false
		}
	}
	return true
}

// writeExample writes src with stubs for the backends it refers to but
// does not declare, and placeholder files and folders for the files it reads.
func writeExample(t *testing.T, src string) string {
	dir := t.TempDir()
	var stubs strings.Builder
	seen := map[string]bool{}
	for _, m := range callRef.FindAllStringSubmatch(src, -1) {
		kind, name := m[1], m[2]
		if seen[name] || strings.Contains(src, fmt.Sprintf("backend %q %q", kind, name)) {
			continue
		}
		seen[name] = true
		switch kind {
		case "http":
			fmt.Fprintf(&stubs, "backend \"http\" %q {\n  base_url = \"http://127.0.0.1:1\"\n}\n", name)
		case "sql":
			fmt.Fprintf(&stubs, "backend \"sql\" %q {\n  driver    = \"sqlite\"\n  dsn       = \"file::memory:\"\n  read_only = false\n}\n", name)
		}
	}
	for _, m := range fileRef.FindAllStringSubmatch(src, -1) {
		p := filepath.Join(dir, m[1]+m[2]) // file("x") or file = "x"
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("placeholder\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range folderRef.FindAllStringSubmatch(src, -1) {
		if err := os.MkdirAll(filepath.Join(dir, m[1]), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "example.hcl")
	if err := os.WriteFile(path, []byte(src+"\n"+stubs.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
