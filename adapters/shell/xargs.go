package shelladapter

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/check"
)

// xargsValueFlags are xargs options followed by their value.
var xargsValueFlags = []string{"-a", "-d", "-E", "-I", "-L", "-n", "-P", "-s",
	"--arg-file", "--delimiter", "--max-lines", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"}

// xargsOptions checks a command run by xargs with stdin from the call:
// xargs adds what it reads to the command's arguments, after those
// written (or in place of the placeholder of -I), where the program may
// still read options. The command must end its options with "--" (or
// "--end-of-options") before them.
func xargsOptions(s *adapter.Scope, literal []*string, stdin hcl.Expression) hcl.Diagnostics {
	if stdin == nil || !refersToRuntime(s, stdin) {
		return nil
	}
	x := slices.IndexFunc(literal, func(l *string) bool { return l != nil && filepath.Base(*l) == "xargs" })
	if x < 0 || x > 0 && (literal[0] == nil || !slices.Contains(wrappers, filepath.Base(*literal[0]))) {
		return nil // "xargs" as another program's operand
	}
	placeholder := ""
	cmd := -1
	for j := x + 1; j < len(literal) && cmd < 0; j++ {
		l := literal[j]
		switch {
		case l == nil || !strings.HasPrefix(*l, "-"):
			cmd = j
		case *l == "-I" && j+1 < len(literal) && literal[j+1] != nil:
			placeholder = *literal[j+1]
			j++
		case strings.HasPrefix(*l, "-I") || strings.HasPrefix(*l, "--replace"):
			placeholder = "{}"
			if v, ok := strings.CutPrefix(*l, "-I"); ok && v != "" {
				placeholder = v
			} else if v, ok := strings.CutPrefix(*l, "--replace="); ok {
				placeholder = v
			}
		case *l == "-i":
			placeholder = "{}"
		case slices.Contains(xargsValueFlags, *l):
			j++
		}
	}
	if cmd < 0 {
		return nil // xargs runs echo
	}
	if endsOptions(literal[cmd:], placeholder) {
		return nil
	}
	return hcl.Diagnostics{check.Error("Standard input read as options",
		"xargs adds what it reads from stdin to the command's arguments, and stdin is computed from the arguments, so a value such as \"--output=/tmp/x\" would reach the program where it reads options. End the command's options with \"--\" (\"--end-of-options\" for git) as its last element, or, with -I, before the placeholder; or set allow_options = true if the caller may choose options.",
		stdin.Range())}
}

// endsOptions reports whether the command ends its options before the
// arguments xargs adds: a "--" that is its last element, or, with a
// placeholder, that comes before the first element holding it.
func endsOptions(cmd []*string, placeholder string) bool {
	isEnd := func(l *string) bool { return l != nil && (*l == "--" || *l == "--end-of-options") }
	if placeholder == "" {
		return isEnd(cmd[len(cmd)-1])
	}
	for _, l := range cmd {
		switch {
		case isEnd(l):
			return true
		case l == nil || strings.Contains(*l, placeholder):
			return false
		}
	}
	return true
}
