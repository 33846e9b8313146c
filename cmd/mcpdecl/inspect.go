package main

import (
	"encoding/json"
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

type inspectCmd struct {
	Paths []string `arg:"" name:"path" help:"Files or directories of the configuration."`
	loadFlags
}

func (c *inspectCmd) Run(s streams) error {
	cfg, table, diags, err := compile(c.Paths, c.loadFlags)
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		sortDiagnostics(diags)
		files := map[string]*hcl.File{}
		if cfg != nil {
			files = cfg.Files
		}
		if err := writeTextDiagnostics(s.err, diags, files); err != nil {
			return err
		}
		fmt.Fprintln(s.err, "Fix the errors above; mcpdecl validate checks the configuration on its own.")
		return exitCode(1)
	}
	enc := json.NewEncoder(s.out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(table.Listing())
}
