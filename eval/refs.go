package eval

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"
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
	// Extra are further roots allowed as they are (answers in prompts
	// that ask the client questions); what is under them is not checked.
	Extra []string
}

// CheckRefs checks every reference in expr against names and reports each
// one that names nothing, with a suggestion when one is close. It also
// checks the literal arguments of function calls (CheckLiteralArgs), so
// that every expression checked before evaluation gets both.
func CheckRefs(expr hcl.Expression, names *Names) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, tr := range expr.Variables() {
		diags = append(diags, checkTraversal(tr, names)...)
	}
	return append(diags, CheckLiteralArgs(expr)...)
}

func checkTraversal(tr hcl.Traversal, n *Names) hcl.Diagnostics {
	root := tr.RootName()
	for _, x := range n.Extra {
		if root == x {
			return nil
		}
	}
	switch root {
	case "args":
		if n.Args == nil {
			return refDiag(tr, "Arguments not available here",
				"args.* is only available inside tools, resource templates and prompts, where it holds the call's arguments. Use var.<name> or local.<name> here.")
		}
		return checkAttr(tr, n.Args, "argument", n.ArgsWhere, "arg")
	case "var":
		return checkAttr(tr, n.Vars, "variable", "this configuration", "variable")
	case "local":
		return checkAttr(tr, n.Locals, "local value", "this configuration", "locals")
	}
	roots := []string{"var", "local"}
	if n.Args != nil {
		roots = append(roots, "args")
	}
	detail := fmt.Sprintf("There is nothing named %q here. Expressions can refer to %s.", root, rootList(n))
	if s := closest(root, append(roots, n.Args...)); s != "" {
		if s != "args" && s != "var" && s != "local" {
			s = "args." + s
		}
		detail += fmt.Sprintf(" Did you mean %q?", s)
	}
	return refDiag(tr, "Unknown reference", detail)
}

func rootList(n *Names) string {
	if n.Args == nil {
		return "var.<name> and local.<name>"
	}
	return "args.<name>, var.<name> and local.<name>"
}

func checkAttr(tr hcl.Traversal, known []string, kind, where, block string) hcl.Diagnostics {
	root := tr.RootName()
	if len(tr) < 2 {
		return refDiag(tr, fmt.Sprintf("Incomplete %s reference", kind),
			fmt.Sprintf("%s on its own is not a value; name one %s, as in %s.<name>.", root, kind, root))
	}
	var name string
	switch step := tr[1].(type) {
	case hcl.TraverseAttr:
		name = step.Name
	case hcl.TraverseIndex:
		if step.Key.Type().FriendlyName() == "string" && step.Key.IsKnown() {
			name = step.Key.AsString()
		}
	}
	for _, k := range known {
		if k == name {
			return nil
		}
	}
	detail := fmt.Sprintf("%s declares no %s named %q.", upperFirst(where), kind, name)
	if s := closest(name, known); s != "" {
		detail += fmt.Sprintf(" Did you mean %s.%s?", root, s)
	} else if len(known) > 0 {
		sorted := append([]string(nil), known...)
		sort.Strings(sorted)
		detail += fmt.Sprintf(" Declared: %s.", strings.Join(sorted, ", "))
	} else {
		detail += fmt.Sprintf(" Declare it with a %s block.", block)
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Reference to undeclared %s", kind),
		Detail:   detail,
		Subject:  tr.SourceRange().Ptr(),
	}}
}

func refDiag(tr hcl.Traversal, summary, detail string) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: tr.SourceRange().Ptr()}}
}

func closest(given string, candidates []string) string {
	best, bestDist := "", 3
	for _, c := range candidates {
		if d := levenshtein.Distance(given, c, nil); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
