package shelladapter

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/check"
	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// optionGuards finds the argv elements that start with a value of the
// call where the program still reads options: a value such as
// "--output=/tmp/x" would then be an option, not the operand meant. Such
// elements are returned, so that a value starting with "-" is refused
// when called, with a warning that says how to write the command instead.
//
// A literal option before the element does not make it that option's
// value ("--oneline" takes none), so only a literal "--" or
// "--end-of-options" ends the options. So does the script of a shell or
// an interpreter: what follows it goes to the script, whose own parsing
// this cannot see.
func optionGuards(s *adapter.Scope, elems []hcl.Expression, literal []*string) ([]int, hcl.Diagnostics) {
	var guards []int
	var diags hcl.Diagnostics
	git := false
	var isCode func(string) bool // the code flag of the interpreter met, if any
	wrapper := false             // whether the program runs the rest as a command
	if literal[0] != nil {
		isCode = codeFlagOf(filepath.Base(*literal[0]))
		wrapper = slices.Contains(wrappers, filepath.Base(*literal[0]))
	}
	for i := 1; i < len(elems); i++ {
		if isCode != nil && literal[i-1] != nil && isCode(*literal[i-1]) {
			return guards, diags // the interpreter's code, never read as an option
		}
		if lit := literal[i]; lit != nil {
			switch {
			case *lit == "--" || *lit == "--end-of-options":
				return guards, diags
			case isCode != nil && !strings.HasPrefix(*lit, "-"):
				return guards, diags // the interpreter's script
			}
			base := filepath.Base(*lit)
			if isCode == nil && wrapper {
				isCode = codeFlagOf(base)
			}
			git = git || base == "git"
			continue
		}
		if namesOption(s, elems[i]) {
			diags = append(diags, check.Error("Argument names an option",
				"This element is a dash followed by a value of the call, so the caller chooses which option the program gets (\"-o/tmp/x\", \"--output=/tmp/x\"). Write the option in the config and take only its value from the arguments, as in \"--format=${args.x}\", or list the options allowed with a bool argument per option. If the caller may choose any option, set allow_options = true.",
				elems[i].Range()))
			continue
		}
		if name, ok := leadingValue(s, elems[i]); ok {
			guards = append(guards, i)
			diags = append(diags, optionWarning(name, git, elems[i].Range()))
		}
		if isCode != nil {
			return guards, diags // a script taken from the call ends the options too
		}
	}
	return guards, diags
}

// codeFlagOf returns the flag after which a shell or an interpreter named
// base takes its code, or nil when base is neither. awk, whose program is
// its first operand, has a flag that matches nothing.
func codeFlagOf(base string) func(string) bool {
	switch {
	case slices.Contains(Shells, base):
		return isCommandFlag
	case slices.Contains(awks, base):
		return func(string) bool { return false }
	}
	for _, in := range interpreters {
		if in.names.MatchString(base) {
			return in.isCodeFlag
		}
	}
	return nil
}

// namesOption reports an element such as "-${args.x}" or "--${args.x}":
// dashes alone, then a value of the call, which then picks the option.
func namesOption(s *adapter.Scope, e hcl.Expression) bool {
	parts, d := eval.Parts(e, s.Files)
	if d.HasErrors() {
		return false
	}
	prefix, value := writtenPrefix(s, parts)
	if value == nil || prefix == "" || strings.Trim(prefix, "-") != "" {
		return false
	}
	// A number or a bool spells no option name: "-5" is head's old -n 5.
	tr, d := hcl.AbsTraversalForExpr(value)
	if !d.HasErrors() && len(tr) == 2 && tr.RootName() == "args" && s.ArgsType.IsObjectType() {
		if attr, ok := tr[1].(hcl.TraverseAttr); ok && s.ArgsType.HasAttribute(attr.Name) {
			ty := s.ArgsType.AttributeType(attr.Name)
			return ty != cty.Number && ty != cty.Bool
		}
	}
	return true
}

var argRef = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// leadingValue reports what starts e when it is a value of the call that
// may start with "-": args.x or "${args.x}/tail" for a string, number or
// untyped argument whose enum or pattern does not rule out a leading "-",
// or any other expression of the call's values, as in lower(args.x).
func leadingValue(s *adapter.Scope, e hcl.Expression) (string, bool) {
	parts, d := eval.Parts(e, s.Files)
	if d.HasErrors() {
		return "", false
	}
	first := firstRuntimePart(s, parts)
	if first == nil {
		return "", false
	}
	tr, d := hcl.AbsTraversalForExpr(first)
	if !d.HasErrors() && len(tr) == 2 && tr.RootName() == "each" {
		if attr, ok := tr[1].(hcl.TraverseAttr); ok && attr.Name == "index" {
			return "", false // a position in a list: never negative
		}
	}
	if d.HasErrors() || len(tr) != 2 || tr.RootName() != "args" {
		return check.Source(first.Range(), s.Files), true
	}
	attr, ok := tr[1].(hcl.TraverseAttr)
	if !ok || !argRef.MatchString(attr.Name) {
		return check.Source(first.Range(), s.Files), true
	}
	t := s.ArgsType
	if t == cty.NilType || !t.IsObjectType() || !t.HasAttribute(attr.Name) {
		return "args." + attr.Name, true
	}
	if t.AttributeType(attr.Name) == cty.Bool || s.NoLeadingDash[attr.Name] {
		return "", false
	}
	return "args." + attr.Name, true
}

// firstRuntimePart returns the part of the call's values that starts the
// element once the text before it is written out, or nil when text comes
// first. Text known to be empty ("${""}", a variable that is "") writes
// nothing, so the value after it still starts the element; text the
// loader cannot know yet (an env() while validating) may be empty too.
func firstRuntimePart(s *adapter.Scope, parts []eval.Part) hcl.Expression {
	if prefix, value := writtenPrefix(s, parts); prefix == "" {
		return value
	}
	return nil
}

// writtenPrefix returns the first part that is a value of the call, and
// the text the parts before it write: literals, and expressions of the
// config evaluated now ("${var.dash}"), an unknown one counting as "". It
// returns a nil value when no part is a value of the call, or when a part
// before it cannot be evaluated (the element's own check reports that).
func writtenPrefix(s *adapter.Scope, parts []eval.Part) (string, hcl.Expression) {
	var prefix strings.Builder
	for _, p := range parts {
		if p.Expr == nil {
			prefix.WriteString(p.Literal)
			continue
		}
		if refersToRuntime(s, p.Expr) {
			return prefix.String(), p.Expr
		}
		v, d := p.Expr.Value(s.Static.Context(p.Expr))
		if d.HasErrors() {
			return "", nil
		}
		if v.IsKnown() && !v.IsNull() {
			str, err := eval.PartString(v)
			if err != nil {
				return "", nil
			}
			prefix.WriteString(str)
		}
	}
	return "", nil
}

func optionWarning(name string, git bool, r hcl.Range) *hcl.Diagnostic {
	end := `"--"`
	if git {
		end = `"--end-of-options" (git takes what follows "--" for paths)`
	}
	return check.Warning("Argument may be read as an option",
		fmt.Sprintf("%s starts this argv element, before any \"--\", so a value such as \"--output=/tmp/x\" would be read by the program as an option, not as the operand meant; a call whose value starts with \"-\" is refused. Put %s before it in command, or pass it as an option's value (\"--format=${%s}\"), or give the argument an enum, or a pattern whose start rules out \"-\", such as \"^[A-Za-z0-9]\". If the value is meant to be an option, set allow_options = true.",
			name, end, name),
		r)
}
