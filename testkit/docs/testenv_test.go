package docs_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
)

// runningTheTests is README's section that the skip messages point to.
func runningTheTests(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	const title = "\n## Running the tests\n"
	if !strings.Contains(testenv.Section, "Running the tests") {
		t.Fatalf("testenv.Section %q no longer names README's section %q", testenv.Section, strings.TrimSpace(title))
	}
	i := strings.Index(readme, title)
	if i < 0 {
		t.Fatalf("README has no section %q, which the tests' skip messages point to", strings.TrimSpace(title))
	}
	section := readme[i+len(title):]
	if j := strings.Index(section, "\n## "); j >= 0 {
		section = section[:j]
	}
	return section
}

var (
	testVariable = regexp.MustCompile(`MCPDECL_TEST_[A-Z0-9_]+`)
	scriptName   = regexp.MustCompile(`scripts/[a-z0-9-]+\.sh`)
	commandName  = regexp.MustCompile(`testenv\.Command\(\w+, "([^"]+)"`)
)

// TestReadmeSaysHowToRunEveryTest: every MCPDECL_TEST_* variable the code
// reads, every program a test looks for with testenv.Command, and every
// script a skip message names is in README's "Running the tests", and so
// is each service's variable with the value compose.yaml answers to.
func TestReadmeSaysHowToRunEveryTest(t *testing.T) {
	section := runningTheTests(t)
	want := map[string]string{} // what README must say -> where it was found
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", ".tools", "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for n, line := range strings.Split(string(b), "\n") {
			at := rel(path) + ":" + strconv.Itoa(n+1)
			for _, v := range testVariable.FindAllString(line, -1) {
				want[v] = at
			}
			if !strings.Contains(line, "testenv.") {
				continue
			}
			for _, s := range scriptName.FindAllString(line, -1) {
				want[s] = at
			}
			for _, m := range commandName.FindAllStringSubmatch(line, -1) {
				want["`"+m[1]+"`"] = at
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range testenv.Services {
		want["`"+s.Env+"="+s.Example+"`"] = "internal/testenv"
	}
	want[testenv.Postgres.Message()] = "internal/testenv (the example skip line)"
	for _, f := range []string{"compose.yaml", "scripts/test-services.sh"} {
		want[f] = "the services' command"
	}
	if len(want) < 10 {
		t.Fatalf("found only %d things README must name; is the walk broken?", len(want))
	}
	for w, at := range want {
		if !strings.Contains(section, w) {
			t.Errorf("README \"Running the tests\" does not name %s (%s)", w, at)
		}
	}
}
