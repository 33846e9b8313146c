package shelladapter

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/check"
	"github.com/mcpdecl/mcpdecl/eval"
)

// checkOptionArgs warns about string arguments that start an argv element
// where the program still reads options: a value such as
// "--output=/tmp/x" would then be an option, not the operand meant.
// Elements after a literal "--" or "--end-of-options" are operands, and
// one right after a literal option is most likely that option's value.
// Past a shell or interpreter, the rest goes to its code or script, whose
// own parsing this cannot see.
func checkOptionArgs(s *adapter.Scope, elems []hcl.Expression, literal []*string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	git := false
	for i := 1; i < len(elems); i++ {
		if lit := literal[i-1]; lit != nil {
			if isInterpreter(filepath.Base(*lit)) {
				break
			}
			git = git || filepath.Base(*lit) == "git"
		}
		if lit := literal[i]; lit != nil {
			if *lit == "--" || *lit == "--end-of-options" {
				break
			}
			continue
		}
		if takesValue(literal[i-1]) {
			continue
		}
		if name, ok := leadingStringArg(s, elems[i]); ok {
			diags = append(diags, optionWarning(name, git, elems[i].Range()))
		}
	}
	return diags
}

var interpreterNames = func() []string {
	names := slices.Clone(Shells)
	return append(names, awks...)
}()

func isInterpreter(base string) bool {
	if slices.Contains(interpreterNames, base) {
		return true
	}
	return slices.ContainsFunc(interpreters, func(in interpreter) bool { return in.names.MatchString(base) })
}

// takesValue reports a literal option that may take the next element as
// its value: "-n", "--format", but not "--format=x", "-" (stdin) or "--".
func takesValue(lit *string) bool {
	return lit != nil && len(*lit) >= 2 && (*lit)[0] == '-' && *lit != "--" && !strings.Contains(*lit, "=")
}

var argRef = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// leadingStringArg reports the string argument whose value starts e, as
// in args.x or "${args.x}/tail", unless its enum or pattern rules out a
// leading "-".
func leadingStringArg(s *adapter.Scope, e hcl.Expression) (string, bool) {
	parts, d := eval.Parts(e, s.Files)
	if d.HasErrors() || len(parts) == 0 || parts[0].Expr == nil {
		return "", false
	}
	tr, d := hcl.AbsTraversalForExpr(parts[0].Expr)
	if d.HasErrors() || len(tr) != 2 || tr.RootName() != "args" {
		return "", false
	}
	attr, ok := tr[1].(hcl.TraverseAttr)
	if !ok || !argRef.MatchString(attr.Name) {
		return "", false
	}
	t := s.ArgsType
	if t == cty.NilType || !t.IsObjectType() || !t.HasAttribute(attr.Name) || t.AttributeType(attr.Name) != cty.String || s.NoLeadingDash[attr.Name] {
		return "", false
	}
	return attr.Name, true
}

func optionWarning(name string, git bool, r hcl.Range) *hcl.Diagnostic {
	end := `"--"`
	if git {
		end = `"--end-of-options" (git takes what follows "--" for paths)`
	}
	return check.Warning("Argument may be read as an option",
		fmt.Sprintf("args.%s starts this argv element, before any \"--\", so a value such as \"--output=/tmp/x\" would be read by the program as an option, not as the operand meant. Put %s before it in command, or give the argument an enum, or a pattern whose start rules out \"-\", such as \"^[A-Za-z0-9]\".",
			name, end),
		r)
}
