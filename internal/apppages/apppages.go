// Package apppages tells the tests that load every example whether an
// example's app page is built. A page is written by scripts/apps.sh (`make
// apps`) as <name>.html from <name>.src.html, with the MCP Apps SDK
// inlined, and is not kept in git: on a fresh clone a configuration serving
// it cannot load until the build ran. Such a test then skips the example,
// naming the command; under CI, which runs the build, it fails instead.
package apppages

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Missing lists the built pages a configuration needs and lacks. A
// configuration file <name>.hcl owns the page of <name>.src.html beside it;
// a configuration directory owns every *.src.html in it. A page is missing
// when its <name>.html does not exist.
func Missing(config string) []string {
	var sources []string
	if info, err := os.Stat(config); err == nil && info.IsDir() {
		sources, _ = filepath.Glob(filepath.Join(config, "*.src.html"))
	} else {
		base := strings.TrimSuffix(strings.TrimSuffix(config, ".json"), ".hcl")
		if _, err := os.Stat(base + ".src.html"); err == nil {
			sources = []string{base + ".src.html"}
		}
	}
	var missing []string
	for _, src := range sources {
		page := strings.TrimSuffix(src, ".src.html") + ".html"
		if _, err := os.Stat(page); err != nil {
			missing = append(missing, page)
		}
	}
	return missing
}

// Unbuilt reports whether config's app pages are missing, and says so in
// t's log with the command that builds them; under CI (CI set), whose
// .ci/run builds them, it marks t failed as well.
func Unbuilt(t testing.TB, config string) bool {
	t.Helper()
	missing := Missing(config)
	if len(missing) == 0 {
		return false
	}
	msg := config + ": the app page " + strings.Join(missing, ", ") + " is not built; run `make apps` (scripts/apps.sh)"
	if os.Getenv("CI") != "" {
		t.Error(msg + " (CI must build it: .ci/run)")
	} else {
		t.Log(msg)
	}
	return true
}

// SkipUnbuilt skips t when config's app pages are missing (see Unbuilt).
func SkipUnbuilt(t testing.TB, config string) {
	t.Helper()
	if Unbuilt(t, config) {
		t.SkipNow()
	}
}
