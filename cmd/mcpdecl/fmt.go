package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/diagtext"
	"github.com/mcpdecl/mcpdecl/internal/udiff"
	"github.com/mcpdecl/mcpdecl/lang"
)

type fmtCmd struct {
	Check bool     `help:"Only list the files that are not formatted, changing nothing; exit 1 if there are any."`
	Diff  bool     `help:"Print the changes as a unified diff instead of rewriting the files; exit 0 (with --check, 1 if any file needs formatting)."`
	Paths []string `arg:"" optional:"" name:"path" help:"Files or directories (default: the current directory); a directory stands for its .hcl files. JSON files are skipped."`
}

// Help is the detail of `mcpdecl fmt --help`, where the exit status of
// each mode is spelt out for scripts and CI.
func (*fmtCmd) Help() string {
	return `Without flags the files are rewritten in place and their names listed. ` +
		`--check and --diff write nothing. ` +
		`Exit status: 1 if a file cannot be read or has syntax errors, or, with --check, ` +
		`if a file needs formatting; otherwise 0, so --diff alone exits 0 whatever it shows.`
}

func (c *fmtCmd) Run(s streams) error {
	paths := c.Paths
	if len(paths) == 0 {
		paths = []string{"."}
	}
	files, err := hclFiles(s, paths)
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
// --check or --diff, would change). A file with syntax errors is left
// untouched.
func (c *fmtCmd) formatFile(s streams, name string) (bool, error) {
	src, err := os.ReadFile(name)
	if err != nil {
		fmt.Fprintf(s.err, "mcpdecl fmt: %s\n", err)
		return false, err
	}
	out, diags := lang.Format(name, src)
	if diags.HasErrors() {
		files := map[string]*hcl.File{name: {Bytes: src}}
		_ = diagtext.WriteText(s.err, diags, files)
		fmt.Fprintf(s.err, "mcpdecl fmt: %s has syntax errors and was not formatted.\n", name)
		return false, diags
	}
	if bytes.Equal(out, src) {
		return false, nil
	}
	// Like gofmt -d, --diff only shows the change (its header names the
	// file); with --check the name is listed as well, as gofmt -l -d does.
	if c.Check || !c.Diff {
		fmt.Fprintln(s.out, name)
	}
	if c.Diff {
		fmt.Fprint(s.out, udiff.Unified(name, string(src), string(out)))
	}
	if c.Check || c.Diff {
		return true, nil
	}
	return true, os.WriteFile(name, out, 0o644)
}

// hclFiles expands directories to the .hcl files in them (not recursive,
// like loading). A file named on its own is formatted whatever its name,
// except JSON, which is read with the JSON syntax and has no canonical
// layout here: it is skipped with a note rather than called a syntax error.
func hclFiles(s streams, paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			if strings.HasSuffix(p, ".json") {
				fmt.Fprintf(s.err, "mcpdecl fmt: %s is in the JSON syntax and was not formatted.\n", p)
				continue
			}
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
