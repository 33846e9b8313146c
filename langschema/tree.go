// Package langschema is the whole language as one tree: the blocks and
// attributes package lang reads, with the bodies the adapters read inside
// backend and call blocks, and the reference text of each from package
// langref. It makes the JSON Schema of the JSON syntax (`mcpdecl schema`,
// editors/schema/mcpdecl.schema.json), and editors read it for completion.
//
// Nothing here decides what the language accepts: the tree is read from
// lang's decode structs and the adapters' body schemas, which Load and the
// adapters decode with, so it follows them.
package langschema

import (
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/lang"

	httpadapter "github.com/mcpdecl/mcpdecl/adapters/http"
	mcpadapter "github.com/mcpdecl/mcpdecl/adapters/mcp"
	shelladapter "github.com/mcpdecl/mcpdecl/adapters/shell"
	sqladapter "github.com/mcpdecl/mcpdecl/adapters/sql"
)

// Node is one block type at one place of the tree.
type Node struct {
	Type       string
	Labels     []string
	Attributes []lang.AttributeShape
	Blocks     []*Node
	// AnyAttributes says the body holds attributes of any name (locals).
	AnyAttributes bool
	// ByKind is, for a backend block, the body of each kind, by its
	// first label ("http"); the node's own Blocks hold what every kind
	// takes (lint).
	ByKind map[string]*Node
}

// Block returns the nested block of type name, or nil.
func (n *Node) Block(name string) *Node {
	for _, b := range n.Blocks {
		if b.Type == name {
			return b
		}
	}
	return nil
}

// Attribute reports whether the block takes the attribute name.
func (n *Node) Attribute(name string) (lang.AttributeShape, bool) {
	for _, a := range n.Attributes {
		if a.Name == name {
			return a, true
		}
	}
	return lang.AttributeShape{}, n.AnyAttributes
}

// kind is what an adapter reads.
type kind struct {
	backend *hcl.BodySchema
	nested  map[string]*hcl.BodySchema
	call    *hcl.BodySchema
}

var kinds = map[string]kind{
	httpadapter.Kind:  {httpadapter.BackendSchema, httpadapter.BackendBlocks, httpadapter.CallSchema},
	sqladapter.Kind:   {sqladapter.BackendSchema, sqladapter.BackendBlocks, sqladapter.CallSchema},
	shelladapter.Kind: {shelladapter.BackendSchema, nil, shelladapter.CallSchema},
	mcpadapter.Kind:   {mcpadapter.BackendSchema, mcpadapter.BackendBlocks, mcpadapter.CallSchema},
}

// Kinds returns the backend kinds, sorted.
func Kinds() []string {
	out := make([]string, 0, len(kinds))
	for k := range kinds {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

var (
	treeOnce sync.Once
	root     *Node
)

// Tree returns the top of a configuration file. A block type that holds
// itself (property inside property) is the same *Node below itself, so a
// walk must stop at a node it is already inside (see Walk).
func Tree() *Node {
	treeOnce.Do(func() {
		root = convert(lang.FileShape(), map[*lang.BlockShape]*Node{})
	})
	return root
}

func convert(s *lang.BlockShape, seen map[*lang.BlockShape]*Node) *Node {
	if n, ok := seen[s]; ok {
		return n
	}
	n := &Node{Type: s.Type, Labels: s.Labels, Attributes: s.Attributes, AnyAttributes: s.AnyAttributes}
	seen[s] = n
	for _, b := range s.Blocks {
		n.Blocks = append(n.Blocks, convert(b, seen))
	}
	switch s.DecodedBy {
	case "backend":
		n.ByKind = map[string]*Node{}
		for name, k := range kinds {
			n.ByKind[name] = fromHCL(name, nil, k.backend, k.nested, "")
		}
	case "call":
		n.Attributes = append(n.Attributes, fromHCL(s.Type, nil, kinds[s.Type].call, nil, "").Attributes...)
	}
	return n
}

// fromHCL is the node of an adapter's body schema; nested holds the
// bodies of its blocks by their path below the backend.
func fromHCL(typ string, labels []string, schema *hcl.BodySchema, nested map[string]*hcl.BodySchema, prefix string) *Node {
	n := &Node{Type: typ, Labels: labels}
	for _, a := range schema.Attributes {
		n.Attributes = append(n.Attributes, lang.AttributeShape{Name: a.Name, Required: a.Required})
	}
	for _, b := range schema.Blocks {
		path := strings.TrimPrefix(prefix+"."+b.Type, ".")
		body, ok := nested[path]
		if !ok {
			panic("langschema: no body schema for block " + path + " of a backend " + typ)
		}
		n.Blocks = append(n.Blocks, fromHCL(b.Type, b.LabelNames, body, nested, path))
	}
	return n
}

// Walk calls fn with the path of every block below n (the backend kinds
// as path elements: backend, http), depth first, and stops below a node
// already on the path.
func Walk(n *Node, fn func(path []string, n *Node)) {
	walk(n, nil, nil, fn)
}

func walk(n *Node, path []string, inside []*Node, fn func([]string, *Node)) {
	if slices.Contains(inside, n) {
		return
	}
	if len(path) > 0 {
		fn(path, n)
	}
	inside = append(inside, n)
	for _, b := range n.Blocks {
		walk(b, append(slices.Clip(path), b.Type), inside, fn)
	}
	for _, k := range sortedKeys(n.ByKind) {
		walk(n.ByKind[k], append(slices.Clip(path), k), inside, fn)
	}
}

func sortedKeys(m map[string]*Node) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
