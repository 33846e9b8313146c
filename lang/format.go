package lang

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/mcpdecl/mcpdecl/internal/diagcode"
)

// Format returns src in the canonical layout of the native syntax, the
// bytes `mcpdecl fmt` writes and an editor's "format document" gets. A
// file with syntax errors is not formatted: its diagnostics are returned
// instead, since reindenting around a broken bracket would move text the
// author has not finished writing.
func Format(name string, src []byte) ([]byte, hcl.Diagnostics) {
	if _, diags := hclwrite.ParseConfig(src, name, hcl.InitialPos); diags.HasErrors() {
		return nil, diagcode.Mark(diags, diagcode.Syntax)
	}
	return hclwrite.Format(src), nil
}
