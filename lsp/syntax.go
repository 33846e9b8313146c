package lsp

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mcpdecl/mcpdecl/langschema"
)

// parse reads a document's native syntax; the body holds what parsed
// even when the text has errors (one being typed), which is what
// outline, hover and completion work on.
func parse(doc *document) *hclsyntax.Body {
	f, _ := hclsyntax.ParseConfig([]byte(doc.text.src), doc.path, hcl.InitialPos)
	if f == nil {
		return nil
	}
	body, _ := f.Body.(*hclsyntax.Body)
	return body
}

// enclosing lists the blocks whose body holds offset, outermost first.
func enclosing(body *hclsyntax.Body, offset int) []*hclsyntax.Block {
	var out []*hclsyntax.Block
	for body != nil {
		var next *hclsyntax.Body
		for _, b := range body.Blocks {
			if inBody(b, offset) {
				out = append(out, b)
				next = b.Body
				break
			}
		}
		body = next
	}
	return out
}

// inBody says offset is between a block's braces.
func inBody(b *hclsyntax.Block, offset int) bool {
	return b.OpenBraceRange.End.Byte <= offset && offset <= b.CloseBraceRange.Start.Byte
}

func contains(r hcl.Range, offset int) bool {
	return r.Start.Byte <= offset && offset <= r.End.Byte
}

// schemaAt is the language tree's node for a nesting of blocks, and its
// path as langref names it ("tool", "http"; "backend", "sql"). A backend
// block is its kind's node; what every kind takes (lint) stays
// reachable through the backend node, returned as also.
func schemaAt(blocks []*hclsyntax.Block) (node *langschema.Node, path []string, also *langschema.Node) {
	node = langschema.Tree()
	for _, b := range blocks {
		child := node.Block(b.Type)
		if child == nil && also != nil {
			child = also.Block(b.Type)
		}
		also = nil
		if child == nil {
			return nil, nil, nil
		}
		node = child
		path = append(path, b.Type)
		if node.ByKind != nil && len(b.Labels) > 0 {
			if kind, ok := node.ByKind[b.Labels[0]]; ok {
				also = node
				node = kind
				path = append(path, b.Labels[0])
			}
		}
	}
	return node, path, also
}
