package langindex

import (
	"maps"
	"strings"
	"testing"
)

// A file being typed is broken most of the time: what parses is still
// indexed, in it and in the files that refer to it.
func TestBrokenFiles(t *testing.T) {
	tests := []struct {
		name     string
		old, new string
		// gone is a declaration the break may lose (the block it is in).
		lost string
	}{
		{"string left open", `description = "Find books."`, `description = "Find books.`, "search"},
		{"value missing", `description = "Find books."`, `description =`, ""},
		{"block left open", "ui {\n    app = \"dash\"\n  }\n}", "ui {\n    app = \"dash\"\n  }\n", ""},
		{"expr-lang half typed", `"status == 404 and args.query matches '^x'"`, `"status == 404 and args.`, ""},
		{"template left open", `{{ len(steps.lookup.body) }}`, `{{ len(steps.lookup.body`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := readDir(t, "testdata")
			broken := maps.Clone(files)
			if !strings.Contains(string(files["main.hcl"]), tt.old) {
				t.Fatalf("main.hcl holds no %q", tt.old)
			}
			broken["main.hcl"] = []byte(strings.Replace(string(files["main.hcl"]), tt.old, tt.new, 1))
			idx := Build(broken)
			// Blocks after the break are still found, from other files too.
			for _, s := range []spot{
				{"main.hcl", `toolset "books"`, "books"},
				{"main.hcl", `"other", "oth*"`, "other"},
				{"main.hcl", "{?lang}", "lang"},
				{"main.hcl", "${args.query} in", "query"},
				{"more.hcl", "var.base_url", "base_url"},
				{"main_test.hcl", `mock "api"`, "api"},
				{"main_test.hcl", "prompt.plan", "plan"},
			} {
				if _, ok := idx.Definition(s.file, s.pos(t, broken)); !ok {
					t.Errorf("%s: %q finds no definition", s.file, s.context)
				}
			}
			if tt.lost == "" {
				if _, ok := idx.Definition("main_test.hcl", spot{"main_test.hcl", "tool.search", "search"}.pos(t, broken)); !ok {
					t.Error("the tool of the broken block is lost")
				}
			}
		})
	}
}

// Whatever the bytes, Build does not fail, and every range it gives lies
// within its file.
func TestBuildOddInput(t *testing.T) {
	inputs := map[string]string{
		"empty.hcl":           "",
		"binary.hcl":          "\x00\xff\xfe{{\"\\",
		"json_open.hcl.json":  `{"tool": {"a": {"arg": {"x": {}}, "error": [{"when": "args.x ==`,
		"json_wrong.hcl.json": `[1, 2, "${var.x}"]`,
		"open_heredoc.hcl":    "tool \"a\" {\n  result {\n    text = <<EOT\n{{ args.x }}\n",
		"escape_at_end.hcl":   "tool \"a\" {\n  error {\n    when = \"args.x \\",
		"labels_only.hcl":     "tool {\n}\nstep \"x\" {\n}\narg \"y\" {}\n",
		"uri.hcl":             "resource_template \"t\" {\n  uri_template = \"a://{}{,}{?}{x\"\n}\n",
	}
	for name, src := range inputs {
		checkRanges(t, map[string][]byte{name: []byte(src)})
	}
}

func FuzzBuild(f *testing.F) {
	for _, src := range readDir(f, "testdata") {
		f.Add(src, false)
		f.Add(src, true)
	}
	f.Fuzz(func(t *testing.T, src []byte, json bool) {
		name := "f.hcl"
		if json {
			name = "f.hcl.json"
		}
		checkRanges(t, map[string][]byte{name: src})
	})
}

func checkRanges(t *testing.T, files map[string][]byte) {
	t.Helper()
	idx := Build(files)
	for name, src := range files {
		fi := idx.files[name]
		check := func(what string, start, end int) {
			if start < 0 || end > len(src) || start > end {
				t.Errorf("%s: %s at bytes %d-%d of %d", name, what, start, end, len(src))
			}
		}
		for _, s := range fi.symbols {
			check("symbol "+s.Name, s.NameRange.Start.Byte, s.NameRange.End.Byte)
		}
		for _, r := range fi.refs {
			check("use of "+r.key.name, r.rng.Start.Byte, r.rng.End.Byte)
		}
		for _, tk := range idx.SemanticTokens(name) {
			check("token", tk.Range.Start.Byte, tk.Range.End.Byte)
		}
	}
}
