package lint

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/internal/english"
	"github.com/mcpdecl/mcpdecl/lang"
)

// The fewest words a description needs. A tool's description must say
// what it does and when to use it, which takes a short sentence; an
// argument's may lean on its name and type, so two words ("ISBN-13,
// digits.", "Earliest date.") do.
const (
	minItemWords = 4
	minArgWords  = 2
)

// described is one thing a model reads a description of.
type described struct {
	what      func() string // `tool "search"`, for messages; built only for a finding
	nameRange hcl.Range
	attr      *hcl.Attribute // nil when there is no description
	text      string         // the description's value
	minWords  int
	owners    []*lang.Lint
}

func (c *checker) checkDescriptions() {
	for _, d := range c.describedItems() {
		c.checkDescription(d)
	}
}

func (c *checker) checkDescription(d described) {
	if d.attr == nil || strings.TrimSpace(d.text) == "" {
		c.report(CodeMissingDescription, d.owners, d.nameRange,
			"%s has no description. Add description = \"...\" saying %s.", capitalize(d.what()), whatToSay(d.minWords))
		return
	}
	if n := countWords(d.text); n < d.minWords {
		c.report(CodeShortDescription, d.owners, d.attr.Expr.Range(),
			"The description of %s has %s; write at least %d, saying %s.", d.what(), english.Count(n, "word"), d.minWords, whatToSay(d.minWords))
	}
}

func whatToSay(minWords int) string {
	if minWords == minArgWords {
		return "what value the model should give"
	}
	return "what it does and when a model should use it"
}

func (c *checker) describedItems() []described {
	var out []described
	for _, t := range c.cfg.Tools {
		dt := c.items.tools[keyOf(t.DeclRange)]
		if dt == nil {
			continue
		}
		what := itemName("tool", t.Name)
		out = append(out, described{what, t.NameRange, t.Description, dt.Description, minItemWords, t.Lint})
		if t.InputSchema == nil {
			out = append(out, describedArgs(t.Args, dt.Args, what, t.Lint)...)
		}
	}
	for _, r := range c.cfg.Resources {
		if dr := c.items.resources[keyOf(r.DeclRange)]; dr != nil {
			out = append(out, described{itemName("resource", r.Name), r.NameRange, r.Description, dr.Description, minItemWords, r.Lint})
		}
	}
	for _, t := range c.cfg.Templates {
		if dt := c.items.templates[keyOf(t.DeclRange)]; dt != nil {
			what := itemName("resource template", t.Name)
			out = append(out, described{what, t.NameRange, t.Description, dt.Description, minItemWords, t.Lint})
			out = append(out, describedArgs(t.Args, dt.Args, what, t.Lint)...)
		}
	}
	for _, p := range c.cfg.Prompts {
		if dp := c.items.prompts[keyOf(p.DeclRange)]; dp != nil {
			what := itemName("prompt", p.Name)
			out = append(out, described{what, p.NameRange, p.Description, dp.Description, minItemWords, p.Lint})
			out = append(out, describedArgs(p.Args, dp.Args, what, p.Lint)...)
		}
	}
	return out
}

// itemName names an item for messages, when one is written.
func itemName(kind, name string) func() string {
	return func() string { return fmt.Sprintf("%s %q", kind, name) }
}

func describedArgs(args []*lang.Arg, compiled *dispatch.Args, owner func() string, owners []*lang.Lint) []described {
	var out []described
	for _, a := range args {
		if a.Spec == nil {
			continue
		}
		text := ""
		if da := compiledArg(compiled, a.Name); da != nil {
			text = da.Description
		}
		what := func() string { return fmt.Sprintf("the argument %q of %s", a.Name, owner()) }
		out = append(out, described{what, a.NameRange, a.Spec.Description, text, minArgWords, owners})
	}
	return out
}

func compiledArg(args *dispatch.Args, name string) *dispatch.Arg {
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
