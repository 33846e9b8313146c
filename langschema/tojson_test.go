package langschema_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// toJSONSyntax writes a native-syntax file in HCL's JSON syntax, as a
// person moving a configuration to *.hcl.json would: blocks as objects
// keyed by type and labels (an array where a type repeats), literals as
// JSON values, lists and objects as JSON arrays and objects, and every
// other expression as a "${...}" string. Type expressions and a test's
// call are static names, written as plain strings, as docs/language.md
// says.
func toJSONSyntax(src []byte, filename string) ([]byte, error) {
	f, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diags
	}
	var buf bytes.Buffer
	w := &jsonWriter{src: src, buf: &buf}
	w.body(f.Body.(*hclsyntax.Body), 0)
	buf.WriteByte('\n')
	if !json.Valid(buf.Bytes()) {
		return nil, fmt.Errorf("%s: the JSON written is not valid:\n%s", filename, buf.Bytes())
	}
	return buf.Bytes(), nil
}

type jsonWriter struct {
	src []byte
	buf *bytes.Buffer
}

func (w *jsonWriter) indent(depth int) {
	w.buf.WriteString("\n" + strings.Repeat("  ", depth))
}

func (w *jsonWriter) str(s string) {
	b, _ := json.Marshal(s)
	w.buf.Write(b)
}

// body writes the attributes in source order, then each block type once,
// in the order it first appears.
func (w *jsonWriter) body(b *hclsyntax.Body, depth int) {
	w.buf.WriteByte('{')
	first := true
	sep := func() {
		if !first {
			w.buf.WriteByte(',')
		}
		first = false
		w.indent(depth + 1)
	}
	attrs := make([]*hclsyntax.Attribute, 0, len(b.Attributes))
	for _, a := range b.Attributes {
		attrs = append(attrs, a)
	}
	sortByStart(attrs)
	for _, a := range attrs {
		sep()
		w.str(a.Name)
		w.buf.WriteString(": ")
		if a.Name == "type" || a.Name == "call" {
			w.str(string(a.Expr.Range().SliceBytes(w.src)))
			continue
		}
		w.expr(a.Expr, depth+1)
	}
	var types []string
	byType := map[string][]*hclsyntax.Block{}
	for _, blk := range b.Blocks {
		if _, ok := byType[blk.Type]; !ok {
			types = append(types, blk.Type)
		}
		byType[blk.Type] = append(byType[blk.Type], blk)
	}
	for _, t := range types {
		sep()
		w.str(t)
		w.buf.WriteString(": ")
		blocks := byType[t]
		if len(blocks) == 1 {
			w.block(blocks[0], 0, depth+1)
			continue
		}
		w.buf.WriteByte('[')
		for i, blk := range blocks {
			if i > 0 {
				w.buf.WriteByte(',')
			}
			w.indent(depth + 2)
			w.block(blk, 0, depth+2)
		}
		w.indent(depth + 1)
		w.buf.WriteByte(']')
	}
	if !first {
		w.indent(depth)
	}
	w.buf.WriteByte('}')
}

// block writes the labels of blk from the label-th on as nested objects,
// then its body.
func (w *jsonWriter) block(blk *hclsyntax.Block, label, depth int) {
	if label == len(blk.Labels) {
		w.body(blk.Body, depth)
		return
	}
	w.buf.WriteString("{ ")
	w.str(blk.Labels[label])
	w.buf.WriteString(": ")
	w.block(blk, label+1, depth)
	w.buf.WriteString(" }")
}

func (w *jsonWriter) expr(e hclsyntax.Expression, depth int) {
	switch e := e.(type) {
	case *hclsyntax.LiteralValueExpr:
		v := e.Val
		switch {
		case v.IsNull():
			w.buf.WriteString("null")
		case v.Type().FriendlyName() == "number":
			w.buf.WriteString(v.AsBigFloat().Text('f', -1))
		case v.Type().FriendlyName() == "bool":
			fmt.Fprint(w.buf, v.True())
		default:
			w.str(escapeTemplate(v.AsString()))
		}
	case *hclsyntax.TemplateExpr:
		var b strings.Builder
		for _, part := range e.Parts {
			if lit, ok := part.(*hclsyntax.LiteralValueExpr); ok && lit.Val.Type().FriendlyName() == "string" {
				b.WriteString(escapeTemplate(lit.Val.AsString()))
				continue
			}
			b.WriteString("${" + string(part.Range().SliceBytes(w.src)) + "}")
		}
		w.str(b.String())
	case *hclsyntax.TemplateWrapExpr:
		w.str("${" + string(e.Wrapped.Range().SliceBytes(w.src)) + "}")
	case *hclsyntax.TupleConsExpr:
		w.buf.WriteByte('[')
		for i, x := range e.Exprs {
			if i > 0 {
				w.buf.WriteString(", ")
			}
			w.expr(x, depth)
		}
		w.buf.WriteByte(']')
	case *hclsyntax.ObjectConsExpr:
		w.buf.WriteByte('{')
		for i, item := range e.Items {
			if i > 0 {
				w.buf.WriteByte(',')
			}
			w.indent(depth + 1)
			key := string(item.KeyExpr.Range().SliceBytes(w.src))
			if k, ok := item.KeyExpr.(*hclsyntax.ObjectConsKeyExpr); ok {
				if name := hcl.ExprAsKeyword(k.Wrapped); name != "" {
					key = name
				} else if t, ok := k.Wrapped.(*hclsyntax.TemplateExpr); ok && t.IsStringLiteral() {
					v, _ := t.Value(nil)
					key = v.AsString()
				}
			}
			w.str(key)
			w.buf.WriteString(": ")
			w.expr(item.ValueExpr, depth+1)
		}
		if len(e.Items) > 0 {
			w.indent(depth)
		}
		w.buf.WriteByte('}')
	default:
		w.str("${" + string(e.Range().SliceBytes(w.src)) + "}")
	}
}

// escapeTemplate writes literal text so that the JSON syntax, which reads
// every string as a template, reads it back unchanged.
func escapeTemplate(s string) string {
	return strings.NewReplacer("${", "$${", "%{", "%%{").Replace(s)
}

func sortByStart(attrs []*hclsyntax.Attribute) {
	for i := 1; i < len(attrs); i++ {
		for j := i; j > 0 && attrs[j].SrcRange.Start.Byte < attrs[j-1].SrcRange.Start.Byte; j-- {
			attrs[j], attrs[j-1] = attrs[j-1], attrs[j]
		}
	}
}
