package table

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/limits"
)

// The scopes of a limit: whose calls share one bucket.
const (
	LimitPerCaller = "caller" // each caller its own bucket
	LimitPerTool   = "tool"   // each tool its own bucket, whoever calls
	LimitPerServer = "server" // one bucket for every call it covers
)

// Limit is a compiled limit block: a token bucket on tools/call.
type Limit struct {
	Name string
	// Per is LimitPerCaller, LimitPerTool or LimitPerServer.
	Per    string
	Bucket limits.Bucket
	// AllTools is set when the block lists no tools: it covers every
	// tool (of every endpoint, through call_tool too).
	AllTools  bool
	DeclRange hcl.Range

	members map[string]bool
}

// Covers reports whether a call of the tool named tool takes a token.
func (l *Limit) Covers(tool string) bool { return l.AllTools || l.members[tool] }

// compileLimits compiles the limit blocks, after the tools.
func (c *compiler) compileLimits() {
	var names []string
	for _, tool := range c.table.Tools {
		names = append(names, tool.Name)
	}
	for _, d := range c.cfg.Limits {
		what := fmt.Sprintf("The limit %q", d.Name)
		l := &Limit{Name: d.Name, DeclRange: d.DeclRange}
		l.Per = c.staticString(d.Per)
		if l.Per != LimitPerCaller && l.Per != LimitPerTool && l.Per != LimitPerServer && d.Per != nil {
			c.add(hcl.Diagnostics{errorf(d.Per.Expr.Range(), "Invalid limit scope",
				"%s has per = %q: use \"caller\" (a bucket per caller), \"tool\" (a bucket per tool) or \"server\" (one bucket).", what, l.Per)})
		}
		rate, err := limits.ParseRate(c.staticString(d.Rate))
		if err != nil && d.Rate != nil {
			c.add(hcl.Diagnostics{errorf(d.Rate.Expr.Range(), "Invalid limit rate", "%s: %v.", what, err)})
		}
		l.Bucket = limits.Bucket{Rate: rate, Burst: rate.Tokens}
		if d.Burst != nil {
			if v := c.staticValue(d.Burst, cty.Number); v != cty.NilVal && v.IsKnown() && !v.IsNull() {
				n, acc := v.AsBigFloat().Int64()
				if acc != 0 || n < 1 || n > 1_000_000 {
					c.add(hcl.Diagnostics{errorf(d.Burst.Expr.Range(), "Invalid limit burst",
						"%s has burst = %s: use a whole number of calls from 1 to 1000000.", what, v.AsBigFloat().String())})
				}
				l.Bucket.Burst = int(n)
			}
		}
		if d.Tools == nil {
			l.AllTools = true
		} else {
			l.members = c.toolEntries(d.Tools, what, names)
		}
		c.table.Limits = append(c.table.Limits, l)
	}
}

// LimitInspection is a limit block as mcpdecl inspect shows it.
type LimitInspection struct {
	Name  string `json:"name"`
	Per   string `json:"per"`
	Rate  string `json:"rate"`
	Burst int    `json:"burst"`
	// Tools are the tools it covers, absent when it covers every tool.
	Tools []string `json:"tools,omitempty"`
}

func inspectLimits(t *Table) []LimitInspection {
	var out []LimitInspection
	for _, l := range t.Limits {
		li := LimitInspection{Name: l.Name, Per: l.Per, Rate: l.Bucket.Rate.String(), Burst: l.Bucket.Burst}
		if !l.AllTools {
			li.Tools = []string{}
			for _, tool := range t.Tools {
				if l.members[tool.Name] {
					li.Tools = append(li.Tools, tool.Name)
				}
			}
		}
		out = append(out, li)
	}
	return out
}
