package testrun

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/lang"
)

// Suite is one configuration and its tests, loaded together.
type Suite struct {
	// Name is the path given (a file or a directory).
	Name string
	// Paths are what to load; Dir is set when Paths is one directory read
	// as one configuration, test files included.
	Paths []string
	Dir   bool
}

// Load reads the suite's configuration and tests.
func (s *Suite) Load() (*lang.Config, hcl.Diagnostics) {
	return lang.LoadWith(lang.LoadOptions{Tests: s.Dir}, s.Paths...)
}

// hasTestFiles reports whether the suite reads a test file: one of its
// paths, or one in its directory.
func (s *Suite) hasTestFiles() bool {
	for _, p := range s.Paths {
		if lang.IsTestFile(p) {
			return true
		}
		if s.Dir {
			for _, pattern := range []string{"*_test.hcl", "*_test.hcl.json"} {
				if m, _ := filepath.Glob(filepath.Join(p, pattern)); len(m) > 0 {
					return true
				}
			}
		}
	}
	return false
}

// Discover turns the paths given to mcpdecl test into suites. A file is
// a configuration, tested with its own test blocks and those of the test
// file beside it (orders.hcl with orders_test.hcl); a test file given
// alone brings its configuration. A directory is one configuration, with
// every test file in it, unless several of its files declare a server
// block: each such file is then its own configuration (as examples/ is).
func Discover(paths []string) ([]*Suite, error) {
	var out []*Suite
	seen := map[string]bool{}
	add := func(s *Suite) {
		key := strings.Join(s.Paths, "\x00")
		if !seen[key] {
			seen[key] = true
			out = append(out, s)
		}
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("%w; give a configuration file, its test file or a directory", err)
		}
		if !info.IsDir() {
			s, err := fileSuite(p)
			if err != nil {
				return nil, err
			}
			add(s)
			continue
		}
		suites, err := dirSuites(p)
		if err != nil {
			return nil, err
		}
		for _, s := range suites {
			add(s)
		}
	}
	return out, nil
}

func fileSuite(p string) (*Suite, error) {
	config := p
	if lang.IsTestFile(p) {
		config = configOf(p)
		if _, err := os.Stat(config); err != nil {
			return nil, fmt.Errorf("%s is a test file, and its configuration %s is not there", p, config)
		}
	}
	s := &Suite{Name: config, Paths: []string{config}}
	if tf := testFileOf(config); tf != "" {
		s.Paths = append(s.Paths, tf)
	}
	return s, nil
}

// configOf is the configuration of a test file: x_test.hcl → x.hcl.
func configOf(testFile string) string {
	if c, ok := strings.CutSuffix(testFile, "_test.hcl.json"); ok {
		return c + ".hcl.json"
	}
	return strings.TrimSuffix(testFile, "_test.hcl") + ".hcl"
}

// testFileOf is the test file beside a configuration file, or "".
func testFileOf(config string) string {
	stem := fileStem(config)
	for _, ext := range []string{"_test.hcl", "_test.hcl.json"} {
		p := filepath.Join(filepath.Dir(config), stem+ext)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// fileStem is a file's name without directory and extension (.hcl or
// .hcl.json).
func fileStem(name string) string {
	base := filepath.Base(name)
	base = strings.TrimSuffix(base, ".json")
	return strings.TrimSuffix(base, ".hcl")
}

func dirSuites(dir string) ([]*Suite, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var configs, tests []string
	servers := 0
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !lang.IsConfigFile(name) {
			continue
		}
		if lang.IsTestFile(name) {
			tests = append(tests, filepath.Join(dir, name))
			continue
		}
		p := filepath.Join(dir, name)
		configs = append(configs, p)
		if declaresServer(p) {
			servers++
		}
	}
	sort.Strings(configs)
	if servers <= 1 {
		return []*Suite{{Name: dir, Paths: []string{dir}, Dir: true}}, nil
	}
	for _, tf := range tests {
		if _, err := os.Stat(configOf(tf)); err != nil {
			return nil, fmt.Errorf("%s holds its own configurations, one per file, and the test file %s has none beside it (%s); rename it after the configuration it tests", dir, tf, filepath.Base(configOf(tf)))
		}
	}
	var out []*Suite
	for _, c := range configs {
		s, err := fileSuite(c)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// declaresServer reports whether the configuration file at p has a
// server block. A big file's tools are not read for it (lang.OpenStream
// reads every other block first): validating a directory with an
// imported API in it read the whole file a second time, with its tree,
// for this alone.
func declaresServer(p string) bool {
	if s, ok := lang.OpenStream([]string{p}); ok {
		return s.Config().Server != nil
	}
	cfg, _ := lang.Load(p)
	return cfg.Server != nil
}

// slug is a test name as a file name: lower case letters, digits and
// dashes.
func slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		ok := unicode.IsLetter(r) || unicode.IsDigit(r)
		if ok {
			b.WriteRune(r)
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
		}
		dash = !ok
	}
	if out := strings.TrimSuffix(b.String(), "-"); out != "" {
		return out
	}
	return "test"
}
