package shelladapter

import "strings"

// runner describes a program that runs part of its command line as code:
// an option's value (su -c, tar --to-command, rsync -e), its operands
// (ssh's remote command, watch), or the program it wraps (timeout, sudo,
// find -exec), whose own command line is then checked the same way. The
// table of them is in runners.go; checkRunners reads a command with it.
type runner struct {
	// opts are the options that take a value or change what the
	// operands are; any other option is read as a flag without value.
	opts map[string]optKind
	// modes are options (and "--") after which the operands are read
	// differently: sudo -s makes them a shell command, watch -x a program.
	modes map[string]mode
	// mode says what the operands are when no option changes it.
	mode mode
	// stop: options end at the first operand at or after mode.skip, as
	// for programs that run the rest of their command line (POSIX order).
	// Without it options are read anywhere before "--" (GNU order).
	stop bool
	// assigns: NAME=VALUE operands before the program set variables (env, sudo).
	assigns bool
	// ends are operands after which the code of roleCode ends and data
	// follows (parallel's ":::").
	ends []string
	// cmdLead: an operand whose text may start with one of these
	// characters is a command (vim +cmd, less +cmd, TeX's \ and &), so a
	// value of the call may not start one before "--".
	cmdLead string
	// execs are primaries followed by a program and its command line, up
	// to ";" or "+" (find -exec, fd -x).
	execs []string
	// keyOperands: the first operand is a key and the second its value,
	// code for the keys codeKey reports (git config).
	keyOperands bool
	// script: the operand of roleProgram names a script file, a package
	// or a service to run, not a program whose command line is read here.
	script bool
	// longOnly: single-dash options are whole names (gdb -nx, emacs -eval),
	// never clusters of letters.
	longOnly bool
	// splits: the written value of a code option is a command line that
	// goes before the operands (env -S "prog -x" then more arguments).
	splits bool
	// stdin: the program reads commands from standard input.
	stdin bool
	// codeKey reports the keys of an optKeyed option whose value is code.
	codeKey func(key string) bool
	// subs are subcommands, selected by the first operand (git clone, ip netns).
	subs map[string]*runner
}

type optKind uint8

const (
	optFlag    optKind = iota // no value; unknown options are read so
	optValue                  // a value that is data
	optCode                   // a value that is code: a command line, a script
	optProgram                // a value that names a program (or package, script) to run
	optKeyed                  // a KEY=VALUE whose value is code for the keys codeKey reports
)

type role uint8

const (
	roleData    role = iota // operands are data
	roleCode                // operands from skip on are code
	roleProgram             // the operand at skip is a program; the rest is its command line
)

// mode says what a runner's operands are: skip operands of data (timeout's
// duration, ssh's host), then the role's.
type mode struct {
	role role
	skip int
}

// takesValue reports whether the option is followed by a value.
func (k optKind) takesValue() bool { return k != optFlag }

// sensitive reports whether a value of the call as the option's value
// could run code.
func (k optKind) sensitive() bool { return k == optCode || k == optProgram || k == optKeyed }

// opts builds an options map: kinds alternate with space-separated names,
// as in opts(optCode, "-c --command", optValue, "-w").
func opts(pairs ...any) map[string]optKind {
	m := map[string]optKind{}
	for i := 0; i+1 < len(pairs); i += 2 {
		for _, name := range strings.Fields(pairs[i+1].(string)) {
			m[name] = pairs[i].(optKind)
		}
	}
	return m
}

// modesOf builds a modes map: every name listed gets m.
func modesOf(m mode, names string) map[string]mode {
	out := map[string]mode{}
	for _, name := range strings.Fields(names) {
		out[name] = m
	}
	return out
}

// wrapper is a runner that runs its operand at skip as a program.
func wrapper(skip int, o map[string]optKind) *runner {
	return &runner{opts: o, mode: mode{roleProgram, skip}, stop: true}
}

// anyKey reports every key as code: the program's settings are too many,
// and too many of them run commands, to list the safe ones.
func anyKey(string) bool { return true }

// containsAny returns a codeKey that reports keys holding, in any case,
// one of the words.
func containsAny(words ...string) func(string) bool {
	return func(key string) bool {
		k := strings.ToLower(key)
		for _, w := range words {
			if strings.Contains(k, w) {
				return true
			}
		}
		return false
	}
}
