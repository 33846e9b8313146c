package lint

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/lang"
)

// maxNameLen is the longest name that reads well: clients list a tool as
// its server's name plus the tool's (mcp__orders__count_orders) and many
// cap that at 64 characters.
const maxNameLen = 40

// genericWords name no particular action or thing: a tool called "run"
// or "query" says nothing a model can choose it by.
var genericWords = map[string]bool{
	"do": true, "run": true, "exec": true, "execute": true, "call": true, "invoke": true,
	"handle": true, "process": true, "tool": true, "action": true, "function": true, "func": true,
	"helper": true, "misc": true, "thing": true, "stuff": true, "data": true, "info": true,
	"query": true, "api": true, "main": true, "test": true, "foo": true, "bar": true,
}

// unclearAbbrevs are parts of names that models (and people) read more
// than one way: res is result, resource or response; val is value or
// valid; proc is process or procedure.
var unclearAbbrevs = map[string]string{
	"tmp": "temporary", "misc": "what it is", "mgr": "manager", "proc": "process or procedure",
	"obj": "object", "val": "value", "res": "result, resource or response", "req": "request or required",
	"cnt": "count", "fn": "function", "cb": "callback", "util": "what it does", "utils": "what it does",
	"svc": "service", "impl": "what it implements", "tbl": "table", "usr": "user",
}

// named is one name a model reads.
type named struct {
	kind   string // "tool", "prompt", "argument"
	name   string
	at     hcl.Range
	owners []*lang.Lint
}

func (c *checker) checkNames() {
	// Sized once: a big configuration has tens of thousands of arguments,
	// and growing the list by appending copied it a dozen times.
	nargs := 0
	for _, t := range c.cfg.Tools {
		nargs += len(t.Args)
	}
	for _, p := range c.cfg.Prompts {
		nargs += len(p.Args)
	}
	for _, t := range c.cfg.Templates {
		nargs += len(t.Args)
	}
	items := make([]named, 0, len(c.cfg.Tools)+len(c.cfg.Prompts))
	args := make([]named, 0, nargs)
	for _, t := range c.cfg.Tools {
		items = append(items, named{"tool", t.Name, t.NameRange, t.Lint})
		args = appendArgNames(args, t.Args, t.Lint)
	}
	for _, p := range c.cfg.Prompts {
		items = append(items, named{"prompt", p.Name, p.NameRange, p.Lint})
		args = appendArgNames(args, p.Args, p.Lint)
	}
	for _, t := range c.cfg.Templates {
		args = appendArgNames(args, t.Args, t.Lint)
	}
	for _, n := range items {
		c.checkName(n)
	}
	for _, n := range args {
		c.checkName(n)
	}
	c.checkStyles(items, "tool and prompt names")
	c.checkStyles(args, "argument names")
	c.checkConfusable(items)
	c.checkConfusableArgs()
}

func appendArgNames(out []named, args []*lang.Arg, owners []*lang.Lint) []named {
	for _, a := range args {
		out = append(out, named{"argument", a.Name, a.NameRange, owners})
	}
	return out
}

func (c *checker) checkName(n named) {
	if len(n.name) > maxNameLen {
		c.report(CodeLongName, n.owners, n.at,
			"The %s name %q is %d characters long; keep names to %d or fewer, as clients add the server's name before it and many cap the whole at 64.",
			n.kind, n.name, len(n.name), maxNameLen)
	}
	if why := unclear(n.name, n.kind != "argument"); why != "" {
		c.report(CodeUnclearName, n.owners, n.at, "The %s name %q %s", n.kind, n.name, why)
	}
}

// unclear says what is wrong with a name that reads badly, or "". Generic
// words are judged only in names of tools and prompts (an argument called
// query or data is fine: its tool says of what).
func unclear(name string, generic bool) string {
	words := splitName(name)
	if len(words) == 0 {
		return ""
	}
	stem := strings.TrimRightFunc(strings.Join(words, ""), unicode.IsDigit)
	numbered := stem != strings.Join(words, "")
	switch {
	case !generic:
	case genericWords[stem] && numbered:
		return fmt.Sprintf("is a generic word and a number; say what it does instead, e.g. %s.", example(stem))
	case genericWords[stem]:
		return fmt.Sprintf("says nothing about what it does; name the action and its object, e.g. %s.", example(stem))
	case isNumber(words[len(words)-1]) && len(words) > 1:
		return "ends in a number, which tells a model nothing; say how it differs from the others."
	}
	for _, w := range words {
		if meaning, ok := unclearAbbrevs[w]; ok {
			return fmt.Sprintf("abbreviates %q, which a model may misread; write %s out.", w, meaning)
		}
	}
	return ""
}

func example(stem string) string {
	if stem == "query" || stem == "data" || stem == "info" {
		return "search_orders or get_customer"
	}
	return "send_invoice or list_orders"
}

func isNumber(w string) bool {
	return w != "" && strings.TrimFunc(w, unicode.IsDigit) == ""
}

// splitName splits a name into lower-case words at separators (_ - . and
// space) and at case changes (getUser → get, user).
func splitName(name string) []string {
	words := make([]string, 0, 4)
	start := 0
	var prev rune
	for i, r := range name {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ' || r == '/':
			words = appendWord(words, name[start:i])
			start = i + 1
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			words = appendWord(words, name[start:i])
			start = i
		}
		prev = r
	}
	return appendWord(words, name[start:])
}

func appendWord(words []string, w string) []string {
	if w == "" {
		return words
	}
	return append(words, strings.ToLower(w))
}

// style is how a name joins its words.
func style(name string) string {
	hasUpper := strings.ContainsFunc(name, unicode.IsUpper)
	switch {
	case strings.Contains(name, "_") && !hasUpper:
		return "snake_case"
	case strings.Contains(name, "-") && !hasUpper:
		return "kebab-case"
	case strings.ContainsAny(name, "_-"):
		return "mixed"
	case hasUpper && unicode.IsUpper([]rune(name)[0]):
		return "PascalCase"
	case hasUpper:
		return "camelCase"
	}
	return "" // one lower-case word fits every style
}

// checkStyles reports the names whose style is not the one most names of
// the set use (the first seen wins a tie).
func (c *checker) checkStyles(names []named, set string) {
	counts := map[string]int{}
	var order []string
	for _, n := range names {
		s := style(n.name)
		if s == "" {
			continue
		}
		if counts[s] == 0 {
			order = append(order, s)
		}
		counts[s]++
	}
	if len(order) < 2 {
		return
	}
	major := order[0]
	for _, s := range order {
		if counts[s] > counts[major] {
			major = s
		}
	}
	for _, n := range names {
		if s := style(n.name); s != "" && s != major {
			c.report(CodeMixedNameStyle, n.owners, n.at,
				"The %s name %q is %s, but most %s in this configuration are %s (%d of %d); write it as %q.",
				n.kind, n.name, describeStyle(s), set, major, counts[major], styledCount(counts), restyle(n.name, major))
		}
	}
}

func describeStyle(s string) string {
	if s == "mixed" {
		return "a mix of styles"
	}
	return s
}

func styledCount(counts map[string]int) int {
	n := 0
	for _, v := range counts {
		n += v
	}
	return n
}

// restyle writes name's words in style s.
func restyle(name, s string) string {
	words := splitName(name)
	switch s {
	case "kebab-case":
		return strings.Join(words, "-")
	case "camelCase", "PascalCase":
		for i, w := range words {
			if i > 0 || s == "PascalCase" {
				words[i] = strings.ToUpper(w[:1]) + w[1:]
			}
		}
		return strings.Join(words, "")
	}
	return strings.Join(words, "_")
}

// foldName is a name without case and separators: names with the same
// fold differ only in how they are written.
func foldName(name string) string {
	return strings.ToLower(separators.Replace(name))
}

var separators = strings.NewReplacer("_", "", "-", "", ".", "")

// checkConfusable reports each name whose fold equals an earlier name's.
func (c *checker) checkConfusable(names []named) {
	seen := map[string]named{}
	for _, n := range names {
		f := foldName(n.name)
		if prev, ok := seen[f]; ok && prev.name != n.name {
			c.report(CodeConfusableNames, n.owners, n.at,
				"The %s name %q differs from the %s %q (%s) only by case or separators; a model mixes them up. Rename one to say how they differ.",
				n.kind, n.name, prev.kind, prev.name, prev.at)
			continue
		}
		seen[f] = n
	}
}

// checkConfusableArgs compares the arguments of each block among
// themselves.
func (c *checker) checkConfusableArgs() {
	for _, t := range c.cfg.Tools {
		c.checkConfusable(argNames(t.Args, t.Lint))
	}
	for _, t := range c.cfg.Templates {
		c.checkConfusable(argNames(t.Args, t.Lint))
	}
	for _, p := range c.cfg.Prompts {
		c.checkConfusable(argNames(p.Args, p.Lint))
	}
}

func argNames(args []*lang.Arg, owners []*lang.Lint) []named {
	return appendArgNames(make([]named, 0, len(args)), args, owners)
}
