package openapi

import (
	"os"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

// FuzzImport feeds arbitrary documents to the parser and generator: no
// input may panic, and whatever is generated must be HCL that parses.
// (Validating each output fully is left to the example and golden tests,
// where it is affordable.)
func FuzzImport(f *testing.F) {
	for _, seed := range []string{"testdata/shop.yaml", "testdata/common.yaml"} {
		if data, err := os.ReadFile(seed); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"swagger":"2.0","info":{"title":"t","version":"1"},"host":"h","paths":{"/a/{b}":{"get":{"parameters":[{"name":"b","in":"path","type":"array","items":{"type":"integer"}}]}}}}`))
	f.Add([]byte("openapi: 3.1.0\ninfo: {title: x, version: '1'}\npaths:\n  /x:\n    post:\n      requestBody:\n        content:\n          application/json:\n            schema: {type: [string, 'null'], enum: [a, null], default: b}\n"))
	for _, doc := range []string{levelsDoc, objectDoc, speakeasyDoc, malformedDoc} {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		api, err := Parse(&Source{Data: data, Location: "fuzz.yaml", IsURL: true})
		if err != nil {
			return
		}
		out := Generate(api, api.Operations, Options{Source: "fuzz.yaml", ToolsetsFromTags: true})
		if _, diags := hclwrite.ParseConfig(out, "fuzz.hcl", hcl.InitialPos); diags.HasErrors() {
			t.Fatalf("generated HCL does not parse: %s\n%s", diags.Error(), out)
		}
	})
}
