package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

type fmtCmd struct {
	Check bool     `help:"Only report files that are not formatted; exit 1 if there are any."`
	Diff  bool     `help:"Print the changes as a unified diff."`
	Paths []string `arg:"" optional:"" name:"path" help:"Files or directories (default: the current directory). Only .hcl files are formatted."`
}

func (c *fmtCmd) Run(s streams) error {
	paths := c.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	files, err := hclFiles(paths)
	if err != nil {
		return err
	}
	changed, failed := 0, false
	for _, name := range files {
		did, err := c.formatFile(s, name)
		if err != nil {
			failed = true
			continue
		}
		if did {
			changed++
		}
	}
	if failed || (c.Check && changed > 0) {
		return exitCode(1)
	}
	return nil
}

// formatFile formats one file and reports whether it changed (or, with
// --check, would change). A file with syntax errors is left untouched.
func (c *fmtCmd) formatFile(s streams, name string) (bool, error) {
	src, err := os.ReadFile(name)
	if err != nil {
		fmt.Fprintf(s.err, "mcpdecl fmt: %s\n", err)
		return false, err
	}
	if _, diags := hclwrite.ParseConfig(src, name, hcl.InitialPos); diags.HasErrors() {
		files := map[string]*hcl.File{name: {Bytes: src}}
		_ = writeTextDiagnostics(s.err, diags, files)
		fmt.Fprintf(s.err, "mcpdecl fmt: %s has syntax errors and was not formatted.\n", name)
		return false, diags
	}
	out := hclwrite.Format(src)
	if bytes.Equal(out, src) {
		return false, nil
	}
	fmt.Fprintln(s.out, name)
	if c.Diff {
		fmt.Fprint(s.out, unifiedDiff(name, string(src), string(out)))
	}
	if c.Check {
		return true, nil
	}
	return true, os.WriteFile(name, out, 0o644)
}

// hclFiles expands directories to the .hcl files in them (not recursive,
// like loading). JSON files are not formatted.
func hclFiles(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			out = append(out, p)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".hcl") {
				out = append(out, filepath.Join(p, e.Name()))
			}
		}
	}
	sort.Strings(out)
	return out, nil
}
