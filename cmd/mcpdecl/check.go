package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/mcpdecl/mcpdecl/diagtext"
	"github.com/mcpdecl/mcpdecl/lint"
)

type checkCmd struct {
	Format  string        `enum:"text,json,github,sarif" default:"text" help:"Output format, as for validate: text, json, github or sarif."`
	Timeout time.Duration `default:"30s" help:"How long to wait for the backends."`
	Paths   []string      `arg:"" name:"path" help:"Files or directories of the configuration."`
	loadFlags
}

// Run does what validate does and, when that finds no errors, connects to
// each backend and checks every call against it without running it (SQL
// statements are prepared).
func (c *checkCmd) Run(s streams) error {
	cfg, tbl, diags, err := c.compile(c.Paths, os.LookupEnv)
	if err != nil {
		return err
	}
	// A configuration with errors is not taken to the backends: the
	// checks would run against blocks that were skipped or half read.
	var notes []string
	if tbl != nil && !diags.HasErrors() {
		ctx, cancel := context.WithTimeout(context.Background(), c.Timeout)
		defer cancel()
		var online hcl.Diagnostics
		notes, online = lint.CheckOnline(ctx, tbl)
		diags = append(diags, online...)
	}
	diagtext.Sort(diags)
	v := &validateCmd{Format: c.Format}
	summaries := notes
	if !diags.HasErrors() && tbl != nil {
		summaries = append(summaries, fmt.Sprintf("%s: every call was checked against its backend (%s).", tbl.Server.Name, plural(lint.Checkable(tbl), "call")))
	}
	if err := v.write(s, diags, cfg.Files, summaries); err != nil {
		return err
	}
	if diags.HasErrors() {
		return exitCode(1)
	}
	return nil
}
