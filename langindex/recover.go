package langindex

import (
	"regexp"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// parseNative reads a native-syntax file into blocks. A file with syntax
// errors is read again block by block, each top-level block on its own,
// so that one half-typed block (an open string, a missing brace, which
// make hcl give up on the rest of the file) costs only itself.
func parseNative(name string, src []byte, ln *lines) []*node {
	f, diags := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
	if !diags.HasErrors() {
		return treeOf(f, ln)
	}
	starts := blockStarts(src)
	if len(starts) < 2 {
		return treeOf(f, ln)
	}
	var out []*node
	for i, from := range starts {
		to := len(src)
		if i+1 < len(starts) {
			to = starts[i+1]
		}
		piece, _ := hclsyntax.ParseConfig(src[from:to], name, ln.pos(from))
		out = append(out, treeOf(piece, ln)...)
	}
	return out
}

func treeOf(f *hcl.File, ln *lines) []*node {
	if f == nil {
		return nil
	}
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return nil
	}
	return nativeTree(body, ln)
}

// blockHeader is a line that opens a top-level block: a type at the
// start of the line, labels, and a brace.
var blockHeader = regexp.MustCompile(`(?m)^[A-Za-z_][A-Za-z0-9_-]*([ \t]+("[^"\n]*"|[A-Za-z_][A-Za-z0-9_-]*))*[ \t]*\{`)

// blockStarts returns the offsets of the lines that look like the start
// of a top-level block.
func blockStarts(src []byte) []int {
	var out []int
	for _, m := range blockHeader.FindAllIndex(src, -1) {
		out = append(out, m[0])
	}
	if len(out) > 0 && out[0] != 0 {
		out = append([]int{0}, out...)
	}
	return out
}
