package langindex

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// test indexes a test block: the tool or prompt it calls (call =
// tool.x), whose arguments and questions the keys of its args and
// answers objects are, the scopes and claims of its caller's token, and
// the backends its mock and sqlite blocks stand in for.
func (c *collector) test(n *node) {
	c.declare(nil, KindTest, "", n.labelAt(0), n.rng)
	scope := ""
	if a := n.attr("call"); a != nil {
		scope = c.callTarget(a.expr)
	}
	if a := n.attr("args"); a != nil && scope != "" {
		c.keys(a.expr, KindArgument, scope)
	}
	if a := n.attr("answers"); a != nil && scope != "" {
		c.keys(a.expr, KindQuestion, scope)
	}
	if a := n.attr("auth"); a != nil {
		c.testAuth(a.expr)
	}
	c.uriUse(n.attr("resource"))
	for _, b := range n.blocks {
		if (b.typ == "mock" || b.typ == "sqlite") && len(b.labels) > 0 {
			c.use(KindBackend, "", b.labels[0].name, b.labels[0].rng, false)
		}
	}
}

// callTargets are the roots of a test's call, and what they name.
var callTargets = map[string]Kind{"tool": KindTool, "prompt": KindPrompt}

// callTarget records the use in call = tool.x (or prompt.x; in JSON
// the string "tool.x") and returns the scope of its arguments.
func (c *collector) callTarget(expr hcl.Expression) string {
	var t hcl.Traversal
	var lit *literal
	if !c.json {
		if vars := expr.Variables(); len(vars) > 0 {
			t = vars[0]
		}
	} else if lits := c.literals(expr, true); len(lits) == 1 && !lits[0].interpolated {
		lit = lits[0]
		t, _ = hclsyntax.ParseTraversalAbs([]byte(lit.text), c.name, hcl.Pos{Line: 1, Column: 1})
	}
	kind, ok := callTargets[t.RootName()]
	if !ok || len(t) != 2 {
		return ""
	}
	step, ok := t[1].(hcl.TraverseAttr)
	if !ok {
		return ""
	}
	end := step.SrcRange.End.Byte
	from, to := end-len(step.Name), end
	if lit != nil {
		from, to = lit.span(from, to)
	}
	c.use(kind, "", step.Name, c.lines.rng(c.name, from, to), true)
	return string(kind) + "." + step.Name
}

// testAuth records the scopes and claims of a test's caller token,
// auth = { scopes = [...], claims = { name = ... } }.
func (c *collector) testAuth(expr hcl.Expression) {
	for name, value := range c.pairs(expr) {
		switch name {
		case "scopes":
			c.literalUse(KindScope, "", &attr{expr: value})
		case "claims":
			c.keys(value, KindClaim, "")
		}
	}
}

// keys records the keys of an object as uses of names of kind: a test's
// args = { ... } (the called tool's arguments), a token's claims.
func (c *collector) keys(expr hcl.Expression, kind Kind, scope string) {
	pairs, diags := hcl.ExprMap(expr)
	if diags.HasErrors() {
		return
	}
	for _, p := range pairs {
		if name, rng, ok := c.keyName(p.Key); ok {
			c.use(kind, scope, name, rng, false)
		}
	}
}

// pairs returns an object's values by key.
func (c *collector) pairs(expr hcl.Expression) map[string]hcl.Expression {
	pairs, diags := hcl.ExprMap(expr)
	if diags.HasErrors() {
		return nil
	}
	out := map[string]hcl.Expression{}
	for _, p := range pairs {
		if name, _, ok := c.keyName(p.Key); ok {
			out[name] = p.Value
		}
	}
	return out
}

// keyName reads an object key written as a name or a plain string, and
// the range of the name alone.
func (c *collector) keyName(key hcl.Expression) (string, hcl.Range, bool) {
	src := c.lines.src
	r := key.Range()
	if r.End.Byte > len(src) || r.Start.Byte >= r.End.Byte {
		return "", r, false
	}
	if lit, ok := decodeString(src, r.Start.Byte, r.End.Byte, true); ok {
		if lit.interpolated {
			return "", r, false
		}
		from, to := lit.span(0, len(lit.text))
		return lit.text, c.lines.rng(c.name, from, to), true
	}
	name := string(src[r.Start.Byte:r.End.Byte])
	return name, r, hclsyntax.ValidIdentifier(name)
}
