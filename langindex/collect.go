package langindex

import (
	"github.com/hashicorp/hcl/v2"
)

// collector walks the blocks of one file and records what they declare
// and use.
type collector struct {
	name  string
	lines *lines
	json  bool
	fi    *fileIndex
}

// owners are the blocks that have arguments and steps.
var owners = map[string]Kind{
	"tool":              KindTool,
	"resource":          KindResource,
	"resource_template": KindResourceTemplate,
	"prompt":            KindPrompt,
}

// named are the other top-level blocks whose (last) label is a name.
var named = map[string]Kind{
	"variable": KindVariable,
	"backend":  KindBackend,
	"app":      KindApp,
	"toolset":  KindToolset,
	"limit":    KindLimit,
	"test":     KindTest,
}

func (c *collector) topLevel(n *node) {
	if kind, ok := owners[n.typ]; ok {
		c.owner(n, kind)
		return
	}
	switch n.typ {
	case "locals":
		c.locals(n)
		return
	case "server":
		c.block(KindServer, n)
	case "auth":
		c.auth(n)
	case "test":
		c.test(n)
		return
	}
	if kind, ok := named[n.typ]; ok && len(n.labels) > 0 {
		c.declare(nil, kind, "", n.labels[len(n.labels)-1], n.rng)
	}
	if n.typ == "toolset" || n.typ == "limit" {
		c.toolList(n.attr("tools"))
	}
	c.body(n, "")
}

// declare records a symbol, in the outline under parent (at the top when
// parent is nil).
func (c *collector) declare(parent *Symbol, kind Kind, owner string, l label, rng hcl.Range) *Symbol {
	s := &Symbol{Kind: kind, Name: l.name, Owner: owner, NameRange: l.rng, Range: rng}
	if l.rng.Filename == "" {
		s.NameRange = rng
	}
	if parent == nil {
		c.fi.outline = append(c.fi.outline, s)
	} else {
		parent.Children = append(parent.Children, s)
	}
	c.fi.symbols = append(c.fi.symbols, s)
	return s
}

func (c *collector) use(kind Kind, owner, name string, rng hcl.Range, traversal bool) {
	c.fi.refs = append(c.fi.refs, ref{key: key{kind, owner, name}, rng: rng, traversal: traversal})
}

// block puts a block that declares no name in the outline, named by
// its type.
func (c *collector) block(kind Kind, n *node) *Symbol {
	s := &Symbol{Kind: kind, Name: n.typ, NameRange: n.typeRange, Range: n.rng}
	c.fi.outline = append(c.fi.outline, s)
	return s
}

func (c *collector) locals(n *node) {
	parent := c.block(KindLocals, n)
	for _, a := range n.attrs {
		rng := hcl.RangeBetween(a.nameRange, a.expr.Range())
		c.declare(parent, KindLocal, "", label{a.name, a.nameRange}, rng)
		c.traversals(a.expr, "")
	}
}

// owner indexes a tool, prompt, resource or resource template, whose
// arguments and steps are its own.
func (c *collector) owner(n *node, kind Kind) {
	l := n.labelAt(0)
	sym := c.declare(nil, kind, "", l, n.rng)
	scope := string(kind) + "." + l.name
	for _, b := range n.blocks {
		switch b.typ {
		case "arg":
			if len(b.labels) > 0 {
				c.declare(sym, KindArgument, scope, b.labels[0], b.rng)
			}
		case "step":
			if len(b.labels) > 0 {
				c.declare(sym, KindStep, scope, b.labels[0], b.rng)
			}
		}
	}
	if kind == KindResourceTemplate {
		c.uriTemplate(sym, scope, n.attr("uri_template"))
	}
	if kind == KindResource || kind == KindResourceTemplate {
		c.serves(kind, l.name, n)
	}
	c.questions(sym, scope, n)
	c.body(n, scope)
}

// body indexes the uses in a block's attributes and nested blocks, scope
// being the owner its args and steps belong to.
func (c *collector) body(n *node, scope string) {
	for i := range n.attrs {
		a := &n.attrs[i]
		if mode, ok := exprLangAttr(n.typ, a.name); ok {
			c.exprLang(a, scope, mode)
			continue
		}
		switch {
		case a.name == "scopes" || a.name == "initial_scopes":
			c.literalUse(KindScope, "", a)
		case a.name == "claims" && n.typ == "token":
			c.keys(a.expr, KindClaim, "")
		}
		c.traversals(a.expr, scope)
	}
	for _, b := range n.blocks {
		switch b.typ {
		case "http", "sql", "mcp":
			if len(b.labels) > 0 {
				c.use(KindBackend, "", b.labels[0].name, b.labels[0].rng, false)
			}
		case "shell":
			c.literalUse(KindBackend, "", b.attr("backend"))
		case "ui":
			c.literalUse(KindApp, "", b.attr("app"))
		case "resource":
			// A message's resource with uri alone is read through the
			// server's resources; with text or blob it is inline.
			if b.attr("text") == nil && b.attr("blob") == nil {
				c.uriUse(b.attr("uri"))
			}
		}
		c.body(b, scope)
	}
}

// literalUse records the name a string attribute holds.
func (c *collector) literalUse(kind Kind, owner string, a *attr) {
	if a == nil {
		return
	}
	for _, s := range c.strings(a.expr) {
		c.use(kind, owner, s.text, c.lines.rng(c.name, s.from, s.to), false)
	}
}

// toolList records the tools a toolset or limit names. Patterns name no
// tool in particular, so they are left out.
func (c *collector) toolList(a *attr) {
	if a == nil {
		return
	}
	for _, s := range c.strings(a.expr) {
		if !isPattern(s.text) {
			c.use(KindTool, "", s.text, c.lines.rng(c.name, s.from, s.to), false)
		}
	}
}

func isPattern(s string) bool {
	for _, ch := range s {
		if ch == '*' || ch == '?' || ch == '[' {
			return true
		}
	}
	return false
}
