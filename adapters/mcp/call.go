package mcpadapter

import (
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/adapters/internal/check"
)

// Action is a compiled `mcp "backend" { ... }` block: one remote tool.
type Action struct {
	// Owner names the enclosing block, e.g. `tool "search"`.
	Owner   string
	Range   hcl.Range
	Backend *Backend
	// Tool is the remote tool's name.
	Tool      string
	ToolRange hcl.Range
	// Arguments builds the remote call's arguments (an object); nil sends {}.
	Arguments hcl.Expression
	// Timeout is the call's own ("" in the block: the backend's).
	Timeout time.Duration

	summary *adapter.CallSummary
}

var _ adapter.Action = (*Action)(nil)

// Describe returns the call's static settings.
func (a *Action) Describe() map[string]any {
	d := map[string]any{"kind": Kind, "tool": a.Tool}
	if a.Backend != nil {
		d["backend"] = a.Backend.Name
	}
	if a.Timeout > 0 {
		d["timeout"] = a.Timeout.String()
	}
	return d
}

func compileCall(c *adapter.CallBlock) (*Action, hcl.Diagnostics) {
	s := c.Scope
	content, diags := c.Body.Content(CallSchema)
	a := content.Attributes
	act := &Action{Owner: c.Owner, Range: c.DeclRange}
	act.Backend, _ = c.Backend.(*Backend)

	if name, known, d := check.String(s, a["tool"], ""); known {
		diags = append(diags, d...)
		act.Tool, act.ToolRange = name, a["tool"].Expr.Range()
		if name == "" {
			diags = append(diags, check.Error("Empty tool name", "tool names the remote server's tool to call, as its tools/list shows it.", act.ToolRange))
		}
	} else {
		diags = append(diags, d...)
	}
	if attr := a["arguments"]; attr != nil {
		act.Arguments = attr.Expr
		v, d := s.CheckDynamic(attr, cty.DynamicPseudoType)
		diags = append(diags, d...)
		if ty := v.Type(); !d.HasErrors() && ty != cty.DynamicPseudoType && !ty.IsObjectType() && !ty.IsMapType() {
			diags = append(diags, check.Error("Arguments not an object",
				"arguments are the remote tool's arguments: an object, as in { message = args.text }.", attr.Expr.Range()))
		}
	}
	var d hcl.Diagnostics
	act.Timeout, d = check.Duration(s, a["timeout"], 0)
	diags = append(diags, d...)
	act.summary = act.summarize()
	return act, diags
}
