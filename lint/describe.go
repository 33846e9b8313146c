package lint

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/internal/english"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// The fewest words a description needs. A tool's description must say
// what it does and when to use it, which takes a short sentence; an
// argument's may lean on its name and type, so two words ("ISBN-13,
// digits.", "Earliest date.") do.
const (
	minItemWords = 4
	minArgWords  = 2
)

// described is one thing a model reads a description of: an item (kind
// and name) or one of its arguments (arg set).
type described struct {
	kind, name, arg string
	nameRange       hcl.Range
	attr            *hcl.Attribute // nil when there is no description
	text            string         // the description's value
	owners          []*lang.Lint
}

// what names it for messages: `tool "search"`, `the argument "q" of tool
// "search"`.
func (d *described) what() string {
	item := fmt.Sprintf("%s %q", d.kind, d.name)
	if d.arg == "" {
		return item
	}
	return fmt.Sprintf("the argument %q of %s", d.arg, item)
}

func (d *described) minWords() int {
	if d.arg != "" {
		return minArgWords
	}
	return minItemWords
}

func (c *checker) checkDescription(d *described) {
	if d.attr == nil || strings.TrimSpace(d.text) == "" {
		c.report(CodeMissingDescription, d.owners, d.nameRange,
			"%s has no description. Add description = \"...\" saying %s.", capitalize(d.what()), whatToSay(d))
		return
	}
	if n := countWords(d.text); n < d.minWords() {
		c.report(CodeShortDescription, d.owners, d.attr.Expr.Range(),
			"The description of %s has %s; write at least %d, saying %s.", d.what(), english.Count(n, "word"), d.minWords(), whatToSay(d))
	}
}

func whatToSay(d *described) string {
	if d.arg != "" {
		return "what value the model should give"
	}
	return "what it does and when a model should use it"
}

func (c *checker) checkDescriptions() {
	for _, t := range c.cfg.Tools {
		if dt := c.items.tools[keyOf(t.DeclRange)]; dt != nil {
			c.checkDescription(&described{"tool", t.Name, "", t.NameRange, t.Description, dt.Description, t.Lint})
			if t.InputSchema == nil {
				c.checkArgDescriptions("tool", t.Name, t.Args, dt.Args, t.Lint)
			}
		}
	}
	for _, r := range c.cfg.Resources {
		if dr := c.items.resources[keyOf(r.DeclRange)]; dr != nil {
			c.checkDescription(&described{"resource", r.Name, "", r.NameRange, r.Description, dr.Description, r.Lint})
		}
	}
	for _, t := range c.cfg.Templates {
		if dt := c.items.templates[keyOf(t.DeclRange)]; dt != nil {
			c.checkDescription(&described{"resource template", t.Name, "", t.NameRange, t.Description, dt.Description, t.Lint})
			c.checkArgDescriptions("resource template", t.Name, t.Args, dt.Args, t.Lint)
		}
	}
	for _, p := range c.cfg.Prompts {
		if dp := c.items.prompts[keyOf(p.DeclRange)]; dp != nil {
			c.checkDescription(&described{"prompt", p.Name, "", p.NameRange, p.Description, dp.Description, p.Lint})
			c.checkArgDescriptions("prompt", p.Name, p.Args, dp.Args, p.Lint)
		}
	}
}

func (c *checker) checkArgDescriptions(kind, name string, args []*lang.Arg, compiled *table.Args, owners []*lang.Lint) {
	for _, a := range args {
		description, decoded := a.Described()
		if !decoded {
			continue
		}
		text := ""
		if da := compiledArg(compiled, a.Name); da != nil {
			text = da.Description
		}
		c.checkDescription(&described{kind, name, a.Name, a.NameRange, description, text, owners})
	}
}

func compiledArg(args *table.Args, name string) *table.Arg {
	if args == nil {
		return nil
	}
	for _, a := range args.List {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// countWords counts runs of letters and digits: "ISBN-13, digits only." is
// four words.
func countWords(s string) int {
	n, in := 0, false
	for _, r := range s {
		word := unicode.IsLetter(r) || unicode.IsDigit(r)
		if word && !in {
			n++
		}
		in = word
	}
	return n
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
