package openapi

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestHostileDeepDocument: the 148 KB document nesting a body 4,000 deep,
// as JSON and as YAML, is refused before the parser indexes it, with an
// error naming where (line, column and path).
func TestHostileDeepDocument(t *testing.T) {
	data := deepBodies(4000)
	_, err := parseBytes(t, "deep.json", data)
	want := "nested more than 128 levels deep at /paths/~1x/post/requestBody/content/application~1json/schema/properties/... 114 more .../a/properties/a/properties"
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "deep.json:1:") {
		t.Errorf("JSON: %v; want it to say %q", err, want)
	}
	var y strings.Builder
	y.WriteString("openapi: 3.0.0\ninfo: {title: deep, version: '1'}\npaths:\n  /x:\n    post:\n      requestBody:\n        content:\n          application/json:\n            schema:\n")
	indent := strings.Repeat(" ", 14)
	for range 200 {
		y.WriteString(indent + "type: object\n" + indent + "properties:\n" + indent + "  a:\n")
		indent += "    "
	}
	y.WriteString(indent + "type: string\n")
	_, err = parseBytes(t, "deep.yaml", []byte(y.String()))
	if err == nil || !strings.Contains(err.Error(), "nested more than 128 levels deep at /paths/~1x/post/") || !strings.Contains(err.Error(), "deep.yaml:") {
		t.Errorf("YAML: %v", err)
	}
}

// TestHostileRefFanOut: schemas whose ten properties each refer to the
// next schema, 30 deep, expand to 10^30 schemas; the import stops at the
// budget with an error naming the operation.
func TestHostileRefFanOut(t *testing.T) {
	var b strings.Builder
	b.WriteString("openapi: 3.0.0\ninfo: {title: fan, version: '1'}\npaths:\n  /fan:\n    post:\n      requestBody:\n        content:\n          application/json:\n            schema: {$ref: '#/components/schemas/S30'}\ncomponents:\n  schemas:\n    S0: {type: string}\n")
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&b, "    S%d:\n      type: object\n      properties:\n", i)
		for p := range 10 {
			fmt.Fprintf(&b, "        p%d: {$ref: '#/components/schemas/S%d'}\n", p, i-1)
		}
	}
	_, err := parseBytes(t, "fan.yaml", []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "fan.yaml: POST /fan: its schemas expand to more than") {
		t.Errorf("%v; want an error naming POST /fan", err)
	}
}

// TestHostileShapeLimitsKeepRealDocuments: every real document in the
// tools cache (GitHub's descriptions, the dereferenced ones of up to 78 MB
// too, and @readme/oas-examples) is within the nesting and weight bounds,
// and the log says how far within.
func TestHostileShapeLimitsKeepRealDocuments(t *testing.T) {
	root := filepath.Join(toolsDir(), "openapi-specs", "node_modules")
	npmPackage(t, "openapi-specs", "@octokit/openapi")
	var docs []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".yaml")) && !strings.HasSuffix(p, "package.json") &&
			(strings.Contains(p, "/generated/") || strings.Contains(p, "oas-examples/")) {
			docs = append(docs, p)
		}
		return nil
	})
	sort.Strings(docs)
	if len(docs) < 100 {
		t.Fatalf("found %d documents under %s", len(docs), root)
	}
	var heaviest int64
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		w, err := measureShape(data, doc)
		if err != nil {
			t.Errorf("a real document is refused: %v", err)
		}
		if w > heaviest {
			heaviest = w
			t.Logf("%s: weight %d (the bound is %d)", filepath.Base(doc), w, maxWeight)
		}
	}
}
