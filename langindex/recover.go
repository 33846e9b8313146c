package langindex

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// parseNative reads a native-syntax file into blocks, parsing each
// top-level block on its own, on every core. Besides speed (hcl's lexer
// keeps a whole file's tokens in one growing slice), this is what keeps a
// broken file useful: one half-typed block (an open string, a missing
// brace, after which hcl gives up on the rest of the file) costs only
// itself. The pieces are cut where a line looks like a block's start; a
// cut in the wrong place (inside a heredoc) makes a piece fail, and then
// the whole file is parsed at once, the pieces kept only if that fails
// too.
func parseNative(name string, src []byte, ln *lines) []*node {
	starts := blockStarts(src)
	if len(starts) < 2 {
		f, _ := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
		return treeOf(f, ln)
	}
	pieces, failed := parsePieces(name, src, starts, ln)
	if failed {
		if f, diags := hclsyntax.ParseConfig(src, name, hcl.InitialPos); !diags.HasErrors() {
			return treeOf(f, ln)
		}
	}
	var out []*node
	for _, p := range pieces {
		out = append(out, p...)
	}
	return out
}

// parsePieces parses src cut at starts, each piece at its own position.
func parsePieces(name string, src []byte, starts []int, ln *lines) ([][]*node, bool) {
	pieces := make([][]*node, len(starts))
	failed := make([]bool, len(starts))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(starts)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(starts); i = int(next.Add(1) - 1) {
				to := len(src)
				if i+1 < len(starts) {
					to = starts[i+1]
				}
				f, diags := hclsyntax.ParseConfig(src[starts[i]:to], name, ln.pos(starts[i]))
				pieces[i], failed[i] = treeOf(f, ln), diags.HasErrors()
			}
		})
	}
	wg.Wait()
	return pieces, slices.Contains(failed, true)
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
var blockHeader = lazyregexp.New(`(?m)^[A-Za-z_][A-Za-z0-9_-]*([ \t]+("[^"\n]*"|[A-Za-z_][A-Za-z0-9_-]*))*[ \t]*\{`)

// blockStarts returns the offsets of the lines that look like the start
// of a top-level block, and 0.
func blockStarts(src []byte) []int {
	var out []int
	for _, m := range blockHeader.FindAllIndex(src, -1) {
		out = append(out, m[0])
	}
	if len(out) == 0 || out[0] != 0 {
		out = append([]int{0}, out...)
	}
	return out
}
