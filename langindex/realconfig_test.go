package langindex

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/lang"
)

// realConfigs are the configurations of examples/ (each with its test
// file), testdata/valid/ and this package's fixture, as file name ->
// source.
func realConfigs(t *testing.T) map[string]map[string][]byte {
	t.Helper()
	configs := map[string]map[string][]byte{}
	add := func(name string, paths ...string) {
		files := map[string][]byte{}
		for _, p := range paths {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			files[p] = src
		}
		configs[name] = files
	}
	examples, _ := filepath.Glob("../examples/*.hcl")
	for _, p := range examples {
		if lang.IsTestFile(p) {
			continue
		}
		paths := []string{p}
		if test := strings.TrimSuffix(p, ".hcl") + "_test.hcl"; fileExists(test) {
			paths = append(paths, test)
		}
		add(p, paths...)
	}
	valid, _ := filepath.Glob("../testdata/valid/*.hcl*")
	for _, p := range valid {
		add(p, p)
	}
	multi, _ := filepath.Glob("../testdata/valid/multi/*.hcl")
	add("multi", multi...)
	fixture, _ := filepath.Glob("testdata/*.hcl*")
	add("fixture", fixture...)
	if len(configs) < 10 {
		t.Fatalf("found %d configurations; the examples have moved?", len(configs))
	}
	return configs
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// On the real configurations, which are valid, the index declares what
// lang decodes, every use it finds resolves to a declaration, and every
// range covers exactly the name's bytes.
func TestRealConfigs(t *testing.T) {
	for name, files := range realConfigs(t) {
		t.Run(filepath.Base(name), func(t *testing.T) {
			idx := Build(files)
			var paths []string
			for p := range files {
				paths = append(paths, p)
			}
			slices.Sort(paths)
			var declared []string
			for _, p := range paths {
				for _, s := range idx.files[p].symbols {
					if got := textOf(files, s.NameRange); got != s.Name && !s.implicit {
						t.Errorf("%s %q: its name range covers %q", s.Kind, s.Name, got)
					}
					declared = append(declared, fmt.Sprintf("%s %s %s:%d", s.Kind, qualified(s.Owner, s.Name), p, s.NameRange.Start.Line))
				}
				for _, u := range idx.files[p].uriRefs {
					if _, ok := idx.resolveURI(u.uri); !ok {
						t.Errorf("%s:%d: the URI %q reads no resource", p, u.rng.Start.Line, u.uri)
					}
				}
				for _, r := range idx.files[p].refs {
					if got := textOf(files, r.rng); got != r.key.name {
						t.Errorf("use of %s %q: its range covers %q", r.key.kind, r.key.name, got)
					}
					if _, ok := idx.Definition(p, r.rng.Start); !ok {
						t.Errorf("%s:%d:%d: %s %q resolves to no declaration", p, r.rng.Start.Line, r.rng.Start.Column, r.key.kind, qualified(r.key.owner, r.key.name))
					}
				}
			}
			for _, p := range paths {
				missed(t, p, files[p], idx.files[p].refs)
			}
			cfg, diags := lang.LoadWith(lang.LoadOptions{Tests: true}, paths...)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			want := declaredByLang(cfg)
			slices.Sort(declared)
			slices.Sort(want)
			if !slices.Equal(declared, want) {
				t.Errorf("declarations:\n  index %q\n  lang  %q", declared, want)
			}
		})
	}
}

func qualified(owner, name string) string {
	if owner == "" {
		return name
	}
	return owner + "." + name
}

// declaredByLang lists what lang decoded, as the test lists the index's
// symbols. URI template variables without an arg block are arguments
// lang does not decode as blocks; they are added from the template.
func declaredByLang(cfg *lang.Config) []string {
	var out []string
	add := func(kind Kind, owner, name string, r hcl.Range) {
		out = append(out, fmt.Sprintf("%s %s %s:%d", kind, qualified(owner, name), r.Filename, r.Start.Line))
	}
	owned := func(kind Kind, name string, r hcl.Range, args []*lang.Arg, steps []*lang.Step) {
		add(kind, "", name, r)
		for _, a := range args {
			add(KindArgument, string(kind)+"."+name, a.Name, a.NameRange)
		}
		for _, s := range steps {
			add(KindStep, string(kind)+"."+name, s.Name, s.NameRange)
		}
	}
	for _, v := range cfg.Variables {
		add(KindVariable, "", v.Name, v.NameRange)
	}
	for _, l := range cfg.Locals {
		add(KindLocal, "", l.Name, l.NameRange)
	}
	for _, b := range cfg.Backends {
		add(KindBackend, "", b.Name, b.NameRange)
	}
	for _, x := range cfg.Tools {
		owned(KindTool, x.Name, x.NameRange, x.Args, x.Steps)
		out = append(out, questionKeys("tool."+x.Name, x.Elicit, x.Sample, x.Roots)...)
	}
	for _, x := range cfg.Resources {
		owned(KindResource, x.Name, x.NameRange, nil, x.Steps)
	}
	for _, x := range cfg.Templates {
		owned(KindResourceTemplate, x.Name, x.NameRange, x.Args, x.Steps)
		out = append(out, uriOnlyArgs(x)...)
	}
	for _, x := range cfg.Prompts {
		owned(KindPrompt, x.Name, x.NameRange, x.Args, x.Steps)
		out = append(out, questionKeys("prompt."+x.Name, x.Elicit, x.Sample, x.Roots)...)
	}
	for _, x := range cfg.Apps {
		add(KindApp, "", x.Name, x.NameRange)
	}
	for _, x := range cfg.Toolsets {
		add(KindToolset, "", x.Name, x.NameRange)
	}
	for _, x := range cfg.Limits {
		add(KindLimit, "", x.Name, x.NameRange)
	}
	for _, x := range cfg.Tests {
		add(KindTest, "", x.Name, x.NameRange)
	}
	if cfg.Auth != nil {
		for _, x := range cfg.Auth.Scopes {
			add(KindScope, "", x.Name, x.NameRange)
		}
		for _, x := range cfg.Auth.Claims {
			add(KindClaim, "", x.Name, x.NameRange)
		}
	}
	return out
}

// uriOnlyArgs are the variables of a template's URI that no arg block
// declares, found by hcl's own value of the attribute.
func uriOnlyArgs(x *lang.ResourceTemplate) []string {
	v, diags := x.URITemplate.Expr.Value(nil)
	if diags.HasErrors() || v.Type() != cty.String || !v.IsKnown() {
		return nil
	}
	var out []string
	for _, u := range uriVariables(v.AsString()) {
		if !slices.ContainsFunc(x.Args, func(a *lang.Arg) bool { return a.Name == u.name }) &&
			!slices.ContainsFunc(out, func(s string) bool { return strings.HasPrefix(s, "argument resource_template."+x.Name+"."+u.name+" ") }) {
			out = append(out, fmt.Sprintf("argument resource_template.%s.%s %s:%d", x.Name, u.name, x.URITemplate.Range.Filename, x.URITemplate.Range.Start.Line))
		}
	}
	return out
}

// dotted finds what reads as var.x, local.x, args.x or steps.x in source
// text, not after a dot (body.args.x is a field), and auth.claims.x.
var dotted = regexp.MustCompile(`(^|[^.\w])(args|steps|var|local|auth\.claims)\.([A-Za-z_][A-Za-z0-9_]*)`)

// missed reports the dotted names in src, outside comments, that the
// index has no use for: a check of completeness made without the
// package's own reading of the syntax.
func missed(t *testing.T, name string, src []byte, refs []ref) {
	t.Helper()
	found := map[int]bool{}
	for _, r := range refs {
		found[r.rng.Start.Byte] = true
	}
	off := 0
	for _, line := range strings.SplitAfter(string(src), "\n") {
		code := line
		if i := strings.Index(line, "#"); i >= 0 && strings.TrimSpace(line)[0] == '#' {
			code = line[:i]
		}
		for _, m := range dotted.FindAllStringSubmatchIndex(code, -1) {
			if at := off + m[6]; !found[at] {
				t.Errorf("%s:%d: %q is no use the index found", name, strings.Count(string(src[:at]), "\n")+1, line[m[4]:m[7]])
			}
		}
		off += len(line)
	}
}

// questionKeys lists the keys of an owner's questions as lang decodes
// them: the key attribute, else elicit, elicit2, ... by position.
func questionKeys(owner string, elicits []*lang.Elicit, samples []*lang.Sample, roots []*lang.Roots) []string {
	var out []string
	add := func(kind string, i int, key *hcl.Attribute, decl hcl.Range) {
		name, at := kind, decl
		if i > 0 {
			name = fmt.Sprintf("%s%d", kind, i+1)
		}
		if key != nil {
			v, _ := key.Expr.Value(nil)
			name, at = v.AsString(), key.Expr.Range()
		}
		out = append(out, fmt.Sprintf("%s %s.%s %s:%d", KindQuestion, owner, name, at.Filename, at.Start.Line))
	}
	for i, e := range elicits {
		add("elicit", i, e.Key, e.DeclRange)
	}
	for i, s := range samples {
		add("sample", i, s.Key, s.DeclRange)
	}
	for i, r := range roots {
		add("roots", i, r.Key, r.DeclRange)
	}
	return out
}
