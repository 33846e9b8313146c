package lang

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// A lean load (LoadOptions.Lean) keeps no syntax tree: each file is
// parsed and decoded whole, what lint reads of its syntax is recorded
// (Refs), and the file keeps its text and its top-level block headers
// only. A big file is better read as a Stream, whose pieces are parsed,
// decoded and let go one batch at a time; the pieces below are its.

// leanChunkSize is the size of a stream's pieces: each costs some fixed
// work (a parser, the first small chunks of its allocations, a decode),
// which at the whole-tree load's 2 KB was a tenth of a big file's load,
// and the trees of the pieces being read, a few MB at this size, are all
// the tree there is at any time. A variable so tests can
// cut every file into pieces.
var leanChunkSize = 64 << 10

// piece is what one piece of a file gives (readPiece).
type piece struct {
	content *fileContent
	diags   hcl.Diagnostics
	refs    Config // VarRefs and LocalRefs only
	heads   blockHeads
	failed  bool
}

// leanFile is a file loaded whole, as a lean load keeps it.
func leanFile(f *hcl.File) *hcl.File {
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return f // JSON syntax: its tree is its text's
	}
	return &hcl.File{Body: leanBody(f.Bytes), Bytes: f.Bytes, Nav: headsOf(body)}
}

// readPiece parses, decodes and sums up one piece. A piece with an
// attribute at the top level fails too: the language has none, and only
// the whole file's parse reports one given twice.
func readPiece(src []byte, filename string, start hcl.Pos) piece {
	body, ok := parseFast(src, filename, start)
	if !ok {
		f, diags := hclsyntax.ParseConfig(src, filename, start)
		if diags.HasErrors() {
			return piece{failed: true}
		}
		body = f.Body.(*hclsyntax.Body)
	}
	if len(body.Attributes) > 0 {
		return piece{failed: true}
	}
	p := piece{heads: headsOf(body)}
	p.content, p.diags = decodeContent(body)
	p.refs.addValueRefs(body, src)
	return p
}

// pieceStarts returns where each piece ending at ends starts.
func pieceStarts(src []byte, ends []int) []hcl.Pos {
	starts := make([]hcl.Pos, len(ends))
	pos, from := hcl.InitialPos, 0
	for i, end := range ends {
		starts[i] = pos
		pos = advance(pos, src[from:end])
		from = end
	}
	return starts
}

// leanBody is the body a lean file keeps: empty, with the file's range.
func leanBody(src []byte) *hclsyntax.Body {
	end := advance(hcl.InitialPos, src)
	return &hclsyntax.Body{SrcRange: hcl.Range{Start: hcl.InitialPos, End: end}, EndRange: hcl.Range{Start: end, End: end}}
}

// addRefs adds the references another load found.
func (cfg *Config) addRefs(from *Config) {
	if from.VarRefs == nil {
		return
	}
	if cfg.VarRefs == nil {
		cfg.VarRefs, cfg.LocalRefs = NewRefs(), NewRefs()
	}
	cfg.VarRefs.Merge(from.VarRefs)
	cfg.LocalRefs.Merge(from.LocalRefs)
}

// Merge adds the references of from.
func (r *Refs) Merge(from *Refs) {
	for name := range from.Names {
		r.Add(name)
	}
	r.All = r.All || from.All
}

// blockHeads are a file's top-level block headers: what its File.Nav
// answers from (the block around a position, named in diagnostics as
// "in tool ..."), as hclsyntax's navigation of the whole tree would.
type blockHeads []blockHead

type blockHead struct {
	typ         string
	labels      []string
	rng, defRng hcl.Range
}

func headsOf(body *hclsyntax.Body) blockHeads {
	out := make(blockHeads, len(body.Blocks))
	for i, b := range body.Blocks {
		out[i] = blockHead{typ: b.Type, labels: slices.Clone(b.Labels), rng: b.Range(), defRng: b.DefRange()}
	}
	return out
}

// find is the block around offset; the blocks are in source order, so a
// report of many findings does not walk them all for each.
func (h blockHeads) find(offset int) *blockHead {
	i := sort.Search(len(h), func(i int) bool { return h[i].rng.End.Byte > offset })
	if i == len(h) || !h[i].rng.ContainsOffset(offset) {
		return nil
	}
	return &h[i]
}

// ContextString names the top-level block around offset: its type and
// quoted labels.
func (h blockHeads) ContextString(offset int) string {
	b := h.find(offset)
	if b == nil {
		return ""
	}
	var buf bytes.Buffer
	buf.WriteString(b.typ)
	for _, l := range b.labels {
		fmt.Fprintf(&buf, " %q", l)
	}
	return buf.String()
}

// ContextDefRange is the header range of the top-level block around offset.
func (h blockHeads) ContextDefRange(offset int) hcl.Range {
	if b := h.find(offset); b != nil {
		return b.defRng
	}
	return hcl.Range{}
}

// leanable reports whether a file may be read in pieces by a stream.
func leanable(name string) bool {
	return !strings.HasSuffix(name, ".json") && !IsTestFile(name)
}
