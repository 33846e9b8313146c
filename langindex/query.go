package langindex

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
)

// Name is a name written at some place: what it names and where it is
// written there.
type Name struct {
	Kind Kind
	Name string
	// Owner is the block of an argument or step, as in Symbol.
	Owner string
	// Range is the name as written at this place.
	Range hcl.Range

	byURI bool // a resource read by its URI, where the name is not written
}

// NameAt returns the name at pos in file, a use or a declaration (for
// an editor's prepareRename and hover). ok is false on no name.
func (idx *Index) NameAt(file string, pos hcl.Pos) (Name, bool) {
	fi, ok := idx.files[file]
	if !ok {
		return Name{}, false
	}
	at := hcl.Pos{Byte: fi.lines.offset(pos)}
	var best Name
	width := -1
	consider := func(k key, r hcl.Range, byURI bool) {
		if contains(r, at) && (width < 0 || r.End.Byte-r.Start.Byte < width) {
			best, width = Name{Kind: k.kind, Name: k.name, Owner: k.owner, Range: r, byURI: byURI}, r.End.Byte-r.Start.Byte
		}
	}
	for _, r := range fi.refs {
		consider(r.key, r.rng, false)
	}
	for _, s := range fi.symbols {
		consider(s.key(), s.NameRange, false)
	}
	for _, u := range fi.uriRefs {
		if k, ok := idx.resolveURI(u.uri); ok {
			consider(k, u.rng, true)
		}
	}
	return best, width >= 0
}

// target finds what the name at pos in file names.
func (idx *Index) target(file string, pos hcl.Pos) (key, bool) {
	n, ok := idx.NameAt(file, pos)
	return key{n.Kind, n.Owner, n.Name}, ok
}

// Definition returns where the name at pos is declared: the name in its
// declaration (the label of a block, the attribute of a local, the
// variable of a URI template). ok is false when pos is on no name, or on
// one declared nowhere.
func (idx *Index) Definition(file string, pos hcl.Pos) (hcl.Range, bool) {
	k, ok := idx.target(file, pos)
	if !ok {
		return hcl.Range{}, false
	}
	decls := idx.declarations(k)
	if len(decls) == 0 {
		return hcl.Range{}, false
	}
	return decls[0].NameRange, true
}

// References returns every use of the name at pos in every file, sorted
// by file and position, with its declarations when includeDecl is set.
// A resource's uses include the URIs that read it (a test's resource,
// a message's uri), which Rename leaves as they are.
func (idx *Index) References(file string, pos hcl.Pos, includeDecl bool) []hcl.Range {
	k, ok := idx.target(file, pos)
	if !ok {
		return nil
	}
	out := idx.uriUses(k)
	for _, r := range idx.uses(k) {
		out = append(out, r.rng)
	}
	if includeDecl {
		for _, s := range idx.declarations(k) {
			out = append(out, s.NameRange)
		}
	}
	sortRanges(out)
	return out
}

// uses returns the uses of k in every file.
func (idx *Index) uses(k key) []ref {
	var out []ref
	for _, name := range idx.names {
		for _, r := range idx.files[name].refs {
			if r.key == k {
				out = append(out, r)
			}
		}
	}
	return out
}

func sortRanges(rs []hcl.Range) {
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].Filename != rs[j].Filename {
			return rs[i].Filename < rs[j].Filename
		}
		return rs[i].Start.Byte < rs[j].Start.Byte
	})
}

// Symbols returns the outline of file: its named blocks in source order,
// each with its arguments and steps (a locals block with its values).
// The symbols are the index's own, shared by the indexes With makes:
// read them, do not change them.
func (idx *Index) Symbols(file string) []*Symbol {
	fi, ok := idx.files[file]
	if !ok {
		return nil
	}
	return fi.outline
}

// SemanticTokens returns the tokens of the expr-lang programs written in
// file's strings, in source order. HCL around them is left to the
// editor's grammar.
func (idx *Index) SemanticTokens(file string) []Token {
	fi, ok := idx.files[file]
	if !ok {
		return nil
	}
	out := append([]Token(nil), fi.tokens...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Range.Start.Byte < out[j].Range.Start.Byte })
	return out
}
