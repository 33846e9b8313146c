package lint

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/lang"
	"github.com/mcpdecl/mcpdecl/table"
)

// actionsByBackend groups every compiled call of the table (calls, steps,
// completions) by the backend it names.
func actionsByBackend(t *table.Table) map[string][]adapter.Action {
	out := map[string][]adapter.Action{}
	add := func(a adapter.Action) {
		if a == nil {
			return
		}
		if name, ok := a.Describe()["backend"].(string); ok && name != "" {
			out[name] = append(out[name], a)
		}
	}
	addSteps := func(steps []*table.Step) {
		for _, s := range steps {
			add(s.Action)
		}
	}
	addArgs := func(args *table.Args) {
		if args == nil {
			return
		}
		for _, a := range args.List {
			if a.Complete != nil {
				add(a.Complete.Action)
			}
		}
	}
	for _, x := range t.Tools {
		add(x.Action)
		addSteps(x.Steps)
		addArgs(x.Args)
	}
	for _, x := range t.Resources {
		add(x.Action)
		addSteps(x.Steps)
	}
	for _, x := range t.Templates {
		add(x.Action)
		addSteps(x.Steps)
		addArgs(x.Args)
	}
	for _, x := range t.Prompts {
		addSteps(x.Steps)
		addArgs(x.Args)
	}
	return out
}

// checkBackends reports backends no call uses, and SQL backends opened
// for writes that only ever read.
func (c *checker) checkBackends(used map[string][]adapter.Action) {
	for _, b := range c.cfg.Backends {
		calls := used[b.Name]
		if len(calls) == 0 {
			c.report(CodeUnusedBackend, b.Lint, b.NameRange,
				"No call uses the backend %q. Remove it, or name it in a call block: %s %q { ... }.", b.Name, b.Kind, b.Name)
			continue
		}
		c.checkWritable(b, calls)
	}
}

// checkWritable reports an SQL backend with read_only = false all of
// whose calls only read: the backend itself would let the database refuse
// writes (a read-only connection, default_transaction_read_only), a
// boundary a statement's text cannot cross.
func (c *checker) checkWritable(b *lang.Backend, calls []adapter.Action) {
	compiled := c.table.Backends[b.Name]
	if compiled == nil {
		return
	}
	if ro, ok := compiled.Describe()["read_only"].(bool); !ok || ro {
		return
	}
	for _, a := range calls {
		sw, ok := a.(statementWriter)
		if !ok || sw.Writes() {
			return
		}
	}
	c.report(CodeWritableBackend, b.Lint, readOnlyRange(b),
		"The backend %q sets read_only = false, but %s. Remove read_only = false, so that the database itself refuses writes.",
		b.Name, callsOnlyRead(len(calls)))
}

func callsOnlyRead(n int) string {
	if n == 1 {
		return "its one call only reads"
	}
	return fmt.Sprintf("all %d of its calls only read", n)
}

// readOnlyRange is where a backend sets read_only, else its name.
func readOnlyRange(b *lang.Backend) hcl.Range {
	content, _, _ := b.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "read_only"}}})
	if a := content.Attributes["read_only"]; a != nil {
		return a.Range
	}
	return b.NameRange
}
