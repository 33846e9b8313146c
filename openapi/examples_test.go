package openapi

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
)

// toolsDir is where scripts/openapi-deps.sh installs the npm packages.
func toolsDir() string {
	if d := os.Getenv("MCPDECL_TOOLS_DIR"); d != "" {
		return d
	}
	abs, _ := filepath.Abs(filepath.Join("..", ".tools"))
	return abs
}

// npmPackage returns the folder of an installed package, or skips the test
// saying how to install it.
func npmPackage(t testing.TB, folder, pkg string) string {
	t.Helper()
	dir := filepath.Join(toolsDir(), folder, "node_modules", pkg)
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err != nil {
		testenv.Skip(t, pkg+" in "+filepath.Join(toolsDir(), folder), "run ./scripts/openapi-deps.sh (npm ci of testdata/openapi/npm/*)")
	}
	return dir
}

// notImportable lists the documents of @readme/oas-examples that are
// refused, each with the reason. It is empty: every document imports.
var notImportable = map[string]string{}

// TestReadmeExamples imports every OpenAPI 2.0, 3.0 and 3.1 document of
// @readme/oas-examples 8.2.2, YAML and JSON, and validates each result.
func TestReadmeExamples(t *testing.T) {
	root := npmPackage(t, "openapi-specs", "@readme/oas-examples")
	var docs []string
	for _, v := range []string{"2.0", "3.0", "3.1"} {
		err := filepath.WalkDir(filepath.Join(root, v), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".yaml")) {
				docs = append(docs, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(docs)
	clean, warned := 0, 0
	for _, doc := range docs {
		rel, _ := filepath.Rel(root, doc)
		t.Run(rel, func(t *testing.T) {
			if why, ok := notImportable[rel]; ok {
				t.Skip(why)
			}
			src, err := Read(t.Context(), doc, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			api, err := Parse(src)
			if err != nil {
				t.Fatalf("not imported: %v", err)
			}
			ops, _ := Filter{Deprecated: true}.Select(api.Operations)
			if len(ops) == 0 {
				t.Logf("no operations (webhooks only, say): the server and backend alone are checked")
			}
			warnings := checkConfig(t, rel, Generate(api, ops, Options{Source: filepath.Base(doc)}))
			if len(warnings) > 0 {
				warned++
				for _, w := range warnings {
					t.Logf("warning: %s", w.Error())
				}
			}
			if !t.Failed() {
				clean++
			}
		})
	}
	t.Logf("%d documents, %d imported and validated without errors (%d of them with warnings), %d refused as listed", len(docs), clean, warned, len(notImportable))
	if len(docs) < 120 {
		t.Errorf("found %d documents in %s; the package has about 130", len(docs), root)
	}
}
