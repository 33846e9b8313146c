package testrun

import (
	"maps"

	"github.com/hashicorp/hcl/v2"
	"github.com/mcpdecl/mcpdecl/table"
)

// CheckPath checks the test blocks of the configuration at p, and of its
// test files (orders_test.hcl beside orders.hcl, a directory's
// *_test.hcl), as mcpdecl test would before running them: each names a
// target that exists, with arguments its schema takes, mocks of HTTP
// backends it has, patterns that compile. It returns how many tests it
// checked and their problems; the files it read join files, for the
// snippets of the report.
func CheckPath(p string, vars map[string]string, files map[string]*hcl.File) (int, hcl.Diagnostics) {
	suites, err := Discover([]string{p})
	if err != nil {
		return 0, nil // p compiled, so it exists; Discover has nothing to add
	}
	n := 0
	var diags hcl.Diagnostics
	for _, suite := range suites {
		prep, d := Prepare(suite, table.Options{Vars: vars})
		if prep.Config != nil {
			maps.Copy(files, prep.Config.Files)
		}
		n += len(prep.Cases)
		diags = append(diags, d...)
	}
	return n, diags
}
