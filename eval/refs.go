package eval

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/internal/diagcode"
	"github.com/mcpdecl/mcpdecl/internal/english"
	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
	"github.com/mcpdecl/mcpdecl/internal/rule"
)

// Names says which names an expression may refer to.
type Names struct {
	// Args are the argument names; nil means args are not available here
	// (server, backend and variable blocks).
	Args []string
	// ArgsWhere describes whose arguments they are, for messages
	// ("the tool \"search\"").
	ArgsWhere string
	Vars      []string
	Locals    []string
	// NoArgsHint says what to do instead when an expression names an
	// argument and the block declares none; the default advises an arg
	// block.
	NoArgsHint string
	// Extra are further roots (answers, in prompts that ask the client
	// questions), whose names are checked as those of args are.
	Extra []Namespace
}

// Namespace is a further root name and what it holds.
type Namespace struct {
	Root string
	// What names one key, for messages ("question key").
	What string
	// Keys maps each name under Root to the names under it in turn; a
	// nil list leaves those unchecked.
	Keys map[string][]string
	// Hidden maps names that exist but may not be used here (a step that
	// runs later) to the sentence that says why and what to do instead.
	Hidden map[string]string
	// Used, when not nil, records each key a checked reference names, so
	// that the caller learns what an expression depends on.
	Used map[string]bool
	// Unlisted leaves the root out of the list of what expressions may
	// name (it exists only to explain why it cannot be used).
	Unlisted bool
	// Hint, when set, ends the message about an unknown name under a key
	// (how to declare one).
	Hint string
	// Lists names the keys that hold a list of values with the names of
	// Keys (a step with for_each: one answer per item), so a reference
	// picks an item ([0]) before it names one of them.
	Lists map[string]bool
}

// CheckRefs checks every reference in expr against names and reports each
// one that names nothing, with a suggestion when one is close. It also
// checks the literal arguments of function calls (CheckLiteralArgs), so
// that every expression checked before evaluation gets both.
func CheckRefs(expr hcl.Expression, names *Names) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, tr := range Variables(expr) {
		diags = append(diags, checkTraversal(tr, names)...)
	}
	return append(diags, CheckLiteralArgs(expr)...)
}

func checkTraversal(tr hcl.Traversal, n *Names) hcl.Diagnostics {
	root := tr.RootName()
	for _, x := range n.Extra {
		if root == x.Root {
			return checkNamespace(tr, x)
		}
	}
	switch root {
	case "args":
		if n.Args == nil {
			return refDiag(tr, "Arguments not available here",
				"args.* is only available inside tools, resource templates and prompts, where it holds the call's arguments. Use var.<name> or local.<name> here.")
		}
		hint := n.NoArgsHint
		if hint == "" {
			hint = "Declare it with an arg block."
		}
		return checkAttr(tr, n.Args, "argument", n.ArgsWhere, hint)
	case "var":
		return checkAttr(tr, n.Vars, "variable", "this configuration", "Declare it with a variable block.")
	case "local":
		return checkAttr(tr, n.Locals, "local value", "this configuration", "Declare it in a locals block.")
	}
	roots := []string{"var", "local"}
	if n.Args != nil {
		roots = append(roots, "args")
	}
	for _, x := range n.Extra {
		roots = append(roots, x.Root)
	}
	detail := fmt.Sprintf("There is nothing named %q here. Expressions can refer to %s.", root, rootList(n))
	if root == "each" {
		detail += " each is only known in a step with for_each, in its call and its error rules (each.value is the item, each.index its position): add for_each = <a list> to the step, or refer to the list's items there."
		return refDiag(tr, "Unknown reference", detail)
	}
	if s := closest(root, append(roots, plainNames(n.Args)...)); s != "" {
		if !slices.Contains(roots, s) {
			s = "args." + s
		}
		detail += fmt.Sprintf(" Did you mean %q?", s)
		return suggest(refDiag(tr, "Unknown reference", detail), s, tr, 0)
	}
	return refDiag(tr, "Unknown reference", detail)
}

// rootList names what expressions can refer to here, for messages.
func rootList(n *Names) string {
	var list []string
	if n.Args != nil {
		list = append(list, "args.<name>")
	}
	list = append(list, "var.<name>")
	for _, x := range n.Extra {
		if x.Unlisted {
			continue
		}
		list = append(list, fmt.Sprintf("%s.<%s>", x.Root, strings.ReplaceAll(x.What, " ", "_")))
	}
	return strings.Join(list, ", ") + " and local.<name>"
}

func checkAttr(tr hcl.Traversal, known []string, kind, where, declare string) hcl.Diagnostics {
	root := tr.RootName()
	if len(tr) < 2 {
		return refDiag(tr, fmt.Sprintf("Incomplete %s reference", kind),
			fmt.Sprintf("%s on its own is not a value; name one %s, as in %s.<name>.", root, kind, root))
	}
	name := stepName(tr, 1)
	for _, k := range known {
		if k == name {
			return nil
		}
	}
	detail := fmt.Sprintf("%s declares no %s named %q.", upperFirst(where), kind, name)
	if kind == "argument" {
		known = plainNames(known)
	} else {
		known = slices.DeleteFunc(slices.Clone(known), func(k string) bool { return !hclsyntax.ValidIdentifier(k) })
	}
	var replacement string
	if s := closest(name, known); s != "" {
		detail += fmt.Sprintf(" Did you mean %s.%s?", root, s)
		replacement = root + "." + s
	} else if len(known) > 0 {
		sorted := append([]string(nil), known...)
		sort.Strings(sorted)
		detail += fmt.Sprintf(" Declared: %s.", strings.Join(sorted, ", "))
	} else {
		detail += " " + declare
	}
	diags := hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Reference to undeclared %s", kind),
		Detail:   detail,
		Subject:  tr.SourceRange().Ptr(),
	}}
	return suggest(diags, replacement, tr, 1)
}

// stepName is the name step i of tr selects (an attribute, or a literal
// string key); "" for anything else.
func stepName(tr hcl.Traversal, i int) string {
	if i >= len(tr) {
		return ""
	}
	switch step := tr[i].(type) {
	case hcl.TraverseAttr:
		return step.Name
	case hcl.TraverseIndex:
		if step.Key.Type() == cty.String && step.Key.IsKnown() && !step.Key.IsNull() {
			return step.Key.AsString()
		}
	}
	return ""
}

// checkNamespace checks root.<key>.<name> against what ns holds.
func checkNamespace(tr hcl.Traversal, ns Namespace) hcl.Diagnostics {
	keys := make([]string, 0, len(ns.Keys))
	for k := range ns.Keys {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(tr) < 2 {
		return refDiag(tr, "Incomplete reference",
			fmt.Sprintf("%s on its own is not a value; name one %s, as in %s.<%s>.", ns.Root, ns.What, ns.Root, strings.ReplaceAll(ns.What, " ", "_")))
	}
	key := stepName(tr, 1)
	under, ok := ns.Keys[key]
	if why, hidden := ns.Hidden[key]; !ok && hidden {
		return refDiag(tr, upperFirst(ns.What)+" not available here", why)
	}
	if !ok {
		detail := fmt.Sprintf("There is no %s %q; the %s here are %s.", ns.What, key, english.Plural(ns.What), strings.Join(keys, ", "))
		if len(keys) == 0 {
			detail = fmt.Sprintf("There is no %s %q; no %s can be used here.", ns.What, key, ns.What)
		}
		if s := closest(key, keys); s != "" {
			detail += fmt.Sprintf(" Did you mean %s.%s?", ns.Root, s)
			return suggest(refDiag(tr, "Reference to unknown "+ns.What, detail), ns.Root+"."+s, tr, 1)
		}
		return refDiag(tr, "Reference to unknown "+ns.What, detail)
	}
	if ns.Used != nil {
		ns.Used[key] = true
	}
	field := 2
	if ns.Lists[key] {
		if d := checkListItem(tr, ns.Root, key, under); d != nil {
			return d
		}
		field = 3 // past the index
	}
	name := stepName(tr, field)
	if under == nil || len(tr) < field+1 || name == "" || slices.Contains(under, name) {
		return nil
	}
	owner := ns.Root + "." + key
	if field == 3 {
		owner += indexText(tr[2])
	}
	detail := fmt.Sprintf("%s holds %s; there is no %q.", owner, strings.Join(under, ", "), name)
	if len(under) == 0 {
		detail = fmt.Sprintf("%s holds nothing here; there is no %q.", owner, name)
	}
	if s := closest(name, under); s != "" {
		detail += fmt.Sprintf(" Did you mean %s.%s?", owner, s)
		return suggest(refDiag(tr, "Reference to unknown field", detail), owner+"."+s, tr, field)
	} else if ns.Hint != "" {
		detail += " " + ns.Hint
	}
	return refDiag(tr, "Reference to unknown field", detail)
}

// checkListItem reports a reference to a list key that names a field
// without picking an item first (steps.details.body), saying how to read
// one item or all of them.
func checkListItem(tr hcl.Traversal, root, key string, under []string) hcl.Diagnostics {
	if len(tr) < 3 {
		return nil
	}
	if ix, ok := tr[2].(hcl.TraverseIndex); ok && ix.Key.Type() != cty.String {
		return nil
	}
	name := stepName(tr, 2)
	if name == "" {
		return nil
	}
	detail := fmt.Sprintf("%s.%s is a list, one value per item of its for_each, with %s each; write %s.%s[0].%s for the first, or [for x in %s.%s : x.%s] for all of them.",
		root, key, strings.Join(under, ", "), root, key, name, root, key, name)
	if !slices.Contains(under, name) {
		detail = fmt.Sprintf("%s.%s is a list, one value per item of its for_each, with %s each; pick an item first, as in %s.%s[0].<name>.", root, key, strings.Join(under, ", "), root, key)
	}
	return refDiag(tr, "Missing index", detail)
}

// indexText writes an index step as it reads ([0]); "[...]" for one
// that is not a literal.
func indexText(step hcl.Traverser) string {
	if ix, ok := step.(hcl.TraverseIndex); ok && ix.Key.Type() == cty.Number && ix.Key.IsKnown() && !ix.Key.IsNull() {
		return "[" + ix.Key.AsBigFloat().Text('f', -1) + "]"
	}
	return "[...]"
}

// plainName is the rule for argument names (lang checks it where they are
// declared): both expression languages read them as args.<name>, and
// expr-lang would read a '-' as a minus.
var plainName = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// plainNames keeps the names that follow plainName.
func plainNames(names []string) []string {
	var out []string
	for _, n := range names {
		if plainName.MatchString(n) {
			out = append(out, n)
		}
	}
	return out
}

// suggest records on the diagnostic that replacement, which its detail
// offers, takes the place of tr's steps up to last (a name with the
// root and keys before it, as the detail writes it); none when
// replacement is "".
func suggest(diags hcl.Diagnostics, replacement string, tr hcl.Traversal, last int) hcl.Diagnostics {
	if replacement != "" && last < len(tr) {
		diagcode.Suggest(diags[0], replacement, hcl.RangeBetween(tr[0].SourceRange(), tr[last].SourceRange()))
	}
	return diags
}

func refDiag(tr hcl.Traversal, summary, detail string) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: tr.SourceRange().Ptr()}}
}

// closest is the candidate nearest to given, among those a configuration
// may use: a name the file itself refuses (an argument "my-date", a
// variable "9lives", each reported where it is declared) is never offered.
func closest(given string, candidates []string) string {
	valid := make([]string, 0, len(candidates))
	for _, c := range candidates {
		if hclsyntax.ValidIdentifier(c) {
			valid = append(valid, c)
		}
	}
	return rule.Closest(given, valid)
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
