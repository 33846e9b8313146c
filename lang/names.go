package lang

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mcpdecl/mcpdecl/internal/diagcode"
	"github.com/mcpdecl/mcpdecl/internal/english"
	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// isMCPName checks the rule MCP sets for tool and prompt names,
// ^[A-Za-z0-9_.-]{1,128}$. (As a regexp, the {1,128} repetition compiles to
// 128 copies of the class, which cost more at start-up than all the rest of
// the package.)
func isMCPName(name string) bool {
	if len(name) == 0 || len(name) > 128 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

func checkMCPName(name string, rng hcl.Range, kind string) hcl.Diagnostics {
	if isMCPName(name) {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Invalid %s name", kind),
		Detail:   fmt.Sprintf("The %s name %q is not allowed: MCP names are 1 to 128 characters from A-Z, a-z, 0-9, '_', '-' and '.', for example \"search_books\".", kind, name),
		Subject:  rng.Ptr(),
	}}
}

// checkIdentifier reports a name that cannot be referred to in an
// expression (as args.<name>, var.<name> or a backend label).
func checkIdentifier(name string, rng hcl.Range, kind string) hcl.Diagnostics {
	if hclsyntax.ValidIdentifier(name) {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Invalid %s name", kind),
		Detail:   fmt.Sprintf("The %s name %q is not a valid identifier: use letters, digits, '_' and '-', not starting with a digit, for example \"start_date\".", kind, name),
		Subject:  rng.Ptr(),
	}}
}

// argName is the rule for argument names: they are read as args.<name> in
// both expression languages, and expr-lang would read a '-' as a minus.
var argName = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

func checkArgName(name string, rng hcl.Range) hcl.Diagnostics {
	if argName.MatchString(name) {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid argument name",
		Detail:   fmt.Sprintf("The argument name %q is not allowed: use letters, digits and '_', not starting with a digit, for example \"start_date\" (a '-' would read as a minus in expressions).", name),
		Subject:  rng.Ptr(),
	}}
}

// checkIdentifierLike is checkIdentifier for names that are only labels
// (resources, templates), where an MCP name is also accepted.
func checkIdentifierLike(name string, rng hcl.Range, kind string) hcl.Diagnostics {
	return checkMCPName(name, rng, kind)
}

func checkUniqueArgs(args []*Arg) hcl.Diagnostics {
	var diags hcl.Diagnostics
	seen := map[string]*Arg{}
	for _, a := range args {
		if prev, ok := seen[a.Name]; ok {
			diags = append(diags, duplicateDiag("argument", a.Name, prev.DeclRange, a.NameRange, "Argument names must be unique within a block."))
			continue
		}
		seen[a.Name] = a
	}
	return diags
}

func duplicateDiag(kind, name string, prev, rng hcl.Range, rule string) *hcl.Diagnostic {
	return diagcode.Relate(&hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Duplicate %s name", kind),
		Detail:   fmt.Sprintf("%s named %q was already declared at %s. %s", english.CapA(kind), name, prev, rule),
		Subject:  rng.Ptr(),
	}, prev)
}

// checkUnique reports duplicate names across all files.
func (cfg *Config) checkUnique() hcl.Diagnostics {
	var diags hcl.Diagnostics
	type named struct {
		name      string
		decl, rng hcl.Range
	}
	check := func(kind, rule string, items []named) {
		seen := map[string]hcl.Range{}
		for _, it := range items {
			if prev, ok := seen[it.name]; ok {
				diags = append(diags, duplicateDiag(kind, it.name, prev, it.rng, rule))
				continue
			}
			seen[it.name] = it.decl
		}
	}
	var vars, backends, tools, res, tmpls, apps, prompts, locals []named
	for _, v := range cfg.Variables {
		vars = append(vars, named{v.Name, v.DeclRange, v.NameRange})
	}
	for _, l := range cfg.Locals {
		locals = append(locals, named{l.Name, l.NameRange, l.NameRange})
	}
	for _, b := range cfg.Backends {
		backends = append(backends, named{b.Name, b.DeclRange, b.NameRange})
	}
	for _, t := range cfg.Tools {
		tools = append(tools, named{t.Name, t.DeclRange, t.NameRange})
	}
	for _, r := range cfg.Resources {
		res = append(res, named{r.Name, r.DeclRange, r.NameRange})
	}
	for _, t := range cfg.Templates {
		tmpls = append(tmpls, named{t.Name, t.DeclRange, t.NameRange})
	}
	for _, a := range cfg.Apps {
		apps = append(apps, named{a.Name, a.DeclRange, a.NameRange})
	}
	for _, p := range cfg.Prompts {
		prompts = append(prompts, named{p.Name, p.DeclRange, p.NameRange})
	}
	check("variable", "Variable names must be unique.", vars)
	check("local value", "Local value names must be unique across all locals blocks.", locals)
	check("backend", "Backend names must be unique, whatever their kind.", backends)
	check("tool", "Tool names must be unique within a server.", tools)
	check("resource", "Resource block names must be unique.", res)
	check("resource template", "Resource template block names must be unique.", tmpls)
	check("app", "App block names must be unique.", apps)
	check("prompt", "Prompt names must be unique within a server.", prompts)
	return diags
}
