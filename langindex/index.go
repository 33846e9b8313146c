package langindex

import (
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/json"

	"github.com/mcpdecl/mcpdecl/lang"
)

// Kind is what a name names.
type Kind string

// The kinds of names. Arguments and steps belong to a tool, prompt,
// resource or resource template (Symbol.Owner); the rest are global.
const (
	KindTool             Kind = "tool"
	KindResource         Kind = "resource"
	KindResourceTemplate Kind = "resource_template"
	KindPrompt           Kind = "prompt"
	KindApp              Kind = "app"
	KindBackend          Kind = "backend"
	KindVariable         Kind = "variable"
	KindLocal            Kind = "local"
	KindArgument         Kind = "argument"
	KindStep             Kind = "step"
	KindToolset          Kind = "toolset"
	KindLimit            Kind = "limit"
	KindTest             Kind = "test"
	KindScope            Kind = "scope"    // auth { scope "x" {} }, named in scopes = [...]
	KindClaim            Kind = "claim"    // auth { claim "x" {} }, read as auth.claims.x
	KindQuestion         Kind = "question" // the key of an elicit, sample or roots block, read as answers.x
	// Blocks that declare no name, in the outline only.
	KindLocals Kind = "locals"
	KindServer Kind = "server"
	KindAuth   Kind = "auth"
)

// Symbol is a declared name.
type Symbol struct {
	Kind Kind
	Name string
	// Owner is the block an argument or step belongs to, as "tool.search"
	// or "resource_template.order"; empty for the other kinds.
	Owner string
	// NameRange is the name alone (inside the quotes of a label); for a
	// question without a key attribute, whose key the language gives
	// ("elicit2"), the block's type. Range is the whole declaration.
	NameRange, Range hcl.Range
	// Children are the arguments and steps of a block, the values of a
	// locals block: the outline below it. The outline (Index.Symbols)
	// also holds the server, auth and locals blocks, which declare no
	// name; their Name is their type.
	Children []*Symbol

	// implicit marks a name the language gives (a question without a
	// key attribute), written nowhere, so not renamed in place.
	implicit bool
}

// key identifies what a name refers to.
type key struct {
	kind        Kind
	owner, name string
}

func (s *Symbol) key() key { return key{s.Kind, s.Owner, s.Name} }

// ref is one use of a name.
type ref struct {
	key key
	rng hcl.Range
	// traversal says the name is written as part of an HCL traversal
	// (tool.x in a test), where it must stay an identifier.
	traversal bool
}

// fileIndex is what one file declares and uses.
type fileIndex struct {
	lines   *lines
	outline []*Symbol
	symbols []*Symbol // the outline, flattened
	refs    []ref
	tokens  []Token
	decls   map[key][]*Symbol // the symbols, by what they declare
	uriRefs []uriRef
	served  served
}

// Index is the names of one configuration: its files, each indexed on its
// own, and the declarations of all of them.
type Index struct {
	files map[string]*fileIndex
	names []string // of files, sorted
}

// Build indexes the files of one configuration (file name -> source). It
// never reads the disk: the sources are what the editor holds. A file that
// does not parse is indexed as far as it parsed.
func Build(files map[string][]byte) *Index {
	idx := &Index{files: make(map[string]*fileIndex, len(files))}
	for name, src := range files {
		idx.files[name] = indexFile(name, src)
	}
	idx.names = sortedNames(idx.files)
	return idx
}

// With returns an index with file's source replaced by src (or the file
// removed, when src is nil); the other files' parts are shared, not
// rebuilt.
func (idx *Index) With(file string, src []byte) *Index {
	out := &Index{files: maps.Clone(idx.files)}
	if src == nil {
		delete(out.files, file)
	} else {
		out.files[file] = indexFile(file, src)
	}
	out.names = sortedNames(out.files)
	return out
}

// Files returns the names of the indexed files, sorted.
func (idx *Index) Files() []string {
	return slices.Clone(idx.names)
}

func sortedNames(files map[string]*fileIndex) []string {
	names := slices.Collect(maps.Keys(files))
	slices.Sort(names)
	return names
}

// declarations returns the declarations of k in every file, in file
// order. Each file keeps its own, so that With rebuilds nothing of the
// others.
func (idx *Index) declarations(k key) []*Symbol {
	var out []*Symbol
	for _, name := range idx.names {
		out = append(out, idx.files[name].decls[k]...)
	}
	return out
}

func indexFile(name string, src []byte) *fileIndex {
	ln := newLines(src)
	var nodes []*node
	if isJSONName(name) {
		if f, _ := json.Parse(src, name); f != nil && f.Body != nil {
			nodes, _ = jsonTree(f.Body, lang.FileShape(), ln)
		}
	} else {
		nodes = parseNative(name, src, ln)
	}
	c := &collector{name: name, lines: ln, json: isJSONName(name), fi: &fileIndex{lines: ln}}
	for _, n := range nodes {
		c.topLevel(n)
	}
	c.fi.decls = map[key][]*Symbol{}
	for _, s := range c.fi.symbols {
		c.fi.decls[s.key()] = append(c.fi.decls[s.key()], s)
	}
	return c.fi
}
