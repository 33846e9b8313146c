package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// loadFlags are the flags shared by commands that compile a configuration.
type loadFlags struct {
	Vars []string `name:"var" sep:"none" placeholder:"NAME=VALUE" help:"Set a variable (repeatable). Strings as written; other types as HCL values, e.g. --var limit=5."`
}

func (f loadFlags) varMap() (map[string]string, error) {
	out := map[string]string{}
	for _, kv := range f.Vars {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("--var %q: write it as NAME=VALUE", kv)
		}
		out[name] = value
	}
	return out, nil
}

// compile loads and compiles the configuration at paths without any I/O to
// backends. With lookupEnv nil (validate) env() values and variables
// without a value stay unknown; with os.LookupEnv the configuration is
// compiled as serve compiles it: env() and MCPDECL_VAR_<name> are read and
// every variable needs a value.
func compile(paths []string, flags loadFlags, lookupEnv func(string) (string, bool)) (*lang.Config, *table.Table, hcl.Diagnostics, error) {
	vars, err := flags.varMap()
	if err != nil {
		return nil, nil, nil, err
	}
	cfg, diags := lang.Load(paths...)
	hintSeparateConfigs(paths, cfg, diags)
	if cfg.Incomplete {
		return cfg, nil, diags, nil
	}
	// Compile even when decoding found problems, so that one run reports
	// everything; the broken blocks are skipped by the compiler.
	tbl, d := table.Compile(cfg, all.Registry(), table.Options{Vars: vars, LookupEnv: lookupEnv})
	return cfg, tbl, dedupe(append(diags, d...)), nil
}

// hintSeparateConfigs explains the first duplicate server block that comes
// from another file of a directory: such a directory (examples/, say) most
// likely holds independent configurations, which are checked one by one
// by naming the files.
func hintSeparateConfigs(paths []string, cfg *lang.Config, diags hcl.Diagnostics) {
	if cfg.Server == nil {
		return
	}
	for _, d := range diags {
		if d.Summary != "Duplicate server block" || d.Subject == nil || d.Subject.Filename == cfg.Server.DeclRange.Filename {
			continue
		}
		dir := filepath.Dir(d.Subject.Filename)
		if !slices.ContainsFunc(paths, func(p string) bool { return filepath.Clean(p) == dir }) {
			return // the files were named one by one, as one configuration
		}
		d.Detail += fmt.Sprintf(" A directory is read as one configuration made of all its files, and here several files declare a server: "+
			"if they are separate configurations, name the files instead, as in mcpdecl validate %s, which checks each file on its own "+
			"(serve and check take one of them).", filepath.Join(dir, "*.hcl"))
		return
	}
}

// dedupe drops repeated diagnostics (same summary at the same place), which
// arise when one mistake is seen by two stages.
func dedupe(diags hcl.Diagnostics) hcl.Diagnostics {
	seen := map[string]bool{}
	out := diags[:0:0]
	for _, d := range diags {
		key := d.Summary
		if d.Subject != nil {
			key += d.Subject.String()
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, d)
	}
	return out
}
