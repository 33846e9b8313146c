// Package langref is the reference text of every block and attribute of
// the configuration language, read from docs/language.md (embedded by
// package docs), so that an editor's hover and the documentation say the
// same thing.
//
// The documentation marks what it describes with HTML comments, which do
// not show when it is rendered:
//
//	<!-- ref: tool.elicit -->
//
// names the block that the prose after it describes (up to the first
// table, code block or heading), and the first table after it whose first
// column is headed "Attribute" lists that block's attributes, one row
// each. A marker may name several blocks that share one description
// (`<!-- ref: arg property items -->`).
//
// A block is named by its path from the top of a file, each element the
// block's type: []string{"tool"}, []string{"tool", "elicit"}. A backend
// block's path names its kind as well, []string{"backend", "http"}, since
// each kind takes other attributes. A key of the documentation matches a
// path when it is the path's end: `icon` describes the icon blocks of the
// server, tools, resources and prompts alike, and `http` the call blocks
// of tools, steps and resources. The longest matching key wins, so
// `backend.http.auth` is not mistaken for the top-level `auth`.
//
// The tests check both ways against what package lang and the adapters
// accept: every block and attribute has text, and the text names nothing
// the language refuses.
package langref

import (
	"slices"
	"strings"
	"sync"

	"github.com/mcpdecl/mcpdecl/docs"
)

// Entry is the reference of one block or attribute.
type Entry struct {
	// Title names it, e.g. "tool elicit" or "timeout (tool)".
	Title string
	// Markdown is the text of the documentation.
	Markdown string
	// Anchor is where the documentation says it, as a path relative to
	// the repository root: "docs/language.md#tool".
	Anchor string
}

// Documented is what the documentation says of one key.
type Documented struct {
	// Key is the dotted path suffix the documentation marks, e.g.
	// "tool.elicit" or "http".
	Key   string
	Block Entry
	// Attributes are the rows of the block's attribute table, by name.
	Attributes map[string]Entry
	// Order is the names of Attributes in the table's order.
	Order []string
}

// index is the parsed documentation.
type index map[string]*Documented

var (
	loadOnce sync.Once
	docIndex index
)

func load() index {
	loadOnce.Do(func() { docIndex = parse(docs.Language, "docs/language.md") })
	return docIndex
}

// All returns everything the documentation marks, sorted by key.
func All() []*Documented {
	idx := load()
	keys := make([]string, 0, len(idx))
	for k := range idx {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]*Documented, 0, len(keys))
	for _, k := range keys {
		out = append(out, idx[k])
	}
	return out
}

// Lookup returns what the documentation says of the block at path: the
// entry of the longest key that is the path's end.
func Lookup(path []string) (*Documented, bool) { return load().lookup(path) }

func (idx index) lookup(path []string) (*Documented, bool) {
	for i := range path {
		if d, ok := idx[strings.Join(path[i:], ".")]; ok {
			return d, true
		}
	}
	return nil, false
}

// Block returns the reference of the block at path, e.g.
// []string{"tool"} or []string{"backend", "http"}.
func Block(path []string) (Entry, bool) { return load().block(path) }

func (idx index) block(path []string) (Entry, bool) {
	d, ok := idx.lookup(path)
	if !ok {
		return Entry{}, false
	}
	return d.Block, true
}

// Attribute returns the reference of the attribute name of the block at
// blockPath.
func Attribute(blockPath []string, name string) (Entry, bool) {
	return load().attribute(blockPath, name)
}

func (idx index) attribute(blockPath []string, name string) (Entry, bool) {
	d, ok := idx.lookup(blockPath)
	if !ok {
		return Entry{}, false
	}
	e, ok := d.Attributes[name]
	return e, ok
}
