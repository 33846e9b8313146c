package lsp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mcpdecl/mcpdecl/adapters/all"
	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// stepReference is steps.NAME around the cursor.
var stepReference = lazyregexp.New(`steps\.([A-Za-z_][A-Za-z0-9_]*)`)

// stepHover tells what a steps.NAME is: the call its step makes, as its
// block reads (backend, method and path, query or command), and the
// fields of its answer.
func stepHover(doc *document, blocks []*hclsyntax.Block, offset int) *hoverResult {
	start, end := wordAround(doc.text.src, offset)
	m := stepReference.FindStringSubmatchIndex(doc.text.src[start:end])
	if m == nil || len(blocks) == 0 {
		return nil
	}
	name := doc.text.src[start+m[2] : start+m[3]]
	for _, b := range blocks[0].Body.Blocks {
		if b.Type != "step" || len(b.Labels) != 1 || b.Labels[0] != name {
			continue
		}
		md := fmt.Sprintf("**steps.%s**", name)
		if call := callOf(b); call != nil {
			md += " " + describeCall(call, doc.text.src)
			if fields := resultFields(call.Type); len(fields) > 0 {
				md += "\n\nAnswer: `" + strings.Join(fields, "`, `") + "`"
			}
		}
		if _, ok := b.Body.Attributes["for_each"]; ok {
			md += "\n\nA list of answers, one per item of `for_each`."
		}
		r := Range{Start: doc.text.position(start + m[0]), End: doc.text.position(start + m[1])}
		return &hoverResult{Contents: markupContent{Kind: "markdown", Value: md}, Range: &r}
	}
	return nil
}

// callOf is the call block of a step (http, sql, shell, mcp).
func callOf(step *hclsyntax.Block) *hclsyntax.Block {
	kinds := all.Registry().Names()
	for _, inner := range step.Body.Blocks {
		if slices.Contains(kinds, inner.Type) {
			return inner
		}
	}
	return nil
}

// callAttributes are the attributes that say what a call does, by kind,
// in the order they are shown.
var callAttributes = []string{"method", "path", "query", "command", "tool"}

// describeCall is a call as one line: `http "catalog"`: GET /books.
func describeCall(call *hclsyntax.Block, src string) string {
	head := call.Type
	for _, l := range call.Labels {
		head += fmt.Sprintf(" %q", l)
	}
	var parts []string
	for _, name := range callAttributes {
		if attr, ok := call.Body.Attributes[name]; ok {
			text := sourceOf(attr.Expr.Range(), src)
			if len(text) > 80 {
				text = text[:77] + "..."
			}
			parts = append(parts, name+" = "+strings.ReplaceAll(text, "\n", " "))
		}
	}
	out := "calls `" + head + "`"
	if len(parts) > 0 {
		out += "\n\n```hcl\n" + strings.Join(parts, "\n") + "\n```"
	}
	return out
}

// functionHover is the signature and description of the function whose
// name is under the cursor, followed by its opening parenthesis:
// expr-lang's in a program string or {{ }} piece, the configuration's
// in HCL. before is the text before an offset on its line, as the native
// syntax has it (ok false: no string or expression holds the offset).
func functionHover(doc *document, offset int, before func(int) (string, bool)) *hoverResult {
	start, end := nameAround(doc.text.src, offset)
	if start == end || !strings.HasPrefix(strings.TrimLeft(doc.text.src[end:], " "), "(") {
		return nil
	}
	name := doc.text.src[start:end]
	line, ok := before(start)
	if !ok {
		return nil
	}
	table, what := configFunctions(), "function"
	switch stringContext(line) {
	case inProgram:
		table, what = programFunctions(), "expr-lang builtin"
	case inText:
		return nil
	}
	f, ok := table[name]
	if !ok {
		return nil
	}
	md := "```\n" + f.signature + "\n```\n\n" + what
	if f.doc != "" {
		md += ": " + f.doc
	}
	r := Range{Start: doc.text.position(start), End: doc.text.position(end)}
	return &hoverResult{Contents: markupContent{Kind: "markdown", Value: md}, Range: &r}
}

// nameAround is the run of name characters (no dots) around offset.
func nameAround(src string, offset int) (int, int) {
	start, end := wordAround(src, offset)
	if dot := strings.LastIndexByte(src[start:offset], '.'); dot >= 0 {
		start += dot + 1
	}
	if dot := strings.IndexByte(src[offset:end], '.'); dot >= 0 {
		end = offset + dot
	}
	return start, end
}
