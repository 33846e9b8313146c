package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
	"github.com/mcpdecl/mcpdecl/lang"
)

// unit is the configuration one file belongs to: what `mcpdecl validate`
// would be given to check it.
type unit struct {
	// key names the unit: its folder, or the one file that stands alone.
	key string
	// paths are given to the loader; a folder is read with its test
	// files.
	paths []string
}

// serverBlock finds a top-level server block in a file's text without
// parsing it (a file being typed may not parse).
var serverBlock = lazyregexp.New(`(?m)^server\s*\{|^\s*"server"\s*:`)

// unitOf is the configuration of the file at path, as validate sees
// it: its folder's files together (test files included), unless the
// folder holds several files that each declare a server, as examples/
// does: those are separate configurations, each file alone with its test
// file. A file that is no configuration file by name (not .hcl or
// .hcl.json) stands alone too.
func unitOf(path string, overlay map[string][]byte) unit {
	dir := filepath.Dir(path)
	if !lang.IsConfigFile(path) {
		return unit{key: path, paths: []string{path}}
	}
	files := folderFiles(dir, overlay)
	servers := 0
	for _, f := range files {
		if !lang.IsTestFile(f) && declaresServer(f, overlay) {
			servers++
		}
	}
	if servers <= 1 {
		return unit{key: dir, paths: []string{dir}}
	}
	config := path
	if lang.IsTestFile(path) {
		config = configOf(path)
	}
	u := unit{key: config, paths: []string{config}}
	if tf := testFileOf(config); slices.Contains(files, tf) {
		u.paths = append(u.paths, tf)
	}
	if !slices.Contains(files, config) { // a test file without its configuration
		u.paths = []string{path}
	}
	return u
}

// folderFiles are the configuration files of dir, on disk or only open
// in the editor, sorted.
func folderFiles(dir string, overlay map[string][]byte) []string {
	var out []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !e.IsDir() && lang.IsConfigFile(e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	for p := range overlay {
		if filepath.Dir(p) == dir && lang.IsConfigFile(p) && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

func declaresServer(path string, overlay map[string][]byte) bool {
	src, ok := overlay[path]
	if !ok {
		var err error
		if src, err = os.ReadFile(path); err != nil {
			return false
		}
	}
	return serverBlock.Match(src)
}

// configOf is the configuration of a test file: x_test.hcl → x.hcl.
func configOf(testFile string) string {
	if c, ok := strings.CutSuffix(testFile, "_test.hcl.json"); ok {
		return c + ".hcl.json"
	}
	return strings.TrimSuffix(testFile, "_test.hcl") + ".hcl"
}

// testFileOf is the name the test file of a configuration file has.
func testFileOf(config string) string {
	if c, ok := strings.CutSuffix(config, ".hcl.json"); ok {
		return c + "_test.hcl.json"
	}
	return strings.TrimSuffix(config, ".hcl") + "_test.hcl"
}
