package lang

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mcpdecl/mcpdecl/internal/parallel"
)

// A lean load (LoadOptions.Lean) keeps no syntax tree. A big file is read
// in pieces of whole top-level blocks, each parsed, decoded and summed up
// (lint's references, the headers that diagnostics name) on its own, so
// that only the pieces being read have a tree at any time: the tree of a
// file is several times the size of what is decoded from it, and was the
// larger part of the memory that validating or serving a big configuration
// took. Any other file (JSON syntax, a test file, a file whose pieces do
// not parse) is loaded whole, as without the option, and its tree let go
// after.

// leanChunkSize is the size of a lean load's pieces: each costs some
// fixed work (a parser, the first small chunks of its allocations, a
// decode), which at the whole-tree load's 2 KB was a tenth of a big
// file's load, and the trees of the pieces being read, a few MB at this
// size, are all the tree there is at any time. A variable so tests can
// cut every file into pieces.
var leanChunkSize = 64 << 10

// piece is what one piece of a file gives.
type piece struct {
	content *fileContent
	diags   hcl.Diagnostics
	refs    Config // VarRefs and LocalRefs only
	heads   blockHeads
	failed  bool
}

// loadLean loads a native-syntax file in pieces and returns the file as
// the configuration keeps it; it reports false, having changed nothing,
// when the file must be loaded whole.
func (cfg *Config) loadLean(name string, src []byte) (*hcl.File, hcl.Diagnostics, bool) {
	cuts := topLevelCuts(src, leanChunkSize)
	if len(cuts) == 0 {
		return nil, nil, false
	}
	ends := append(cuts, len(src))
	starts := pieceStarts(src, ends)
	pieces := make([]piece, len(ends))
	parallel.For(len(ends), func(i int) {
		pieces[i] = readPiece(src[starts[i].Byte:ends[i]], name, starts[i])
	})
	for _, p := range pieces {
		if p.failed {
			return nil, nil, false // whole, so diagnostics never depend on the cuts
		}
	}
	var diags hcl.Diagnostics
	var heads blockHeads
	for _, p := range pieces {
		diags = append(diags, p.diags...)
		diags = append(diags, cfg.addContent(p.content)...)
		cfg.addRefs(&p.refs)
		heads = append(heads, p.heads...)
	}
	return &hcl.File{Body: leanBody(src), Bytes: src, Nav: heads}, diags, true
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
	cfg.VarRefs.merge(from.VarRefs)
	cfg.LocalRefs.merge(from.LocalRefs)
}

func (r *Refs) merge(from *Refs) {
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

// leanable reports whether a file is read in pieces by a lean load.
func leanable(name string) bool {
	return !strings.HasSuffix(name, ".json") && !IsTestFile(name)
}
