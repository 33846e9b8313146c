package lang

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestDirectoryTestFiles checks that loading a directory skips its test
// files unless LoadOptions.Tests asks for them.
func TestDirectoryTestFiles(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.hcl":      "tool \"t\" {\n  description = \"T.\"\n  content \"text\" {\n    text = \"t\"\n  }\n}\ntest \"inline\" {\n  call = tool.t\n}\n",
		"a_test.hcl": "test \"beside\" {\n  call = tool.t\n}\n",
	})
	cfg, diags := Load(dir)
	if diags.HasErrors() || len(cfg.Tests) != 1 || cfg.Tests[0].Name != "inline" {
		t.Fatalf("Load: %v, tests %d", diags, len(cfg.Tests))
	}
	if _, ok := cfg.Files[filepath.Join(dir, "a_test.hcl")]; ok {
		t.Error("Load read the test file")
	}
	cfg, diags = LoadWith(LoadOptions{Tests: true}, dir)
	if diags.HasErrors() || len(cfg.Tests) != 2 {
		t.Fatalf("LoadWith Tests: %v, tests %d", diags, len(cfg.Tests))
	}
}

func TestTestBlockShape(t *testing.T) {
	for name, tc := range map[string]struct{ file, src, want string }{
		"config in a test file": {"x_test.hcl", "tool \"t\" {\n  description = \"T.\"\n}\n", "holds test blocks only"},
		"no call":               {"x.hcl", "test \"a\" {\n}\n", `Test "a" calls nothing`},
		"two calls":             {"x.hcl", "test \"a\" {\n  call = tool.t\n  resource = \"x://y\"\n}\n", "set either call or resource, not both"},
		"two expects":           {"x.hcl", "test \"a\" {\n  call = tool.t\n  expect {\n  }\n  expect {\n  }\n}\n", "A test has one expect block"},
		"mock without response": {"x.hcl", "test \"a\" {\n  call = tool.t\n  mock \"api\" {\n  }\n}\n", "A mock needs one response block"},
		"duplicate name":        {"x.hcl", "test \"a\" {\n  call = tool.t\n}\ntest \"a\" {\n  call = tool.t\n}\n", `A test named "a" was already declared`},
		"unknown attribute":     {"x.hcl", "test \"a\" {\n  call = tool.t\n  arg = {}\n}\n", "Unsupported argument"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{tc.file: tc.src})
			_, diags := Load(filepath.Join(dir, tc.file))
			if !diags.HasErrors() {
				t.Fatal("no error")
			}
			text := diags.Error()
			for _, d := range diags {
				text += " " + d.Detail
				if d.Subject == nil || d.Subject.Start.Line == 0 {
					t.Errorf("diagnostic without a place: %s", d.Summary)
				}
			}
			if !strings.Contains(text, tc.want) {
				t.Errorf("got %s, want %q", text, tc.want)
			}
		})
	}
}

func TestIsTestFile(t *testing.T) {
	for name, want := range map[string]bool{"a_test.hcl": true, "dir/a_test.hcl.json": true, "a.hcl": false, "test.hcl": false, "a_test.hcl.bak": false} {
		if IsTestFile(name) != want {
			t.Errorf("IsTestFile(%q) = %v", name, !want)
		}
	}
}
