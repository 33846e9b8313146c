package testrun

import (
	"maps"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// CheckPath checks the test blocks of the configuration at p, and of its
// test files (orders_test.hcl beside orders.hcl, a directory's
// *_test.hcl), as mcpdecl test would before running them: each names a
// target that exists, with arguments its schema takes, mocks of HTTP
// backends it has, patterns that compile. It returns how many tests it
// checked and their problems; the files it read join files, for the
// snippets of the report. compiled is the configuration at p as the
// caller already loaded it, test files aside (nil if it has none): a suite
// with no test block in it and no test file is not loaded again, so that
// validating a big config without tests costs one load, not two.
func CheckPath(p string, vars map[string]string, files map[string]*hcl.File, compiled *lang.Config) (int, hcl.Diagnostics) {
	suites, err := Discover([]string{p})
	if err != nil {
		return 0, nil // p compiled, so it exists; Discover has nothing to add
	}
	n := 0
	var diags hcl.Diagnostics
	for _, suite := range suites {
		if compiled != nil && len(compiled.Tests) == 0 && !suite.hasTestFiles() {
			continue
		}
		prep, d := Prepare(suite, table.Options{Vars: vars})
		if prep.Config != nil {
			maps.Copy(files, prep.Config.Files)
		}
		n += len(prep.Cases)
		diags = append(diags, d...)
	}
	return n, diags
}
