package lang

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func TestLoadValidFiles(t *testing.T) {
	for _, dir := range []string{"../testdata/valid", "../examples"} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !e.IsDir() && !IsConfigFile(e.Name()) {
				continue
			}
			path := filepath.Join(dir, e.Name())
			t.Run(path, func(t *testing.T) {
				cfg, diags := Load(path)
				if len(diags) > 0 {
					t.Fatalf("Load(%q): %s", path, diags)
				}
				if cfg.Incomplete {
					t.Fatal("config marked incomplete")
				}
			})
		}
	}
}

func TestLoadDirectoryReadsAllFiles(t *testing.T) {
	cfg, diags := Load("../testdata/valid/multi")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if cfg.Server == nil || len(cfg.Backends) != 1 || len(cfg.Tools) != 1 {
		t.Fatalf("want server, 1 backend and 1 tool from two files, got %+v", cfg)
	}
}

func TestLoadJSONSyntax(t *testing.T) {
	cfg, diags := Load("../testdata/valid/json_syntax.hcl.json")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if len(cfg.Tools) != 1 || cfg.Tools[0].Call == nil || cfg.Tools[0].Call.Backend != "api" {
		t.Fatalf("JSON tool not decoded: %+v", cfg.Tools)
	}
	if got := cfg.Tools[0].Args[0].Spec.Type.Kind; got != KindInteger {
		t.Errorf("arg type = %s, want integer", got)
	}
}

func TestLoadMissingPath(t *testing.T) {
	cfg, diags := Load("does-not-exist.hcl")
	if !diags.HasErrors() || !cfg.Incomplete {
		t.Fatalf("want an error and an incomplete config, got %v", diags)
	}
}

func TestParseType(t *testing.T) {
	tests := []struct {
		src, want, err string
	}{
		{"string", "string", ""},
		{"integer", "integer", ""},
		{"list(string)", "list(string)", ""},
		{"map(list(number))", "map(list(number))", ""},
		{"object({ b = bool, a = optional(string) })", "object({ a = optional(string), b = bool })", ""},
		{"list", "list", ""},
		{"strng", "", `"strng" is not a type. Did you mean "string"?`},
		{"NUMBER", "", `"NUMBER" is not a type. Did you mean "number"?`}, // case never counts
		{"int", "", `"int" is not a type. Did you mean integer?`},
		{"boolean", "", `"boolean" is not a type. Did you mean bool?`},
		{"float", "", `"float" is not a type. Did you mean number?`},
		{`"string"`, "", "Types are written without quotes."},
		{"list(string, number)", "", "exactly one element type"},
		{"tuple([string])", "", `"tuple" is not a type constructor.`},
	}
	for _, tt := range tests {
		expr, d := hclsyntax.ParseExpression([]byte(tt.src), "t.hcl", hcl.InitialPos)
		if d.HasErrors() {
			t.Fatal(d)
		}
		typ, diags := ParseType(expr)
		if tt.err != "" {
			if len(diags) != 1 || !contains(diags[0].Detail, tt.err) {
				t.Errorf("ParseType(%s): want error containing %q, got %v", tt.src, tt.err, diags)
			}
			continue
		}
		if diags.HasErrors() {
			t.Errorf("ParseType(%s): %v", tt.src, diags)
			continue
		}
		if diff := cmp.Diff(tt.want, typ.String()); diff != "" {
			t.Errorf("ParseType(%s) mismatch (-want +got):\n%s", tt.src, diff)
		}
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestIsMCPName(t *testing.T) {
	for name, want := range map[string]bool{
		"search_books": true, "a.b-c_D9": true, "": false, "bad name": false, "ünï": false,
		strings.Repeat("x", 128): true, strings.Repeat("x", 129): false, "slash/": false,
	} {
		if got := isMCPName(name); got != want {
			t.Errorf("isMCPName(%q) = %v, want %v", name, got, want)
		}
	}
}
