package lint

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// effect is what a call may do to the world it reaches.
type effect int

const (
	reads    effect = iota
	mayWrite        // a command: nothing tells what it does
	writes
)

// statementWriter is implemented by actions whose statement tells
// whether it writes (the sql adapter's: a statement a read-only call
// would refuse). Their ChangesNothing says only whether the statement
// runs in a read-only transaction.
type statementWriter interface {
	Writes() bool
}

// effectOf judges a call by what its adapter knows: the SQL statement, an
// HTTP method's safety; an action that can tell neither may write.
func effectOf(a adapter.Action) effect {
	if sw, ok := a.(statementWriter); ok {
		if sw.Writes() {
			return writes
		}
		return reads
	}
	if ro, ok := a.(adapter.ReadOnlyAction); ok {
		if ro.ChangesNothing() {
			return reads
		}
		return writes
	}
	return mayWrite
}

// call is one call a block makes (a step's or its own), with where it is
// written.
type call struct {
	action adapter.Action
	at     hcl.Range // the call block's type and label: http "api"
}

// toolCalls lists a tool's calls: its steps' then its own.
func toolCalls(t *lang.Tool, dt *table.Tool) []call {
	out := stepCalls(t.Steps, dt.Steps)
	if t.Call != nil && dt.Action != nil {
		out = append(out, call{dt.Action, callRange(t.Call)})
	}
	return out
}

func stepCalls(steps []*lang.Step, compiled []*table.Step) []call {
	byName := map[string]*table.Step{}
	for _, s := range compiled {
		byName[s.Name] = s
	}
	var out []call
	for _, s := range steps {
		if ds := byName[s.Name]; ds != nil && ds.Action != nil && s.Call != nil {
			out = append(out, call{ds.Action, callRange(s.Call)})
		}
	}
	return out
}

func callRange(c *lang.Call) hcl.Range {
	if c.Backend != "" {
		return hcl.RangeBetween(c.TypeRange, c.BackendRange)
	}
	return c.TypeRange
}

// strongest returns the call that may do the most, and what.
func strongest(calls []call) (call, effect) {
	var best call
	most := reads
	for _, c := range calls {
		if e := effectOf(c.action); e > most || best.action == nil {
			best, most = c, max(most, e)
		}
	}
	return best, most
}

func (c *checker) checkWrites() {
	for _, t := range c.cfg.Tools {
		dt := c.items.tools[keyOf(t.DeclRange)]
		if dt == nil {
			continue
		}
		c.checkToolHints(t, dt)
	}
}

func (c *checker) checkToolHints(t *lang.Tool, dt *table.Tool) {
	worst, eff := strongest(toolCalls(t, dt))
	if eff == reads {
		return
	}
	var ann *lang.Annotations
	if len(t.Annotations) > 0 {
		ann = t.Annotations[0]
	}
	readOnly, _ := dt.Annotations["readOnlyHint"].(bool)
	switch {
	case readOnly && eff == writes:
		c.report(CodeReadOnlyWrites, t.Lint, ann.ReadOnly.Range,
			"The tool %q is annotated read_only = true, but its call %s at %s writes (%s); clients run read-only tools without asking. Set read_only = false with destructive and idempotent, or make the call read.",
			t.Name, callName(worst), worst.at, doing(worst.action))
	case !readOnly && (ann == nil || ann.Destructive == nil && ann.Idempotent == nil):
		c.report(CodeWriteWithoutHints, t.Lint, worst.at,
			"The tool %q %s but says neither whether that destroys data nor whether calling it twice is harmless, so clients assume the worst. Add an annotations block that sets destructive and idempotent (each true or false), or read_only = true if it changes nothing.",
			t.Name, doingSentence(worst.action, eff))
	}
}

func callName(cl call) string {
	d := cl.action.Describe()
	kind, _ := d["kind"].(string)
	if b, ok := d["backend"].(string); ok && b != "" {
		return fmt.Sprintf("%s %q", kind, b)
	}
	return kind
}

// doing says what a writing call does, from its settings.
func doing(a adapter.Action) string {
	d := a.Describe()
	if m, ok := d["method"].(string); ok {
		return "HTTP " + m
	}
	if q, ok := d["query"].(string); ok {
		return "SQL " + firstWord(q)
	}
	if cmd, ok := d["command"].([]any); ok && len(cmd) > 0 {
		return fmt.Sprint(cmd[0])
	}
	if t, ok := d["tool"].(string); ok {
		return fmt.Sprintf("the MCP tool %q", t)
	}
	return "a call"
}

func doingSentence(a adapter.Action, eff effect) string {
	if eff == mayWrite {
		if _, remote := a.Describe()["tool"]; remote {
			return fmt.Sprintf("calls %s, which may change things,", doing(a))
		}
		return fmt.Sprintf("runs the command %s, which may change things,", doing(a))
	}
	return fmt.Sprintf("writes (%s)", doing(a))
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return strings.ToUpper(f[0])
	}
	return ""
}
