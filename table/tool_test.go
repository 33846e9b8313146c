package table_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// TestInferredOutputSchemaAllowsTruncated: an object literal's keys make
// the inferred output schema; with max_items, the truncated flag a cut
// adds is described too.
func TestInferredOutputSchemaAllowsTruncated(t *testing.T) {
	for _, tc := range []struct {
		result string
		want   map[string]any
	}{
		{`structured = "{'items': [1, 2, 3]}"`, map[string]any{
			"type": "object", "properties": map[string]any{"items": map[string]any{}}, "required": []any{"items"}}},
		{`structured = "{'items': [1, 2, 3]}"
    max_items  = 2`, map[string]any{
			"type": "object", "properties": map[string]any{"items": map[string]any{}, "truncated": map[string]any{"type": "boolean"}},
			"required": []any{"items"}}},
	} {
		cfg, diags := lang.LoadSource("t.hcl", []byte(`
tool "list" {
  description = "Lists."
  result {
    `+tc.result+`
  }
}`))
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		tbl, diags := table.Compile(cfg, all.Registry(), table.Options{})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		if diff := cmp.Diff(tc.want, tbl.Tools[0].OutputSchema); diff != "" {
			t.Errorf("%s: output schema (-want +got):\n%s", tc.result, diff)
		}
	}
}
