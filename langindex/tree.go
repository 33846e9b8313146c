package langindex

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// node is one block of a file, read from either syntax into the same
// shape, so that the indexer does not care how the file was written.
type node struct {
	typ    string
	labels []label
	// typeRange is the block type's keyword (native) or key (JSON); rng
	// spans the whole block where the syntax says (native), else the
	// definition line.
	typeRange, rng hcl.Range
	attrs          []attr
	blocks         []*node
}

// label is a block label: its value and the range of the value alone,
// without quotes.
type label struct {
	name string
	rng  hcl.Range
}

type attr struct {
	name      string
	nameRange hcl.Range
	expr      hcl.Expression
}

// attr returns the attribute called name, or nil.
func (n *node) attr(name string) *attr {
	for i := range n.attrs {
		if n.attrs[i].name == name {
			return &n.attrs[i]
		}
	}
	return nil
}

// labelAt returns label i, or a zero label.
func (n *node) labelAt(i int) label {
	if i < len(n.labels) {
		return n.labels[i]
	}
	return label{}
}

// nativeTree reads a native-syntax body, however much of it parsed.
func nativeTree(body *hclsyntax.Body, ln *lines) []*node {
	var out []*node
	for _, b := range body.Blocks {
		n := &node{typ: b.Type, typeRange: b.TypeRange, rng: b.Range()}
		for i, name := range b.Labels {
			n.labels = append(n.labels, label{name: name, rng: unquoted(b.LabelRanges[i], ln)})
		}
		n.attrs = nativeAttrs(b.Body)
		n.blocks = nativeTree(b.Body, ln)
		out = append(out, n)
	}
	return out
}

func nativeAttrs(body *hclsyntax.Body) []attr {
	if body == nil {
		return nil
	}
	out := make([]attr, 0, len(body.Attributes))
	for _, a := range body.Attributes {
		out = append(out, attr{name: a.Name, nameRange: a.NameRange, expr: a.Expr})
	}
	sortAttrs(out)
	return out
}

func sortAttrs(attrs []attr) {
	for i := 1; i < len(attrs); i++ {
		for j := i; j > 0 && attrs[j].nameRange.Start.Byte < attrs[j-1].nameRange.Start.Byte; j-- {
			attrs[j], attrs[j-1] = attrs[j-1], attrs[j]
		}
	}
}

// unquoted narrows the range of a quoted label or key to its value.
func unquoted(r hcl.Range, ln *lines) hcl.Range {
	from, to := r.Start.Byte, r.End.Byte
	if to-from >= 2 && to <= len(ln.src) && ln.src[from] == '"' && ln.src[to-1] == '"' {
		return ln.rng(r.Filename, from+1, to-1)
	}
	return r
}

// isJSONName says a file is read with the JSON syntax, as lang reads it.
func isJSONName(name string) bool { return strings.HasSuffix(name, ".json") }
