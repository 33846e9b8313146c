package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeConfig is the hcl block of README.md holding marker, as a reader
// copies it (the indentation of a list item removed).
func readmeConfig(t *testing.T, marker string) string {
	t.Helper()
	text, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile("(?s)```hcl\n(.*?)```").FindAllStringSubmatch(string(text), -1) {
		if strings.Contains(m[1], marker) {
			return m[1]
		}
	}
	t.Fatalf("README.md has no hcl block with %q", marker)
	return ""
}

// TestREADMEQuickstart runs steps 1 to 3 of the README's five-minute
// walk-through on its todos.hcl, as written: it validates with no
// warning, is laid out as fmt lays it out, and a misspelt argument gets
// the suggestion the README promises.
func TestREADMEQuickstart(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "todos.hcl")
	text := readmeConfig(t, `tool "list_todos"`)
	if err := os.WriteFile(config, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"validate", "--strict", config},
		{"fmt", "--check", config},
		{"inspect", config},
	} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != 0 {
			t.Errorf("mcpdecl %s: exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errOut.String())
		}
	}
	misspelt := strings.Replace(text, "title = args.title", "title = args.titel", 1)
	if misspelt == text {
		t.Fatal("README's todos.hcl no longer sends title = args.title")
	}
	if err := os.WriteFile(config, []byte(misspelt), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := run([]string{"validate", config}, &out, &errOut)
	if got := out.String() + errOut.String(); code != 1 || !strings.Contains(got, "Did you mean args.title?") {
		t.Errorf("validate of args.titel: exit %d, want 1 and the README's suggestion \"Did you mean args.title?\":\n%s", code, got)
	}
}
