package shelladapter

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/check"
	"github.com/mcpdecl/mcpdecl/eval"
)

// seds run the commands of their script, and a script can run programs
// (e, s///e) and write any file (w): it is code, as awk's program is.
// GNU sed's --sandbox refuses those commands.
var seds = []string{"sed", "gsed"}

// checkSed finds sed's script: the element after each -e (--expression),
// the file after -f (--file), and otherwise the first operand. A value of
// the call there is refused unless --sandbox is given; values as input
// files after a literal script are data.
func checkSed(s *adapter.Scope, elems []hcl.Expression, literal []*string, prog string) hcl.Diagnostics {
	if slices.ContainsFunc(literal, func(l *string) bool { return l != nil && *l == "--sandbox" }) {
		return nil
	}
	var diags hcl.Diagnostics
	script, operand := false, -1
	for j := 0; j < len(elems); j++ {
		if literal[j] == nil {
			switch optionKind(leadingText(s, elems[j]), "expression", "file", 'e', 'f') {
			case 'e':
				script = true
				diags = append(diags, sedScript(s, elems[j], prog)...)
			case 'f':
				script = true
				diags = append(diags, programFile(s, elems[j], prog)...)
			case 0:
				if operand < 0 {
					operand = j
				}
			}
			continue
		}
		l := *literal[j]
		switch {
		case l == "--":
			if operand < 0 && j+1 < len(elems) {
				operand = j + 1
			}
			j = len(elems)
		case l == "-e" || l == "--expression" || clusterWith('e')(l):
			script = true
			if j+1 < len(elems) {
				diags = append(diags, sedScript(s, elems[j+1], prog)...)
			}
			j++
		case l == "-f" || l == "--file" || clusterWith('f')(l):
			script = true
			if j+1 < len(elems) {
				diags = append(diags, programFile(s, elems[j+1], prog)...)
			}
			j++
		case l == "-l" || l == "--line-length":
			j++
		case strings.HasPrefix(l, "--expression=") || strings.HasPrefix(l, "--file="):
			script = true
		case strings.HasPrefix(l, "-") && l != "-":
		default:
			if operand < 0 {
				operand = j
			}
		}
	}
	if !script && operand >= 0 {
		diags = append(diags, sedScript(s, elems[operand], prog)...)
	}
	return diags
}

// leadingText is the text an element starts with when it is written, or
// "" when it starts with a value.
func leadingText(s *adapter.Scope, e hcl.Expression) string {
	parts, d := eval.Parts(e, s.Files)
	if d.HasErrors() || len(parts) == 0 || parts[0].Expr != nil {
		return ""
	}
	return parts[0].Literal
}

// optionKind tells which of two options a written prefix starts: the
// long form with "=" ("--expression=..."), or a single-dash cluster
// ending in the letter with the value attached ("-ne..."). 0 for neither.
func optionKind(prefix, long1, long2 string, short1, short2 byte) byte {
	switch {
	case strings.HasPrefix(prefix, "--"+long1+"="):
		return short1
	case strings.HasPrefix(prefix, "--"+long2+"="):
		return short2
	case len(prefix) < 2 || prefix[0] != '-' || prefix[1] == '-':
		return 0
	}
	for i := 1; i < len(prefix); i++ {
		if c := prefix[i]; c == short1 || c == short2 {
			return c
		}
	}
	return 0
}

func sedScript(s *adapter.Scope, e hcl.Expression, prog string) hcl.Diagnostics {
	if !refersToRuntime(s, e) {
		return nil
	}
	return hcl.Diagnostics{check.Error("Arguments run as code",
		fmt.Sprintf("%s runs this element as its script, whose commands can run programs (e, s///e) and write files (w), so an argument value inside it could do anything. Write the script in the config and keep values out of it, or add \"--sandbox\" (GNU sed), which refuses the commands e, r and w. If the value is trusted, set allow_shell = true.",
			filepath.Base(prog)),
		e.Range())}
}

// programFile checks the file an awk or sed -f names: one the caller
// names could be any file on the server, run as a program.
func programFile(s *adapter.Scope, e hcl.Expression, prog string) hcl.Diagnostics {
	if !refersToRuntime(s, e) {
		return nil
	}
	return hcl.Diagnostics{scriptFromCall(filepath.Base(prog), prog, e.Range())}
}

// programFromStdin reports whether an awk or sed command names standard
// input as its program file (-f -, -f /dev/stdin).
func programFromStdin(literal []*string) bool {
	for j, l := range literal {
		if l == nil {
			continue
		}
		if v, ok := strings.CutPrefix(*l, "--file="); ok && slices.Contains(stdinPaths, v) {
			return true
		}
		if (*l == "-f" || *l == "--file" || clusterWith('f')(*l)) && j+1 < len(literal) && literal[j+1] != nil && slices.Contains(stdinPaths, *literal[j+1]) {
			return true
		}
	}
	return false
}
