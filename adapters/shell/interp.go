package shelladapter

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/check"
	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// interpreter is a program that runs code given on its command line. An
// argument spliced into that code is code too, so it could do anything.
type interpreter struct {
	// names matches the program's base name, version suffixes included.
	names *lazyregexp.Regexp
	// isCodeFlag reports an element after which comes the code to run.
	isCodeFlag func(string) bool
	// advice tells how the code should read a value instead; %s is the
	// program as written, %s the code flag.
	advice string
}

// interpreters are checked wherever they appear in command, not only as
// the program: env, timeout, nice, xargs and the like run the rest of
// their argv as a command of its own.
var interpreters = []interpreter{
	{
		names:      lazyregexp.New(`^python(2|3|3\.\d+)?$`),
		isCodeFlag: clusterWith('c'),
		advice:     `Pass the value as a separate argv element after the code, which reads it as sys.argv[1]: [%q, %q, "import sys; print(sys.argv[1])", "${args.value}"].`,
	},
	{
		names:      lazyregexp.New(`^perl(5[.\d]*)?$`),
		isCodeFlag: clusterWith('e', 'E'),
		advice:     `Pass the value as a separate argv element after the code, which reads it as $ARGV[0]: [%q, %q, "print $ARGV[0]", "${args.value}"].`,
	},
	{
		names:      lazyregexp.New(`^ruby([\d.]*)?$`),
		isCodeFlag: clusterWith('e'),
		advice:     `Pass the value as a separate argv element after the code, which reads it as ARGV[0]: [%q, %q, "puts ARGV[0]", "${args.value}"].`,
	},
	{
		names: lazyregexp.New(`^(node|nodejs)$`),
		isCodeFlag: func(s string) bool {
			return s == "--eval" || s == "--print" || clusterWith('e', 'p')(s)
		},
		advice: `Pass the value as a separate argv element after the code, which reads it as process.argv[1]: [%q, %q, "console.log(process.argv[1])", "${args.value}"].`,
	},
	{
		names:      lazyregexp.New(`^php([\d.]*)?$`),
		isCodeFlag: exactly("-r"),
		advice:     `Pass the value as a separate argv element after the code, which reads it as $argv[1]: [%q, %q, "echo $argv[1];", "${args.value}"].`,
	},
	{
		names:      lazyregexp.New(`^lua([\d.]*)?$`),
		isCodeFlag: exactly("-e"),
		advice:     `Put the code in a script file and pass the value after it, where the script reads it as arg[1]: [%q, "/path/to/script.lua", "${args.value}"] (not after %s, where lua would take it for a script to run).`,
	},
	{
		names:      lazyregexp.New(`^Rscript$`),
		isCodeFlag: exactly("-e"),
		advice:     `Pass the value as a separate argv element after the code, which reads it as commandArgs(trailingOnly = TRUE)[1]: [%q, %q, "cat(commandArgs(trailingOnly = TRUE)[1])", "${args.value}"].`,
	},
	{
		names: lazyregexp.New(`^(pwsh|powershell)(\.exe)?$`),
		// PowerShell takes any unambiguous prefix of its parameter names,
		// in any case; -EncodedCommand (-e, -ec) is code in base64.
		isCodeFlag: func(s string) bool {
			l := strings.ToLower(s)
			return l == "-c" || l == "-e" || l == "-ec" ||
				(len(l) >= 4 && strings.HasPrefix("-command", l)) ||
				(len(l) >= 3 && strings.HasPrefix("-encodedcommand", l))
		},
		advice: `Put the code in a script file and pass the value after it, where the script reads it as $args[0]: [%q, "-File", "/path/to/script.ps1", "${args.value}"] (everything after %s is joined into one command).`,
	},
	{
		names:      lazyregexp.New(`^osascript$`),
		isCodeFlag: exactly("-e"),
		advice:     `Pass the value as a separate argv element after the code, which reads it in a run handler: [%q, %q, "on run argv", %[2]q, "return item 1 of argv", %[2]q, "end run", "${args.value}"].`,
	},
}

// awks take their program as the first element that is not an option.
var awks = []string{"awk", "gawk", "mawk", "nawk"}

// clusterWith matches a single-dash option cluster ending in one of
// letters, as in -c, -uc, -lne: the code is the next element.
func clusterWith(letters ...byte) func(string) bool {
	return func(s string) bool {
		if len(s) < 2 || s[0] != '-' || s[1] == '-' {
			return false
		}
		return slices.Contains(letters, s[len(s)-1]) && isLetters(s[1:])
	}
}

func isLetters(s string) bool {
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') {
			return false
		}
	}
	return true
}

func exactly(flag string) func(string) bool {
	return func(s string) bool { return s == flag }
}

// checkInterpreters refuses argument values spliced into code that a shell
// or an interpreter named anywhere in the command runs: a wrapper such as
// env, timeout or xargs before it changes nothing. literal[i] is element
// i's value when known at load time.
func checkInterpreters(s *adapter.Scope, elems []hcl.Expression, literal []*string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for i := range elems {
		if literal[i] == nil {
			continue
		}
		prog := *literal[i]
		base := filepath.Base(prog)
		switch {
		case slices.Contains(awks, base):
			diags = append(diags, checkAwk(s, elems[i+1:], literal[i+1:], prog)...)
		case slices.Contains(seds, base):
			diags = append(diags, checkSed(s, elems[i+1:], literal[i+1:], prog)...)
		case slices.Contains(Shells, base):
			diags = append(diags, checkShell(s, elems[i+1:], literal[i+1:], prog)...)
		default:
			for _, in := range interpreters {
				if in.names.MatchString(base) {
					diags = append(diags, checkCode(s, elems[i+1:], literal[i+1:], prog, in)...)
				}
			}
		}
	}
	return diags
}

// codeAfter returns the index of the element following the first code
// flag in rest, or -1. Like the check before it, it looks past other
// options and their values: many options take one.
func codeAfter(rest []*string, isFlag func(string) bool) (int, string) {
	for j := 0; j < len(rest)-1; j++ {
		if rest[j] != nil && isFlag(*rest[j]) {
			return j + 1, *rest[j]
		}
	}
	return -1, ""
}

func checkShell(s *adapter.Scope, elems []hcl.Expression, literal []*string, prog string) hcl.Diagnostics {
	j, flag := codeAfter(literal, isCommandFlag)
	if j < 0 || !refersToRuntime(s, elems[j]) {
		return nil
	}
	base := filepath.Base(prog)
	return hcl.Diagnostics{check.Error("Arguments parsed by the shell",
		fmt.Sprintf("%s %s parses this element as a script, so an argument value inside it could run other commands. Pass values as separate argv elements after the script, where the script reads them as \"$1\", \"$2\", ...: [%q, %q, \"grep -- \\\"$1\\\" /var/log/app.log\", %q, \"${args.pattern}\"]. If the value is trusted, set allow_shell = true.",
			base, flag, prog, flag, base),
		elems[j].Range())}
}

func checkCode(s *adapter.Scope, elems []hcl.Expression, literal []*string, prog string, in interpreter) hcl.Diagnostics {
	j, flag := codeAfter(literal, in.isCodeFlag)
	if j < 0 || !refersToRuntime(s, elems[j]) {
		return nil
	}
	return hcl.Diagnostics{check.Error("Arguments run as code",
		fmt.Sprintf("%s %s runs this element as code, so an argument value inside it could do anything. %s If the value is trusted, set allow_shell = true.",
			filepath.Base(prog), flag, fmt.Sprintf(in.advice, prog, flag)),
		elems[j].Range())}
}

// checkAwk finds awk's program: the first element that is not an option,
// unless -f names a program file. -e and --source (gawk) give program
// text too. Program files (-f), included files (-i) and extensions (-l,
// gawk's shared libraries) must be written in the config.
func checkAwk(scope *adapter.Scope, elems []hcl.Expression, literal []*string, prog string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	programGiven := false // by -f, -e or --source: the operands are then input
	for j := 0; j < len(elems); j++ {
		var s string
		if literal[j] != nil {
			s = *literal[j]
		}
		switch {
		case literal[j] == nil || s == "-" || !strings.HasPrefix(s, "-"):
			if !programGiven {
				diags = append(diags, awkProgram(scope, elems[j], prog)...)
			}
			return diags
		case s == "--":
			if !programGiven && j+1 < len(elems) {
				diags = append(diags, awkProgram(scope, elems[j+1], prog)...)
			}
			return diags
		case s == "-f" || s == "--file" || s == "-i" || s == "--include" || s == "-l" || s == "--load":
			programGiven = programGiven || s == "-f" || s == "--file"
			if j+1 < len(elems) {
				diags = append(diags, programFile(scope, elems[j+1], prog)...)
			}
			j++
		case strings.HasPrefix(s, "--file="):
			programGiven = true
		case s == "-e" || s == "--source":
			programGiven = true
			if j+1 < len(elems) {
				diags = append(diags, awkProgram(scope, elems[j+1], prog)...)
			}
			j++
		case s == "-F" || s == "-v" || s == "--assign" || s == "--field-separator":
			j++ // the option's value
		}
	}
	return diags
}

func awkProgram(s *adapter.Scope, e hcl.Expression, prog string) hcl.Diagnostics {
	if !refersToRuntime(s, e) {
		return nil
	}
	return hcl.Diagnostics{check.Error("Arguments run as code",
		fmt.Sprintf("%s runs this element as its program, so an argument value inside it could run commands (system(), print | \"cmd\"). Write the program literally and pass the value as a variable: [%q, \"-v\", \"pattern=${args.value}\", \"$0 ~ pattern\"], or in env, read as ENVIRON[\"NAME\"]. If the value is trusted, set allow_shell = true.",
			filepath.Base(prog), prog),
		e.Range())}
}

// wrappers run the rest of their argv as a command of its own.
var wrappers = []string{
	"env", "timeout", "nice", "nohup", "xargs", "stdbuf", "setsid", "ionice", "chrt", "taskset",
	"sudo", "doas", "runuser", "time", "flock", "unshare", "chroot", "strace", "ltrace", "busybox",
	"exec", "command", "firejail", "systemd-run", "watch", "parallel", "caffeinate",
}

// stdinPaths name standard input as a file, for a script read from it.
var stdinPaths = []string{"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"}

// checkScripts refuses the two other ways a call's value could become a
// shell's or an interpreter's code: as its script file (["sh", args.x],
// ["python3", args.x] run whatever file the caller names), or as its
// standard input when it reads its script from there (["sh"], ["bash",
// "-s"], ["python3", "-"] with stdin = args.x is sh -c with the value as
// the script). Like checkInterpreters, it looks wherever such a program
// appears in command, behind wrappers such as env or timeout.
func checkScripts(s *adapter.Scope, elems []hcl.Expression, literal []*string, stdin hcl.Expression) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for i := range elems {
		if literal[i] == nil {
			continue
		}
		if i > 0 && (literal[0] == nil || !slices.Contains(wrappers, filepath.Base(*literal[0]))) {
			// An interpreter's name after another program is an operand
			// (["grep", "-r", "python3", args.dir]), not a program to run.
			return diags
		}
		prog := *literal[i]
		base := filepath.Base(prog)
		if c := dbClientOf(base); c != nil {
			return append(diags, checkDBClient(s, elems[i+1:], literal[i+1:], stdin, prog, c)...)
		}
		if slices.Contains(awks, base) || slices.Contains(seds, base) {
			// The program is in command, where checkInterpreters looks,
			// unless -f names standard input.
			if stdin != nil && refersToRuntime(s, stdin) && programFromStdin(literal[i+1:]) {
				diags = append(diags, stdinScript(base, prog, stdin.Range()))
			}
			return diags
		}
		isCode := codeFlagOf(base)
		if isCode == nil {
			continue
		}
		rest, restLit := elems[i+1:], optionsAsWritten(s, elems[i+1:], literal[i+1:])
		if j, _ := codeAfter(restLit, isCode); j >= 0 || slices.ContainsFunc(restLit, func(l *string) bool {
			name, _, attached := strings.Cut(derefOr(l), "=")
			return attached && strings.HasPrefix(name, "-") && isCode(name)
		}) {
			return diags // the code is in command, where checkInterpreters and the runners table look
		}
		j := scriptOperand(restLit)
		switch {
		case j >= 0 && restLit[j] == nil:
			if refersToRuntime(s, rest[j]) {
				diags = append(diags, scriptFromCall(base, prog, rest[j].Range()))
			}
		case j >= 0 && !slices.Contains(stdinPaths, *restLit[j]) && !readsStdinFlag(base, restLit[:j]):
			// a script file written in the config
		case stdin != nil && refersToRuntime(s, stdin):
			diags = append(diags, stdinScript(base, prog, stdin.Range()))
		}
		return diags // the rest of command belongs to this program
	}
	return diags
}

// optionsAsWritten returns literal, with the elements that start with a
// written option and go on with a value of the call ("--eval=${args.x}",
// "-e${args.x}") given as that written text: they are options, not the
// script, and the runners table checks their values. An attached code
// option written whole ("--eval=code") counts as the code flag.
func optionsAsWritten(s *adapter.Scope, elems []hcl.Expression, literal []*string) []*string {
	out := slices.Clone(literal)
	for j, l := range literal {
		if l == nil {
			if lead := leadingText(s, elems[j]); len(lead) > 1 && lead[0] == '-' {
				out[j] = &lead
			}
		}
	}
	return out
}

// scriptOperand returns the index of the first element that is not an
// option: the script to run (-1 for none). A computed element counts as
// the script, whatever its value.
func scriptOperand(rest []*string) int {
	for j, lit := range rest {
		if lit == nil || *lit == "-" || !strings.HasPrefix(*lit, "-") {
			return j
		}
		if *lit == "--" {
			if j+1 < len(rest) {
				return j + 1
			}
			return -1
		}
	}
	return -1
}

// readsStdinFlag reports a shell's -s, which reads the script from
// standard input and makes the operands its positional parameters.
func readsStdinFlag(base string, opts []*string) bool {
	if !slices.Contains(Shells, base) {
		return false
	}
	for _, lit := range opts {
		if lit != nil && len(*lit) >= 2 && (*lit)[0] == '-' && (*lit)[1] != '-' && strings.ContainsRune((*lit)[1:], 's') {
			return true
		}
	}
	return false
}

func scriptFromCall(base, prog string, r hcl.Range) *hcl.Diagnostic {
	return check.Error("Script taken from the arguments",
		fmt.Sprintf("%s runs the file this element names as its script, so an argument value could run any program on the server. Write the script's path in the config and pass values after it, where the script reads them as its arguments: [%q, \"/srv/scripts/report\", \"${args.value}\"]. If the value is trusted, set allow_shell = true.",
			base, prog),
		r)
}

func stdinScript(base, prog string, r hcl.Range) *hcl.Diagnostic {
	return check.Error("Arguments run as code",
		fmt.Sprintf("%s reads its script from stdin here (command gives it no code and no script file), and stdin is computed from the arguments, so an argument value could run commands. Write the code in command or in a script file and pass the value as an argument after it: [%q, \"/srv/scripts/report\", \"${args.value}\"]. If the value is trusted, set allow_shell = true.",
			base, prog),
		r)
}

func derefOr(l *string) string {
	if l == nil {
		return ""
	}
	return *l
}
