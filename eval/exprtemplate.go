package eval

import (
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
)

// Template is a message written as text with {{ ... }} pieces, each an
// expr-lang program.
type Template struct {
	Parts []TemplatePart
	Range hcl.Range
}

// TemplatePart is literal text or one compiled {{ ... }} piece.
type TemplatePart struct {
	Text    string
	Program *Program
}

// IsTemplate reports whether s holds {{ ... }} pieces.
func IsTemplate(s string) bool { return strings.Contains(s, "{{") }

// CompileTemplate compiles the message held by the HCL string attr; each
// {{ ... }} piece is compiled against env and errors point inside it.
func CompileTemplate(attr *hcl.Attribute, env reflect.Type, files map[string]*hcl.File) (*Template, hcl.Diagnostics) {
	text, diags := literalString(attr, "a message template")
	if diags.HasErrors() {
		return nil, diags
	}
	src := newExprSource(text, attr.Expr.Range(), files)
	t := &Template{Range: attr.Expr.Range()}
	rest, consumed := text, 0 // consumed counts runes already handled
	for rest != "" {
		open := strings.Index(rest, "{{")
		if open < 0 {
			t.Parts = append(t.Parts, TemplatePart{Text: rest})
			break
		}
		if open > 0 {
			t.Parts = append(t.Parts, TemplatePart{Text: rest[:open]})
		}
		consumed += utf8.RuneCountInString(rest[:open]) + 2
		rest = rest[open+2:]
		end := strings.Index(rest, "}}")
		if inner := strings.Index(rest, "{{"); inner >= 0 && (end < 0 || inner < end) {
			// A piece opened inside a piece: the first {{ lacks its }}.
			end = -1
		}
		if end < 0 {
			r := hcl.Range{Filename: t.Range.Filename, Start: src.pos(consumed-2, t.Range.Start), End: src.pos(consumed, t.Range.End)}
			return nil, append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unclosed template piece",
				Detail:   "This {{ has no matching }}. Close the expression, as in {{ body.title }}.",
				Subject:  &r,
			})
		}
		prog, d := compileText(rest[:end], consumed, src, attr, env, false)
		diags = append(diags, d...)
		t.Parts = append(t.Parts, TemplatePart{Program: prog})
		consumed += utf8.RuneCountInString(rest[:end]) + 2
		rest = rest[end+2:]
	}
	return t, diags
}
