package langindex

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/lang"
)

// jsonTree reads a JSON-syntax body. JSON has no block syntax of its own:
// an object is a block or an attribute as the schema says, so the shape
// lang decodes with (lang.FileShape) says which. Bodies that lang leaves
// to others (backends, call blocks) and locals are read as attributes.
func jsonTree(body hcl.Body, shape *lang.BlockShape, ln *lines) ([]*node, []attr) {
	schema := &hcl.BodySchema{}
	for _, a := range shape.Attributes {
		schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: a.Name})
	}
	for _, b := range shape.Blocks {
		schema.Blocks = append(schema.Blocks, hcl.BlockHeaderSchema{Type: b.Type, LabelNames: b.Labels})
	}
	content, rest, _ := body.PartialContent(schema)
	var attrs []attr
	for _, a := range content.Attributes {
		attrs = append(attrs, attr{name: a.Name, nameRange: unquoted(a.NameRange, ln), expr: a.Expr})
	}
	if shape.DecodedBy != "" || shape.AnyAttributes {
		more, _ := rest.JustAttributes()
		for _, a := range more {
			attrs = append(attrs, attr{name: a.Name, nameRange: unquoted(a.NameRange, ln), expr: a.Expr})
		}
	}
	sortAttrs(attrs)
	var nodes []*node
	for _, b := range content.Blocks {
		n := &node{typ: b.Type, typeRange: b.TypeRange}
		lastKey := b.TypeRange
		for i, name := range b.Labels {
			n.labels = append(n.labels, label{name: name, rng: unquoted(b.LabelRanges[i], ln)})
			lastKey = b.LabelRanges[i]
		}
		head := hcl.RangeOver(hcl.RangeOver(b.TypeRange, b.DefRange), lastKey)
		n.rng = ln.rng(head.Filename, head.Start.Byte, max(head.End.Byte, valueEnd(ln.src, lastKey.End.Byte)))
		n.blocks, n.attrs = jsonTree(b.Body, shapeFor(shape, b.Type), ln)
		nodes = append(nodes, n)
	}
	return nodes, attrs
}

func shapeFor(parent *lang.BlockShape, typ string) *lang.BlockShape {
	for _, b := range parent.Blocks {
		if b.Type == typ {
			return b
		}
	}
	return &lang.BlockShape{Type: typ}
}

// valueEnd returns the offset just after the JSON object or array that
// starts after from, the end of a key (a block's body is the value of its
// last key), or from when there is none: hcl's JSON blocks know only
// where they start.
func valueEnd(src []byte, from int) int {
	i := from
	for i < len(src) && src[i] != '{' && src[i] != '[' {
		i++
	}
	depth := 0
	for ; i < len(src); i++ {
		switch src[i] {
		case '"':
			for i++; i < len(src) && src[i] != '"'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return from
}
