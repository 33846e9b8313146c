package lint

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/mcpdecl/mcpdecl/lang"
)

func (c *checker) checkUnused() {
	c.checkUnusedValues()
	c.checkBackends(actionsByBackend(c.table))
	c.checkUnusedArgs()
}

// checkUnusedValues reports variables and locals nothing refers to. In
// native syntax every reference in every file counts; a file in JSON
// syntax, whose expressions are strings until decoded, counts any text
// "var.<name>" or "local.<name>" in it, so that nothing is reported
// wrongly.
func (c *checker) checkUnusedValues() {
	if len(c.cfg.Variables) == 0 && len(c.cfg.Locals) == 0 {
		return
	}
	vars, locals := newUses(), newUses()
	var jsonText [][]byte
	seen := -1
	for _, f := range c.cfg.Files {
		body, ok := f.Body.(*hclsyntax.Body)
		if !ok {
			jsonText = append(jsonText, f.Bytes)
			continue
		}
		for _, n := range topLevelNodes(body) {
			if c.valuesAllUsed(vars, locals, &seen) {
				break // a big configuration uses its few values early on
			}
			hclsyntax.VisitAll(n, func(n hclsyntax.Node) hcl.Diagnostics {
				if e, ok := n.(*hclsyntax.ScopeTraversalExpr); ok {
					vars.addTraversal(e.Traversal, "var")
					locals.addTraversal(e.Traversal, "local")
				}
				return nil
			})
		}
	}
	inJSON := func(ref string) bool {
		return slices.ContainsFunc(jsonText, func(b []byte) bool { return bytes.Contains(b, []byte(ref)) })
	}
	for _, v := range c.cfg.Variables {
		if !vars.has(v.Name) && !inJSON("var."+v.Name) {
			c.report(CodeUnusedVariable, nil, v.NameRange,
				"Nothing refers to the variable %q. Use it as var.%s, or remove it.", v.Name, v.Name)
		}
	}
	for _, l := range c.cfg.Locals {
		if !locals.has(l.Name) && !inJSON("local."+l.Name) {
			c.report(CodeUnusedLocal, nil, l.NameRange,
				"Nothing refers to the local value %q. Use it as local.%s, or remove it.", l.Name, l.Name)
		}
	}
}

// topLevelNodes are the attributes and blocks of a file's body, which
// together hold every node of the file.
func topLevelNodes(body *hclsyntax.Body) []hclsyntax.Node {
	nodes := make([]hclsyntax.Node, 0, len(body.Attributes)+len(body.Blocks))
	for _, a := range body.Attributes {
		nodes = append(nodes, a)
	}
	for _, b := range body.Blocks {
		nodes = append(nodes, b)
	}
	return nodes
}

// valuesAllUsed reports whether every variable and local value has been
// found used. It looks again only when a new name was found since it last
// looked, so walking a file stays linear in the file.
func (c *checker) valuesAllUsed(vars, locals *uses, seen *int) bool {
	found := len(vars.names) + len(locals.names)
	if found == *seen && !vars.all && !locals.all {
		return false
	}
	*seen = found
	for _, v := range c.cfg.Variables {
		if !vars.has(v.Name) {
			return false
		}
	}
	for _, l := range c.cfg.Locals {
		if !locals.has(l.Name) {
			return false
		}
	}
	return true
}

// notCalls are the blocks of a tool, template or prompt whose references
// to args do not make an argument useful: an argument only checked by
// validations (its own or the block's) still reaches nothing.
var notCalls = []string{"arg", "validation"}

// argUser is one block with arguments and what reads them.
type argUser struct {
	what   string
	args   []*lang.Arg
	decl   hcl.Range
	owners []*lang.Lint
	uses   *uses
}

func (c *checker) checkUnusedArgs() {
	for _, u := range c.argUsers() {
		block := c.syntaxBlock(u.decl)
		if block == nil {
			continue // JSON syntax: references cannot all be found
		}
		for _, child := range block.Body.Blocks {
			if !slices.Contains(notCalls, child.Type) {
				u.uses.addSyntax(child, "args")
			}
		}
		for _, a := range block.Body.Attributes {
			u.uses.addSyntax(a, "args")
		}
		for _, a := range u.args {
			if !u.uses.has(a.Name) {
				c.report(CodeUnusedArg, u.owners, a.NameRange,
					"The argument %q of %s is never read: no call, step, result, error rule, content or message refers to args.%s. Use it, or remove it so the model does not fill it in for nothing.",
					a.Name, u.what, a.Name)
			}
		}
	}
}

// argUsers lists the blocks with argument blocks, each with the
// references its compiled expr-lang programs make.
func (c *checker) argUsers() []argUser {
	var out []argUser
	for _, t := range c.cfg.Tools {
		dt := c.items.tools[keyOf(t.DeclRange)]
		if dt == nil || len(t.Args) == 0 {
			continue
		}
		u := newUses()
		u.addAnswer(&dt.Answer)
		u.addSteps(dt.Steps)
		out = append(out, argUser{fmt.Sprintf("tool %q", t.Name), t.Args, t.DeclRange, t.Lint, u})
	}
	for _, t := range c.cfg.Templates {
		dt := c.items.templates[keyOf(t.DeclRange)]
		if dt == nil || len(t.Args) == 0 {
			continue
		}
		u := newUses()
		u.addAnswer(&dt.Answer)
		u.addSteps(dt.Steps)
		for _, v := range dt.Variables {
			u.names[v] = true // matched in the URI, so never idle
		}
		out = append(out, argUser{fmt.Sprintf("resource template %q", t.Name), t.Args, t.DeclRange, t.Lint, u})
	}
	for _, p := range c.cfg.Prompts {
		dp := c.items.prompts[keyOf(p.DeclRange)]
		if dp == nil || len(p.Args) == 0 {
			continue
		}
		u := newUses()
		u.addSteps(dp.Steps)
		out = append(out, argUser{fmt.Sprintf("prompt %q", p.Name), p.Args, p.DeclRange, p.Lint, u})
	}
	return out
}

// syntaxBlock finds the native-syntax block declared at decl, or nil.
func (c *checker) syntaxBlock(decl hcl.Range) *hclsyntax.Block {
	if c.blocks == nil {
		c.blocks = map[key]*hclsyntax.Block{}
		for _, f := range c.cfg.Files {
			if body, ok := f.Body.(*hclsyntax.Body); ok {
				for _, b := range body.Blocks {
					c.blocks[keyOf(b.DefRange())] = b
				}
			}
		}
	}
	return c.blocks[keyOf(decl)]
}
