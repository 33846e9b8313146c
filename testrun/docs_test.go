package testrun

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/table"
)

var hclFence = regexp.MustCompile("(?s)```hcl\n(.*?)```")

// fence returns the hcl code block of a document that holds marker,
// without the indentation of a list item.
func fence(t *testing.T, doc, marker string) string {
	t.Helper()
	text, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range hclFence.FindAllStringSubmatch(string(text), -1) {
		if strings.Contains(m[1], marker) {
			var lines []string
			for _, l := range strings.Split(m[1], "\n") {
				lines = append(lines, strings.TrimPrefix(l, "   "))
			}
			return strings.Join(lines, "\n")
		}
	}
	t.Fatalf("%s has no hcl block with %q", doc, marker)
	return ""
}

// TestDocumentedTests runs the test blocks the documentation shows, on
// the configurations they test, so that they keep passing.
func TestDocumentedTests(t *testing.T) {
	// The environment is empty, as on a machine without the credentials:
	// the README's step 5 sets no TODO_TOKEN.
	env := func(string) (string, bool) { return "", false }
	for _, tc := range []struct {
		name, config, tests string
	}{
		{"README", fence(t, "../README.md", `tool "list_todos"`), fence(t, "../README.md", `test "open todos"`)},
		{"testing.md", "", fence(t, "../docs/testing.md", `test "search finds dune"`)},
		{"testing.md placeholder", fence(t, "../docs/testing.md", `test "forecast without a key"`), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			config := filepath.Join(dir, "c.hcl")
			if tc.config == "" {
				config = "../examples/library.hcl"
			} else if err := os.WriteFile(config, []byte(tc.config), 0o644); err != nil {
				t.Fatal(err)
			}
			paths := []string{config}
			if tc.tests != "" {
				tests := filepath.Join(dir, "c_test.hcl")
				if err := os.WriteFile(tests, []byte(tc.tests), 0o644); err != nil {
					t.Fatal(err)
				}
				paths = append(paths, tests)
			}
			opts := table.Options{LookupEnv: env}
			p, diags := Prepare(&Suite{Name: tc.name, Paths: paths}, opts)
			if diags.HasErrors() || len(p.Cases) != 1 {
				t.Fatalf("%d cases: %s", len(p.Cases), diags.Error())
			}
			r := RunAll(context.Background(), []*Prepared{p}, nil, Options{Compile: opts})[0]
			if r.Status != Passed {
				t.Fatalf("%s: %s\n%s", r.Status, r.Problems, r.Seen)
			}
		})
	}
}
