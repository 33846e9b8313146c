package openapi

import (
	"bytes"
	"path/filepath"
	"testing"
)

// TestShopGolden imports a document written to use each construct the
// importer maps (parameters of every kind, JSON, form, text and multipart
// bodies, allOf, oneOf, a cycle, a reference to a file beside it, several
// security schemes) and compares the result with the reviewed file.
func TestShopGolden(t *testing.T) {
	out := importFile(t, "testdata/shop.yaml", Filter{})
	checkConfig(t, "shop.yaml", out)
	golden(t, filepath.Join("testdata", "shop.hcl"), out)
}

// TestDeterministic imports the same document twice: the same bytes.
func TestDeterministic(t *testing.T) {
	a := importFile(t, "testdata/shop.yaml", Filter{})
	b := importFile(t, "testdata/shop.yaml", Filter{})
	if !bytes.Equal(a, b) {
		t.Fatalf("two imports of one document differ:\n%s", firstDiff(string(a), string(b)))
	}
}
