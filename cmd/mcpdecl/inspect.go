package main

import (
	"encoding/json"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/mcpdecl/mcpdecl/diagtext"
	"github.com/mcpdecl/mcpdecl/lint"
	"github.com/mcpdecl/mcpdecl/table"
)

type inspectCmd struct {
	Paths []string `arg:"" name:"path" help:"Files or directories of the configuration."`
	loadFlags
}

// Help is the detail of `mcpdecl inspect --help`: the listing is the
// server's only as far as it can be known without the environment.
func (*inspectCmd) Help() string {
	return `Like validate, inspect does not read the environment: give variables with --var. ` +
		`Text built from env(), or from a variable with neither --var nor a default, is not known here ` +
		`and is left empty or out; the server fills it in.`
}

func (c *inspectCmd) Run(s streams) error {
	cfg, tbl, diags, err := c.compile(c.Paths, nil)
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		diagtext.Sort(diags)
		files := map[string]*hcl.File{}
		if cfg != nil {
			files = cfg.Files
		}
		if err := diagtext.WriteText(s.err, diags, files); err != nil {
			return err
		}
		fmt.Fprintln(s.err, "Fix the errors above; mcpdecl validate checks the configuration on its own.")
		return exitCode(1)
	}
	enc := json.NewEncoder(s.out)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	out := table.Inspect(tbl)
	for i := range out.Toolsets {
		out.Toolsets[i].Tokens, _ = lint.ToolsetTokens(tbl, tbl.Toolsets[i])
	}
	return enc.Encode(out)
}
