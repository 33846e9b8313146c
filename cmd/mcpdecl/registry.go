package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/diagtext"
	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/serving"
)

// registrySchemaURL is the server.json schema the output follows (the one
// vendored in testdata/registry, which the tests validate against).
const registrySchemaURL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"

type registryCmd struct {
	Config      string   `arg:"" name:"config" help:"The configuration (a file or a directory)."`
	Name        string   `required:"" placeholder:"NAMESPACE/NAME" help:"The server's name in the registry, in reverse-DNS form with one slash: io.github.OWNER/NAME for a GitHub login, or a domain you own."`
	Version     string   `help:"The server's version (default: the server block's version)."`
	Description string   `help:"At most 100 characters (default: the server block's description)."`
	Image       string   `placeholder:"REF" help:"The OCI image that serves the configuration over stdio, with a tag or digest (ghcr.io/OWNER/NAME:1.0.0): the registry's package entry."`
	ConfigPath  string   `name:"config-path" default:"/etc/mcpdecl/config.hcl" help:"Where the image holds the configuration (the argument of serve in the package entry)."`
	Repository  string   `placeholder:"URL" help:"The source repository (https://github.com/OWNER/NAME)."`
	Secrets     []string `name:"secret" sep:"none" placeholder:"NAME" help:"Mark this environment variable secret besides those found secret (repeatable)."`
	EnvDocs     []string `name:"env-description" sep:"none" placeholder:"NAME=TEXT" help:"Describe an environment variable (repeatable); without it the description says where the configuration reads it."`
}

var registryNamePattern = lazyregexp.New(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`)

// serverJSON is the registry's server.json, the members in its order.
type serverJSON struct {
	Schema      string           `json:"$schema"`
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description"`
	Version     string           `json:"version"`
	WebsiteURL  string           `json:"websiteUrl,omitempty"`
	Repository  *registryRepo    `json:"repository,omitempty"`
	Packages    []registryPackge `json:"packages,omitempty"`
}

type registryRepo struct {
	URL    string `json:"url"`
	Source string `json:"source"`
}

type registryPackge struct {
	RegistryType     string             `json:"registryType"`
	Identifier       string             `json:"identifier"`
	RuntimeHint      string             `json:"runtimeHint,omitempty"`
	Transport        map[string]string  `json:"transport"`
	PackageArguments []registryArgument `json:"packageArguments,omitempty"`
	Environment      []registryEnv      `json:"environmentVariables,omitempty"`
}

type registryArgument struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

type registryEnv struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	IsRequired  bool   `json:"isRequired"`
	IsSecret    bool   `json:"isSecret"`
	Default     string `json:"default,omitempty"`
}

func (c *registryCmd) Run(s streams) error {
	cfg, tbl, diags := serving.Compile([]string{c.Config}, nil, nil)
	if diags.HasErrors() {
		diagtext.Sort(diags)
		_ = diagtext.WriteText(s.err, diags, cfg.Files)
		return fmt.Errorf("%s does not compile: fix the errors above before describing it", c.Config)
	}
	version := tbl.Server.Version
	if cfg.Server == nil || cfg.Server.Version == nil {
		version = "" // not the compiler's stand-in, 0.0.0
	}
	doc, err := c.document(cfg, version, tbl.Server.Description)
	if err != nil {
		return err
	}
	doc.Title, doc.WebsiteURL = tbl.Server.Title, tbl.Server.WebsiteURL
	if !c.packaged() {
		fmt.Fprintln(s.err, "mcpdecl: no --image: the server.json has no package, so clients cannot run the server from it; give the image that serves the configuration")
	}
	out, _ := json.MarshalIndent(doc, "", "  ")
	fmt.Fprintf(s.out, "%s\n", out)
	return nil
}

func (c *registryCmd) packaged() bool { return c.Image != "" }

func (c *registryCmd) document(cfg *lang.Config, version, description string) (*serverJSON, error) {
	if !registryNamePattern.MatchString(c.Name) {
		return nil, fmt.Errorf("--name %q: the registry takes NAMESPACE/NAME, letters, digits, '.' and '-' before the slash (io.github.OWNER/NAME)", c.Name)
	}
	doc := &serverJSON{Schema: registrySchemaURL, Name: c.Name, Version: firstOf(c.Version, version), Description: firstOf(c.Description, description)}
	switch {
	case doc.Version == "":
		return nil, fmt.Errorf("no version: set version in the server block or give --version 1.0.0")
	case doc.Version == "latest" || strings.ContainsAny(doc.Version, "^~<>=* "):
		return nil, fmt.Errorf("version %q: the registry takes one exact version (1.0.0), not a range", doc.Version)
	case doc.Description == "":
		return nil, fmt.Errorf("no description: set description in the server block or give --description")
	case len([]rune(doc.Description)) > 100:
		return nil, fmt.Errorf("the description has %d characters and the registry takes at most 100: give a shorter --description", len([]rune(doc.Description)))
	}
	if c.Repository != "" {
		doc.Repository = &registryRepo{URL: c.Repository, Source: repositorySource(c.Repository)}
	}
	if c.packaged() {
		env, err := c.environment(cfg)
		if err != nil {
			return nil, err
		}
		doc.Packages = []registryPackge{{
			RegistryType: "oci", Identifier: c.Image, RuntimeHint: "docker",
			Transport:        map[string]string{"type": "stdio"},
			PackageArguments: []registryArgument{{Type: "positional", Value: "serve"}, {Type: "positional", Value: c.ConfigPath}},
			Environment:      env,
		}}
	}
	return doc, nil
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func repositorySource(url string) string {
	for _, host := range []string{"github", "gitlab"} {
		if strings.Contains(url, "://"+host+".com/") {
			return host
		}
	}
	return "git"
}

// environment lists what the server reads from its environment: each
// env("NAME") of the configuration's native-syntax files (required when
// it has no default) and each variable as MCPDECL_VAR_<name> (required
// without a default, secret when sensitive).
func (c *registryCmd) environment(cfg *lang.Config) ([]registryEnv, error) {
	docs := map[string]string{}
	for _, kv := range c.EnvDocs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--env-description %q: write it as NAME=TEXT", kv)
		}
		docs[k] = v
	}
	// The compiled configuration keeps no syntax tree; the env() calls
	// are found in one read with it.
	withSyntax, _ := lang.Load(c.Config)
	vars := envReferences(withSyntax)
	for _, v := range cfg.Variables {
		e := registryEnv{Name: "MCPDECL_VAR_" + v.Name, IsRequired: v.Default == nil, IsSecret: staticBool(v.Sensitive),
			Description: "The variable " + v.Name + "."}
		if d := staticString(v.Description); d != "" {
			e.Description = "The variable " + v.Name + ": " + d
		}
		vars = append(vars, e)
	}
	for i := range vars {
		if d, ok := docs[vars[i].Name]; ok {
			vars[i].Description = d
		}
		if slices.Contains(c.Secrets, vars[i].Name) {
			vars[i].IsSecret = true
		}
	}
	return vars, nil
}

// envReferences finds the env() calls with a literal name, in file order;
// a name read in several places is listed once, required if any place
// has no default.
func envReferences(cfg *lang.Config) []registryEnv {
	var out []registryEnv
	index := map[string]int{}
	for _, name := range slices.Sorted(maps.Keys(cfg.Files)) {
		body, ok := cfg.Files[name].Body.(*hclsyntax.Body)
		if !ok {
			continue // the JSON syntax: its env() calls hide in strings
		}
		_ = hclsyntax.VisitAll(body, func(n hclsyntax.Node) hcl.Diagnostics {
			call, ok := n.(*hclsyntax.FunctionCallExpr)
			if !ok || call.Name != "env" || len(call.Args) == 0 {
				return nil
			}
			v, diags := call.Args[0].Value(nil)
			if diags.HasErrors() || v.Type() != cty.String || v.IsNull() {
				return nil
			}
			e := registryEnv{Name: v.AsString(), IsRequired: len(call.Args) < 2, IsSecret: secretName(v.AsString()),
				Description: fmt.Sprintf("Read by the configuration (env() in %s, line %d).", filepath.Base(name), call.Range().Start.Line)}
			if len(call.Args) >= 2 {
				e.Default = staticString(&hcl.Attribute{Expr: call.Args[1]})
			}
			if i, seen := index[e.Name]; seen {
				out[i].IsRequired = out[i].IsRequired || e.IsRequired
				return nil
			}
			index[e.Name] = len(out)
			out = append(out, e)
			return nil
		})
	}
	return out
}

// secretName says a variable's name reads as a credential: a token, a
// key, a password, a secret, a DSN or URL of a database (which carry
// passwords).
func secretName(name string) bool {
	upper := strings.ToUpper(name)
	for _, w := range []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "KEY", "CREDENTIAL", "DSN", "AUTH", "PRIVATE", "DATABASE_URL"} {
		if strings.Contains(upper, w) {
			return true
		}
	}
	return false
}

func staticString(a *hcl.Attribute) string {
	if a == nil {
		return ""
	}
	v, diags := a.Expr.Value(nil)
	if diags.HasErrors() || !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
		return ""
	}
	return v.AsString()
}

func staticBool(a *hcl.Attribute) bool {
	if a == nil {
		return false
	}
	v, diags := a.Expr.Value(nil)
	return !diags.HasErrors() && v.IsKnown() && !v.IsNull() && v.Type() == cty.Bool && v.True()
}
