package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExamplesAreCleanAndTheirTestsChecked opens every example as an
// editor would: each is a configuration of its own (examples/ holds
// several servers) with its test file, and validate finds nothing in
// them, so neither may the server. A misspelt tool in a test file's
// buffer is then reported in that file.
func TestExamplesAreCleanAndTheirTestsChecked(t *testing.T) {
	dir, err := filepath.Abs("../examples")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.hcl"))
	c := startClient(t, newServer())
	c.initialize()
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		uri := c.open(f, string(src))
		c.awaitVersion(uri, 1)
		c.mu.Lock()
		diags := c.diags[uri]
		c.mu.Unlock()
		if len(diags) != 0 {
			t.Errorf("%s: %+v", filepath.Base(f), diags)
		}
	}
	testFile := filepath.Join(dir, "library_test.hcl")
	src, _ := os.ReadFile(testFile)
	uri := pathToURI(testFile)
	c.change(uri, 2, contentChange{Text: strings.Replace(string(src), "call = tool.search\n", "call = tool.serch\n", 1)})
	diags := c.diagnosticsFor(uri, func(d []Diagnostic) bool { return len(d) > 0 })
	if !strings.Contains(diags[0].Message, "search") || diags[0].Range.Start.Line != 4 {
		t.Errorf("the misspelt target: %+v", diags)
	}
}
