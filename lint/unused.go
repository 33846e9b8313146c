package lint

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/lang"
)

func (c *checker) checkUnused() {
	c.checkUnusedValues()
	c.checkBackends(actionsByBackend(c.table))
	c.checkUnusedArgs()
}

// checkUnusedValues reports variables and locals nothing refers to. In
// native syntax every reference in every file counts (Load recorded them);
// a file in JSON syntax, whose expressions are strings until decoded,
// counts any text "var.<name>" or "local.<name>" in it, so that nothing is
// reported wrongly.
func (c *checker) checkUnusedValues() {
	if len(c.cfg.Variables) == 0 && len(c.cfg.Locals) == 0 {
		return
	}
	vars, locals := c.cfg.VarRefs, c.cfg.LocalRefs
	if vars == nil {
		vars, locals = lang.NewRefs(), lang.NewRefs()
	}
	var jsonText [][]byte
	for name, f := range c.cfg.Files {
		if strings.HasSuffix(name, ".json") {
			jsonText = append(jsonText, f.Bytes)
		}
	}
	inJSON := func(ref string) bool {
		return slices.ContainsFunc(jsonText, func(b []byte) bool { return bytes.Contains(b, []byte(ref)) })
	}
	for _, v := range c.cfg.Variables {
		if !vars.Has(v.Name) && !inJSON("var."+v.Name) {
			c.report(CodeUnusedVariable, nil, v.NameRange,
				"Nothing refers to the variable %q. Use it as var.%s, or remove it.", v.Name, v.Name)
		}
	}
	for _, l := range c.cfg.Locals {
		if !locals.Has(l.Name) && !inJSON("local."+l.Name) {
			c.report(CodeUnusedLocal, nil, l.NameRange,
				"Nothing refers to the local value %q. Use it as local.%s, or remove it.", l.Name, l.Name)
		}
	}
}

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
		for _, a := range u.args {
			if !u.uses.Has(a.Name) {
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
		if dt == nil || len(t.Args) == 0 || t.ArgRefs == nil {
			continue // JSON syntax: references cannot all be found
		}
		u := usesFrom(t.ArgRefs)
		u.addAnswer(&dt.Answer)
		u.addSteps(dt.Steps)
		out = append(out, argUser{fmt.Sprintf("tool %q", t.Name), t.Args, t.DeclRange, t.Lint, u})
	}
	for _, t := range c.cfg.Templates {
		dt := c.items.templates[keyOf(t.DeclRange)]
		if dt == nil || len(t.Args) == 0 || t.ArgRefs == nil {
			continue
		}
		u := usesFrom(t.ArgRefs)
		u.addAnswer(&dt.Answer)
		u.addSteps(dt.Steps)
		for _, v := range dt.Variables {
			u.Add(v) // matched in the URI, so never idle
		}
		out = append(out, argUser{fmt.Sprintf("resource template %q", t.Name), t.Args, t.DeclRange, t.Lint, u})
	}
	for _, p := range c.cfg.Prompts {
		dp := c.items.prompts[keyOf(p.DeclRange)]
		if dp == nil || len(p.Args) == 0 || p.ArgRefs == nil {
			continue
		}
		u := usesFrom(p.ArgRefs)
		u.addSteps(dp.Steps)
		out = append(out, argUser{fmt.Sprintf("prompt %q", p.Name), p.Args, p.DeclRange, p.Lint, u})
	}
	return out
}
