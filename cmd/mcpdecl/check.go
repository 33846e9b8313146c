package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/table"
)

type checkCmd struct {
	Format  string        `enum:"text,json,github" default:"text" help:"Output format, as for validate: text, json or github."`
	Timeout time.Duration `default:"30s" help:"How long to wait for the backends."`
	Paths   []string      `arg:"" name:"path" help:"Files or directories of the configuration."`
	loadFlags
}

// Run does what validate does and, when that finds no errors, connects to
// each backend and checks every call against it without running it (SQL
// statements are prepared).
func (c *checkCmd) Run(s streams) error {
	cfg, tbl, diags, err := compile(c.Paths, c.loadFlags, os.LookupEnv)
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
		notes, online = checkOnline(ctx, tbl)
		diags = append(diags, online...)
	}
	sortDiagnostics(diags)
	v := &validateCmd{Format: c.Format}
	summaries := notes
	if !diags.HasErrors() && tbl != nil {
		summaries = append(summaries, fmt.Sprintf("%s: every call was checked against its backend (%s).", tbl.Server.Name, plural(checkable(tbl), "call")))
	}
	if err := v.write(s, diags, cfg.Files, summaries); err != nil {
		return err
	}
	if diags.HasErrors() {
		return exitCode(1)
	}
	return nil
}

// checkOnline opens every backend the way the server's lifecycle does for
// a check and checks every call that can be checked, then closes the
// backends. It returns the backends' notes.
func checkOnline(ctx context.Context, t *table.Table) ([]string, hcl.Diagnostics) {
	notes, diags, failed := t.OpenForCheck(ctx)
	defer t.CloseBackends(nil)
	for _, f := range failed {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Backend unreachable",
			Detail: fmt.Sprintf("The backend %q could not be opened: %s.", f.Name, f.Err)})
	}
	for _, a := range actions(t) {
		if c, ok := a.(adapter.Checker); ok {
			diags = append(diags, c.Check(ctx)...)
		}
	}
	slices.Sort(notes)
	return notes, table.RedactDiagnostics(diags, t.Secrets)
}

func actions(t *table.Table) []adapter.Action {
	var out []adapter.Action
	for _, tool := range t.Tools {
		out = append(out, tool.Action)
	}
	for _, r := range t.Resources {
		out = append(out, r.Action)
	}
	for _, tm := range t.Templates {
		out = append(out, tm.Action)
	}
	return out
}

func checkable(t *table.Table) int {
	n := 0
	for _, a := range actions(t) {
		if _, ok := a.(adapter.Checker); ok {
			n++
		}
	}
	return n
}
