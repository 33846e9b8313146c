package langindex

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// roots are the traversal roots that name something declared, and what.
var roots = map[string]Kind{
	"var":     KindVariable,
	"local":   KindLocal,
	"args":    KindArgument,
	"steps":   KindStep,
	"answers": KindQuestion,
}

// traversals records the names an HCL expression refers to: var.x,
// local.x, auth.claims.x, and args.x, steps.x and answers.x of scope.
func (c *collector) traversals(expr hcl.Expression, scope string) {
	if !c.json {
		for _, t := range expr.Variables() {
			c.traversal(t, scope, nil)
		}
		return
	}
	// A JSON string is a template whose positions hcl counts in the
	// decoded value; parse it here and map them through the escapes.
	for _, lit := range c.literals(expr, false) {
		if !strings.Contains(lit.text, "${") {
			continue
		}
		tmpl, _ := hclsyntax.ParseTemplate([]byte(lit.text), c.name, hcl.Pos{Line: 1, Column: 1})
		if tmpl == nil {
			continue
		}
		for _, t := range tmpl.Variables() {
			c.traversal(t, scope, lit)
		}
	}
}

// traversal records one traversal's name, its offsets mapped through lit
// when it was read from a decoded string.
func (c *collector) traversal(t hcl.Traversal, scope string, lit *literal) {
	c.claimTraversal(t, lit)
	kind, ok := roots[t.RootName()]
	if !ok || len(t) < 2 {
		return
	}
	step, ok := t[1].(hcl.TraverseAttr)
	if !ok {
		return
	}
	if kind == KindVariable || kind == KindLocal {
		scope = ""
	}
	end := step.SrcRange.End.Byte
	from, to := end-len(step.Name), end
	if lit != nil {
		from, to = lit.span(from, to)
	}
	c.use(kind, scope, step.Name, c.lines.rng(c.name, from, to), false)
}

// plainString is a string literal without interpolation: its value, and
// the file offsets of the value's first byte and of the byte after it.
type plainString struct {
	text     string
	from, to int
}

// strings returns the plain string literals in expr.
func (c *collector) strings(expr hcl.Expression) []plainString {
	var out []plainString
	for _, lit := range c.literals(expr, true) {
		if !lit.interpolated {
			from, to := lit.span(0, len(lit.text))
			out = append(out, plainString{lit.text, from, to})
		}
	}
	return out
}

// literals returns the string literals written in expr, decoded. With
// hclEscapes, $${ is read as the ${ it stands for; without, it is kept,
// for parsing the value as a template.
func (c *collector) literals(expr hcl.Expression, hclEscapes bool) []*literal {
	var out []*literal
	add := func(r hcl.Range) {
		if lit, ok := decodeString(c.lines.src, r.Start.Byte, r.End.Byte, hclEscapes); ok {
			out = append(out, lit)
		}
	}
	if !c.json {
		native, ok := expr.(hclsyntax.Expression)
		if !ok {
			return nil
		}
		hclsyntax.VisitAll(native, func(n hclsyntax.Node) hcl.Diagnostics {
			if t, ok := n.(*hclsyntax.TemplateExpr); ok {
				add(t.SrcRange)
			}
			return nil
		})
		return out
	}
	r := expr.Range()
	src := c.lines.src
	for i := r.Start.Byte; i < r.End.Byte && i < len(src); i++ {
		if src[i] != '"' {
			continue
		}
		j := i + 1
		for j < r.End.Byte && src[j] != '"' {
			if src[j] == '\\' {
				j++
			}
			j++
		}
		add(hcl.Range{Start: hcl.Pos{Byte: i}, End: hcl.Pos{Byte: min(j+1, r.End.Byte)}})
		i = j
	}
	return out
}
