package lang

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/mcpdecl/mcpdecl/internal/diagcode"
)

// fileContent is the top-level schema of one configuration file.
type fileContent struct {
	Server    []*Server           `hcl:"server,block"`
	Auth      []*Auth             `hcl:"auth,block"`
	Variables []*Variable         `hcl:"variable,block"`
	Locals    []*localsBlock      `hcl:"locals,block"`
	Backends  []*Backend          `hcl:"backend,block"`
	Tools     []*Tool             `hcl:"tool,block"`
	Resources []*Resource         `hcl:"resource,block"`
	Templates []*ResourceTemplate `hcl:"resource_template,block"`
	Apps      []*App              `hcl:"app,block"`
	Prompts   []*Prompt           `hcl:"prompt,block"`
	Tests     []*Test             `hcl:"test,block"`
	Toolsets  []*Toolset          `hcl:"toolset,block"`
	Limits    []*Limit            `hcl:"limit,block"`

	// toolDiags are the findings of checkTool, one per tool.
	toolDiags []hcl.Diagnostics
}

type localsBlock struct {
	Attrs hcl.Attributes `hcl:",remain"`
}

// Load reads the configuration from paths. Each path is a file (native
// syntax, or the JSON syntax when it ends in ".json") or a directory, whose
// *.hcl and *.hcl.json files are read in name order. Every problem found is
// returned; the Config is returned even with errors, for tools that want to
// show what could be read. Test files (*_test.hcl) of a directory are
// skipped; LoadWith reads them on request.
func Load(paths ...string) (*Config, hcl.Diagnostics) {
	return LoadWith(LoadOptions{}, paths...)
}

// LoadWith is Load with options.
func LoadWith(opts LoadOptions, paths ...string) (*Config, hcl.Diagnostics) {
	files, diags := expandPaths(paths, opts)
	parser := hclparse.NewParser()
	cfg := &Config{Incomplete: diags.HasErrors()}
	for _, name := range files {
		f, d := parseFile(parser, name, opts.Overlay)
		diags = append(diags, d...)
		if f != nil && !d.HasErrors() {
			diags = append(diags, cfg.decodeFile(f, name)...)
			cfg.noteSyntax(f)
		} else {
			// Decoding a file with syntax errors gives misleading errors.
			cfg.Incomplete = true
		}
		if opts.Lean && f != nil {
			parser.AddFile(name, leanFile(f))
		}
	}
	cfg.Files = parser.Files()
	diags = append(diags, cfg.checkUnique()...)
	rewordLabels(diags)
	return cfg, diags
}

// LoadSource decodes one configuration held in memory; name is used in
// diagnostics and to choose the syntax.
func LoadSource(name string, src []byte) (*Config, hcl.Diagnostics) {
	parser := hclparse.NewParser()
	cfg := &Config{}
	f, diags := parseSource(parser, name, src)
	if f != nil && !diags.HasErrors() {
		diags = append(diags, cfg.decodeFile(f, name)...)
		cfg.noteSyntax(f)
	} else {
		cfg.Incomplete = true
	}
	cfg.Files = parser.Files()
	diags = append(diags, cfg.checkUnique()...)
	rewordLabels(diags)
	return cfg, diags
}

// IsConfigFile reports whether name is read when its directory is loaded.
func IsConfigFile(name string) bool {
	return strings.HasSuffix(name, ".hcl") || strings.HasSuffix(name, ".hcl.json")
}

func expandPaths(paths []string, opts LoadOptions) ([]string, hcl.Diagnostics) {
	var files []string
	var diags hcl.Diagnostics
	for _, p := range paths {
		if _, ok := opts.Overlay[filepath.Clean(p)]; ok {
			files = append(files, p) // an unsaved buffer, maybe not on disk yet
			continue
		}
		info, err := os.Stat(p)
		if err != nil {
			diags = append(diags, fileDiag("Cannot read configuration", fmt.Sprintf("%s. Give a .hcl file, a .hcl.json file or a directory holding them.", err)))
			continue
		}
		if !info.IsDir() {
			files = append(files, p)
			continue
		}
		found, err := configFilesIn(p, opts)
		if err != nil {
			diags = append(diags, fileDiag("Cannot read configuration directory", err.Error()+"."))
		} else if len(found) == 0 {
			diags = append(diags, fileDiag("No configuration files", fmt.Sprintf("The directory %s holds no .hcl or .hcl.json files.", p)))
		}
		files = append(files, found...)
	}
	return files, diags
}

func configFilesIn(dir string, opts LoadOptions) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	wanted := func(name string) bool { return IsConfigFile(name) && (opts.Tests || !IsTestFile(name)) }
	var out []string
	seen := map[string]bool{}
	for _, e := range entries {
		if !e.IsDir() && wanted(e.Name()) {
			name := filepath.Join(dir, e.Name())
			seen[filepath.Clean(name)] = true
			out = append(out, name)
		}
	}
	// Buffers an editor has open in dir but never saved belong to it too.
	for name := range opts.Overlay {
		if filepath.Dir(name) == filepath.Clean(dir) && wanted(filepath.Base(name)) && !seen[name] {
			out = append(out, filepath.Join(dir, filepath.Base(name)))
		}
	}
	sort.Strings(out)
	return out, nil
}

func parseFile(p *hclparse.Parser, name string, overlay map[string][]byte) (*hcl.File, hcl.Diagnostics) {
	if src, ok := overlay[filepath.Clean(name)]; ok {
		return parseSource(p, name, src)
	}
	src, err := os.ReadFile(name)
	if err != nil {
		return nil, hcl.Diagnostics{fileDiag("Cannot read configuration file", err.Error()+".")}
	}
	return parseSource(p, name, src)
}

func parseSource(p *hclparse.Parser, name string, src []byte) (*hcl.File, hcl.Diagnostics) {
	if strings.HasSuffix(name, ".json") {
		f, diags := p.ParseJSON(src, name)
		return f, diagcode.Mark(diags, diagcode.Syntax)
	}
	f, diags := parseNative(src, name)
	diags = refineSyntax(src, name, diags)
	p.AddFile(name, f)
	return f, diagcode.Mark(diags, diagcode.Syntax)
}

func fileDiag(summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Extra: &diagcode.Extra{Code: diagcode.File}}
}

// decodeFile decodes one file's blocks and appends them to cfg.
func (cfg *Config) decodeFile(f *hcl.File, name string) hcl.Diagnostics {
	if IsTestFile(name) {
		return cfg.decodeTestFile(f)
	}
	fc, diags := decodeContent(f.Body)
	return append(diags, cfg.addContent(fc)...)
}

// decodeContent decodes the blocks of one file's body (or of a piece of
// it: some of its top-level blocks) and checks each tool alone, which
// needs nothing from the rest of the configuration.
func decodeContent(body hcl.Body) (*fileContent, hcl.Diagnostics) {
	fc := &fileContent{}
	diags := decodeBody(body, fc)
	fc.toolDiags = checkTools(fc.Tools)
	return fc, diags
}

// addContent appends what decodeContent decoded to cfg, in order.
func (cfg *Config) addContent(fc *fileContent) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, s := range fc.Server {
		if cfg.Server != nil {
			diags = append(diags, diagcode.Relate(&hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate server block",
				Detail:   fmt.Sprintf("A server block was already declared at %s; a configuration has one server block.", cfg.Server.DeclRange),
				Subject:  s.DeclRange.Ptr(),
			}, cfg.Server.DeclRange))
			continue
		}
		cfg.Server = s
		diags = append(diags, checkLint(s.Lint, "The server block", true)...)
	}
	for _, l := range fc.Locals {
		cfg.Locals = append(cfg.Locals, sortedAttrs(l.Attrs)...)
	}
	diags = append(diags, cfg.addAuth(fc.Auth)...)
	diags = append(diags, cfg.addVariables(fc.Variables)...)
	diags = append(diags, cfg.addBackends(fc.Backends)...)
	diags = append(diags, cfg.addTools(fc.Tools, fc.toolDiags)...)
	diags = append(diags, cfg.addResources(fc.Resources)...)
	diags = append(diags, cfg.addTemplates(fc.Templates)...)
	diags = append(diags, cfg.addApps(fc.Apps)...)
	diags = append(diags, cfg.addPrompts(fc.Prompts)...)
	diags = append(diags, cfg.addTests(fc.Tests)...)
	diags = append(diags, cfg.addToolsets(fc.Toolsets)...)
	diags = append(diags, cfg.addLimits(fc.Limits)...)
	return diags
}

func sortedAttrs(attrs hcl.Attributes) []*hcl.Attribute {
	out := make([]*hcl.Attribute, 0, len(attrs))
	for _, a := range attrs {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Range.Start.Byte < out[j].Range.Start.Byte })
	return out
}
