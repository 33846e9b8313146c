package shelladapter

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/check"
)

// runCheck reads a command with the runners table: from the program on,
// through the programs that wrappers, find -exec and the like run, it
// finds each place where a value of the call would be run as code or as a
// program, and refuses it.
type runCheck struct {
	s     *adapter.Scope
	elems []hcl.Expression
	// literal[i] is element i's value when known at load time; runtime[i]
	// whether it holds a value of the call; lead[i] the text written
	// before that value.
	literal []*string
	runtime []bool
	lead    []string
	stdin   hcl.Expression // standard input, when it holds a value of the call
	// allowOptions: values of the call may be options, so one may be an
	// option that runs code.
	allowOptions bool
	diags        hcl.Diagnostics
}

// checkRunners checks command against the runners table.
func checkRunners(s *adapter.Scope, elems []hcl.Expression, literal []*string, stdin hcl.Expression, allowOptions bool) hcl.Diagnostics {
	c := &runCheck{s: s, allowOptions: allowOptions}
	for i, e := range elems {
		c.elems = append(c.elems, e)
		c.literal = append(c.literal, literal[i])
		c.runtime = append(c.runtime, refersToRuntime(s, e))
		lead := ""
		if literal[i] == nil {
			lead = leadingText(s, e)
		}
		c.lead = append(c.lead, lead)
	}
	if stdin != nil && refersToRuntime(s, stdin) {
		c.stdin = stdin
	}
	c.command(0, len(c.elems))
	return c.diags
}

// lookupRunner finds base in the table, or its stem without a version
// suffix (python3.12, lua5.4, pip3.11).
func lookupRunner(base string) *runner {
	table := runnerTable()
	if r, ok := table[base]; ok {
		return r
	}
	if stem := strings.TrimRight(base, "0123456789.-"); stem != base && stem != "" {
		return table[stem]
	}
	return nil
}

// command checks the program at p, run with the elements up to end.
func (c *runCheck) command(p, end int) {
	if p >= end {
		return
	}
	if c.literal[p] == nil {
		if c.runtime[p] {
			c.refuse(p, "Program taken from the arguments",
				"this element is the program that the command before it runs, so a value of the call could run any program on the server. Write the program in the config")
		}
		return
	}
	base := filepath.Base(*c.literal[p])
	r := lookupRunner(base)
	if r == nil {
		return
	}
	if r.stdin && c.stdin != nil && !r.script {
		c.stdinCommands(base)
	}
	if base == "xargs" && c.stdin != nil && end == len(c.elems) {
		c.taintXargs(p, r)
		end = len(c.elems) // with the element added for what xargs reads
	}
	c.read(r, base, p+1, end)
}

// stdinCommands refuses a stdin of the call given to a program that reads
// commands from it.
func (c *runCheck) stdinCommands(base string) {
	c.diags = append(c.diags, check.Error("Arguments run as code",
		fmt.Sprintf("%s reads commands from standard input, some of which run programs, and stdin is computed from the arguments, so a value of the call could run any command on the server. Give it its commands in the config (a script file written there) and keep values out of them. If the value is trusted, set allow_shell = true.", base),
		c.stdin.Range()))
}

// read walks the elements [i, end) after the program base.
func (c *runCheck) read(r *runner, base string, i, end int) {
	// An interpreter given no script and no code reads its script from
	// stdin.
	m := r.mode
	if r.script && r.stdin && c.stdin != nil {
		defer func() {
			if m.role == roleProgram && i >= end {
				c.stdinCommands(base)
			}
		}()
	}
	operand := 0
	optsOn := true
	var key *string // git config's key, once read
	for i < end {
		lit, text := c.literal[i], c.lead[i]
		if lit != nil {
			text = *lit
		}
		switch {
		case lit != nil && slices.Contains(r.execs, text):
			stop := i + 1
			for stop < end && !(c.literal[stop] != nil && (*c.literal[stop] == ";" || *c.literal[stop] == "+")) {
				stop++
			}
			c.command(i+1, stop)
			i = stop + 1
			continue
		case optsOn && lit != nil && text == "--":
			optsOn = false
			if mm, ok := r.modes["--"]; ok {
				m, operand = mm, 0
			}
			i++
			continue
		case optsOn && (len(text) > 1 && text[0] == '-' || lit != nil && text == "-" && r.opts["-"] == optFlag && hasKey(r.opts, "-")):
			var words []string
			i, words = c.option(r, &m, base, i, end)
			if words != nil {
				c.splitCommand(i, end, words)
				return
			}
			continue
		case optsOn && c.runtime[i] && text == "" && c.allowOptions && r.hasSensitive():
			c.refuse(i, "Option chosen by the arguments",
				fmt.Sprintf("allow_options = true lets this value be an option of %s, and %s has options that run code, so a value of the call could run any command on the server. Take only option values from the arguments", base, base))
			i++
			continue
		case r.subs != nil && operand == 0:
			sub := &runner{}
			if lit != nil && r.subs[text] != nil {
				sub = r.subs[text]
			}
			r, m, optsOn = sub, sub.mode, true
			i++
			continue
		}
		if r.keyOperands {
			switch operand {
			case 0:
				key = lit
			case 1:
				if c.runtime[i] && (key == nil || r.codeKey(*key)) {
					c.refuse(i, "Arguments run as code", fmt.Sprintf("%s stores this value as a setting that names a command to run", base))
				}
			}
		}
		if operand >= m.skip {
			switch m.role {
			case roleCode:
				for j := i; j < end; j++ {
					if c.literal[j] != nil && slices.Contains(r.ends, *c.literal[j]) {
						break
					}
					if c.runtime[j] {
						c.refuse(j, "Arguments run as code", fmt.Sprintf("%s runs these elements as a command", base))
					}
				}
				return
			case roleProgram:
				if r.assigns && strings.Contains(text, "=") {
					if name, _, _ := strings.Cut(text, "="); c.runtime[i] {
						if d := riskyFromRuntime(c.s, name, c.elems[i], c.elems[i].Range(), false); d != nil {
							c.diags = append(c.diags, d)
						}
					}
					i++
					continue
				}
				if r.script {
					// a script or a name, whose command line is its own
					if lit == nil && c.runtime[i] {
						c.refuse(i, "Program taken from the arguments", fmt.Sprintf("%s runs the script, program or package this element names", base))
					}
					return
				}
				c.command(i, end)
				return
			}
		}
		if r.cmdLead != "" && optsOn && lit == nil && c.runtime[i] && (text == "" || strings.ContainsRune(r.cmdLead, rune(text[0]))) {
			c.refuse(i, "Arguments run as code",
				fmt.Sprintf("%s runs an operand starting with %s as one of its commands, and this one may start with a value of the call. Put \"--\" before it, or start it with text of the config such as a directory", base, quoteEach(r.cmdLead)))
		}
		if r.stop && operand >= m.skip {
			optsOn = false
		}
		operand++
		i++
	}
}

// option reads the option (or options, clustered) at i and returns the
// index after it and its value.
func (c *runCheck) option(r *runner, m *mode, base string, i, end int) (int, []string) {
	text, partial := c.lead[i], c.literal[i] == nil
	if !partial {
		text = *c.literal[i]
	}
	if strings.HasPrefix(text, "--") || r.longOnly || r.isSingleDashLong(text) {
		name, val, attached := strings.Cut(text, "=")
		kind, found := r.lookup(name)
		switch {
		case attached && found:
			r.applyMode(m, name)
			if partial {
				c.checkAttached(r, base, name, kind, val, i)
			} else if r.splits && kind == optCode {
				return i + 1, strings.Fields(val)
			}
			return i + 1, nil
		case attached:
			return i + 1, nil
		case partial:
			// The value of the call continues the option's name.
			if r.sensitivePrefix(name) {
				c.refuse(i, "Arguments run as code", fmt.Sprintf("a value of the call completes this option of %s, which could then be one that runs code", base))
			}
			return i + 1, nil
		case found:
			r.applyMode(m, name)
			if kind.takesValue() {
				c.checkValue(r, base, name, kind, i+1, end)
				return i + 2, c.split(r, kind, i+1, end)
			}
		}
		return i + 1, nil
	}
	for j := 1; j < len(text); j++ {
		name := "-" + text[j:j+1]
		kind := r.opts[name]
		r.applyMode(m, name)
		if !kind.takesValue() {
			continue
		}
		if rest := text[j+1:]; rest != "" || partial {
			if partial {
				c.checkAttached(r, base, name, kind, rest, i)
			} else if r.splits && kind == optCode {
				return i + 1, strings.Fields(rest)
			}
			return i + 1, nil
		}
		c.checkValue(r, base, name, kind, i+1, end)
		return i + 2, c.split(r, kind, i+1, end)
	}
	if partial && r.hasSensitiveShort() {
		c.refuse(i, "Arguments run as code", fmt.Sprintf("a value of the call continues this cluster of options of %s, so it could add one that runs code", base))
	}
	return i + 1, nil
}

// split returns the words of a written command line given to a splits
// runner as the value at j, or nil.
func (c *runCheck) split(r *runner, kind optKind, j, end int) []string {
	if !r.splits || kind != optCode || j >= end || c.literal[j] == nil {
		return nil
	}
	return strings.Fields(*c.literal[j])
}

// splitCommand checks the command that words (from env -S) start, with
// the elements [i, end) after them: the first word is the program. The
// words are reported at the element after the option, or the option.
func (c *runCheck) splitCommand(i, end int, words []string) {
	if len(words) == 0 {
		return
	}
	at := c.elems[i-1]
	sub := &runCheck{s: c.s, stdin: c.stdin, allowOptions: c.allowOptions}
	for _, w := range words {
		sub.elems = append(sub.elems, at)
		sub.literal = append(sub.literal, &w)
		sub.runtime = append(sub.runtime, false)
		sub.lead = append(sub.lead, "")
	}
	sub.elems = append(sub.elems, c.elems[i:end]...)
	sub.literal = append(sub.literal, c.literal[i:end]...)
	sub.runtime = append(sub.runtime, c.runtime[i:end]...)
	sub.lead = append(sub.lead, c.lead[i:end]...)
	sub.command(0, len(sub.elems))
	c.diags = append(c.diags, sub.diags...)
}

// checkValue checks the option's value given as the element at j.
func (c *runCheck) checkValue(r *runner, base, name string, kind optKind, j, end int) {
	if j < end && c.runtime[j] && kind.sensitive() {
		c.checkAttached(r, base, name, kind, c.lead[j], j)
	}
}

// checkAttached checks an option's value that holds a value of the call
// after the text prefix.
func (c *runCheck) checkAttached(r *runner, base, name string, kind optKind, prefix string, i int) {
	switch kind {
	case optCode:
		c.refuse(i, "Arguments run as code", fmt.Sprintf("%s %s runs its value as code", base, name))
	case optProgram:
		c.refuse(i, "Program taken from the arguments", fmt.Sprintf("%s %s runs the program, script or package its value names", base, name))
	case optKeyed:
		key, _, ok := strings.Cut(prefix, "=")
		switch {
		case !ok:
			c.refuse(i, "Arguments run as code", fmt.Sprintf("%s %s takes a setting, and a value of the call chooses which: some settings are commands to run", base, name))
		case r.codeKey != nil && r.codeKey(key):
			c.refuse(i, "Arguments run as code", fmt.Sprintf("%s %s %s is a command to run, or may name one", base, name, key))
		}
	}
}

func (c *runCheck) refuse(i int, summary, why string) {
	c.diags = append(c.diags, check.Error(summary,
		why+". The value is then code from the caller, which could run any command on the server. Keep values of the call out of this element: pass them where the program reads them as data. If this is meant and the value is trusted, set allow_shell = true.",
		c.elems[i].Range()))
}

// taintXargs marks what xargs adds from standard input: the elements
// holding its placeholder (-I), or else a last element of its own.
func (c *runCheck) taintXargs(p int, r *runner) {
	placeholder, cmd := "", -1
	for j := p + 1; j < len(c.elems) && cmd < 0; j++ {
		l := c.literal[j]
		switch {
		case l == nil || !strings.HasPrefix(*l, "-"):
			cmd = j
		case *l == "-I" && j+1 < len(c.elems) && c.literal[j+1] != nil:
			placeholder = *c.literal[j+1]
			j++
		case strings.HasPrefix(*l, "-I"):
			placeholder = (*l)[2:]
		case *l == "-i" || *l == "--replace":
			placeholder = "{}"
		case strings.HasPrefix(*l, "--replace="):
			placeholder = strings.TrimPrefix(*l, "--replace=")
		case r.opts[*l].takesValue():
			j++
		}
	}
	if cmd < 0 {
		return
	}
	if placeholder == "" {
		c.elems = append(c.elems, c.stdin)
		c.literal = append(c.literal, nil)
		c.runtime = append(c.runtime, true)
		c.lead = append(c.lead, "")
		return
	}
	for j := cmd; j < len(c.elems); j++ {
		if l := c.literal[j]; l != nil && strings.Contains(*l, placeholder) {
			c.lead[j], _, _ = strings.Cut(*l, placeholder)
			c.literal[j], c.runtime[j] = nil, true
		}
	}
}

func hasKey(m map[string]optKind, k string) bool { _, ok := m[k]; return ok }

func quoteEach(chars string) string {
	var q []string
	for _, r := range chars {
		q = append(q, fmt.Sprintf("%q", string(r)))
	}
	return strings.Join(q, " or ")
}

func (r *runner) applyMode(m *mode, name string) {
	if mm, ok := r.modes[name]; ok {
		*m = mm
	}
}

// lookup finds an option by name, or a long option by an abbreviation,
// which getopt_long accepts: one that may stand for a sensitive option is
// read as that one.
func (r *runner) lookup(name string) (optKind, bool) {
	if k, ok := r.opts[name]; ok {
		return k, true
	}
	if !strings.HasPrefix(name, "--") || len(name) < 4 {
		return optFlag, false
	}
	found, kind := false, optFlag
	for o, k := range r.opts {
		if strings.HasPrefix(o, name) {
			if !found || k.sensitive() {
				kind = k
			}
			found = true
		}
	}
	return kind, found
}

// isSingleDashLong reports a name such as gdb's -ex or zip's -TT.
func (r *runner) isSingleDashLong(text string) bool {
	name, _, _ := strings.Cut(text, "=")
	return len(name) > 2 && name[1] != '-' && hasKey(r.opts, name)
}

// sensitivePrefix reports whether a long option's name starting with
// prefix could be one whose value runs code.
func (r *runner) sensitivePrefix(prefix string) bool {
	for o, k := range r.opts {
		if k.sensitive() && len(o) > 2 && (strings.HasPrefix(o, prefix) || strings.HasPrefix(prefix, o)) {
			return true
		}
	}
	return false
}

func (r *runner) hasSensitive() bool {
	for _, k := range r.opts {
		if k.sensitive() {
			return true
		}
	}
	return false
}

func (r *runner) hasSensitiveShort() bool {
	for o, k := range r.opts {
		if k.sensitive() && len(o) == 2 {
			return true
		}
	}
	return false
}
