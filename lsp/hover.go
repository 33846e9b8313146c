package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
	"github.com/mcpdecl/mcpdecl/langref"
)

type textDocumentPosition struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Position     Position               `json:"position"`
}

type hoverResult struct {
	Contents markupContent `json:"contents"`
	Range    *Range        `json:"range,omitempty"`
}

type markupContent struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

// hover answers with the reference text of the block or attribute under
// the cursor (docs/language.md, through langref), or the type and
// description of the argument an args.NAME names, the call a steps.NAME
// makes, or the signature of a function called, in HCL or in an
// expr-lang or {{ }} string.
func (s *Server) hover(_ context.Context, params json.RawMessage) (any, error) {
	p, doc, err := openFor[textDocumentPosition](s, params)
	if err != nil {
		return nil, err
	}
	offset := doc.text.offset(p.Position)
	if isJSONSyntax(doc.path) {
		return jsonHover(doc, offset), nil
	}
	body := parse(doc)
	if body == nil {
		return nil, nil
	}
	blocks := enclosing(body, offset)
	if h := argHover(doc, blocks, offset); h != nil {
		return h, nil
	}
	if h := stepHover(doc, blocks, offset); h != nil {
		return h, nil
	}
	if h := functionHover(doc, offset, func(at int) (string, bool) {
		return doc.text.src[strings.LastIndexByte(doc.text.src[:at], '\n')+1 : at], true
	}); h != nil {
		return h, nil
	}
	return referenceHover(doc.text, body, blocks, offset), nil
}

// argReference is args.NAME around the cursor.
var argReference = lazyregexp.New(`args\.([A-Za-z_][A-Za-z0-9_]*)`)

func argHover(doc *document, blocks []*hclsyntax.Block, offset int) *hoverResult {
	start, end := wordAround(doc.text.src, offset)
	m := argReference.FindStringSubmatchIndex(doc.text.src[start:end])
	if m == nil {
		return nil
	}
	name := doc.text.src[start+m[2] : start+m[3]]
	for _, a := range argsOf(blocks, doc.text.src) {
		if a.name != name {
			continue
		}
		md := fmt.Sprintf("**args.%s**", a.name)
		if a.typ != "" {
			md += fmt.Sprintf(" `%s`", a.typ)
		}
		if a.description != "" {
			md += "\n\n" + a.description
		}
		r := Range{Start: doc.text.position(start + m[0]), End: doc.text.position(start + m[1])}
		return &hoverResult{Contents: markupContent{Kind: "markdown", Value: md}, Range: &r}
	}
	return nil
}

// wordAround is the run of name characters and dots around offset.
func wordAround(src string, offset int) (int, int) {
	isWord := func(c byte) bool {
		return c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	start, end := offset, offset
	for start > 0 && isWord(src[start-1]) {
		start--
	}
	for end < len(src) && isWord(src[end]) {
		end++
	}
	return start, end
}

// referenceHover is langref's text of the attribute whose name, or the
// block whose header, is under the cursor.
func referenceHover(t *text, body *hclsyntax.Body, blocks []*hclsyntax.Block, offset int) *hoverResult {
	inner := body
	if len(blocks) > 0 {
		inner = blocks[len(blocks)-1].Body
	}
	_, path, _ := schemaAt(blocks)
	if len(blocks) == 0 || path != nil {
		for name, attr := range inner.Attributes {
			if contains(attr.NameRange, offset) {
				if e, ok := langref.Attribute(path, name); ok {
					return entryHover(e, t.rangeOf(attr.NameRange))
				}
			}
		}
	}
	for _, b := range inner.Blocks {
		if !contains(b.DefRange(), offset) {
			continue
		}
		_, path, _ := schemaAt(append(blocks[:len(blocks):len(blocks)], b))
		if e, ok := langref.Block(path); ok {
			return entryHover(e, t.rangeOf(b.DefRange()))
		}
	}
	return nil
}

func entryHover(e langref.Entry, r Range) *hoverResult {
	md := "**" + e.Title + "**\n\n" + strings.TrimSpace(e.Markdown)
	if e.Anchor != "" {
		md += "\n\n[Reference](" + lintDocs[:strings.LastIndex(lintDocs, "/docs/")] + "/" + e.Anchor + ")"
	}
	return &hoverResult{Contents: markupContent{Kind: "markdown", Value: md}, Range: &r}
}
