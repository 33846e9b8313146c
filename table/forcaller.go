package table

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/internal/english"
	"github.com/mcpdecl/mcpdecl/lang"
)

// Backends that act for the caller (adapter.ForCaller): an HTTP backend
// exchanging the caller's token, an SQL backend running statements as the
// caller's database identity. They need a verified caller, so they need an
// auth block; every primitive calling one reads auth.* as far as the
// dispatcher is concerned, so a call without a verified token (stdio) is
// refused before anything runs.

// checkActsForCaller refuses a backend that acts for the caller in a
// configuration that checks no tokens, and has the auth block keep the
// verified token for a backend that exchanges it.
func (c *compiler) checkActsForCaller(b *lang.Backend, compiled adapter.Backend) {
	needs := adapter.NeedsOf(compiled)
	if needs == nil {
		return
	}
	if c.cfg.Auth == nil {
		c.add(hcl.Diagnostics{errorf(needs.DeclRange, "Acting for the caller without an auth block",
			"The backend %q has %s block, which acts for the caller of each call, and this configuration has no auth block, so no call ever carries a verified caller. Add an auth block (and serve over HTTP), or remove the %s block.",
			b.Name, english.A(needs.Block), needs.Block)})
		return
	}
	if needs.Token && c.table.Auth != nil {
		c.table.Auth.KeepToken = true
	}
}

// callsForCaller marks the owner of call (a tool, resource, template,
// prompt or one of their steps) as reading auth.*; a call whose owner
// cannot read it (a completion) is refused.
func (c *compiler) callsForCaller(call *lang.Call, owner string, scope *adapter.Scope, needs *adapter.CallerNeeds) {
	if scope != nil && scope.Names != nil {
		for _, ns := range scope.Names.Extra {
			if ns.Root == "auth" && ns.Used != nil {
				ns.Used["caller"] = true
				return
			}
		}
	}
	c.add(hcl.Diagnostics{errorf(call.DeclRange, "Backend acting for the caller",
		"The %s calls the backend %q, whose %s block acts for the caller, and no caller's identity reaches it here (completions are asked without one). Call another backend here.",
		owner, call.Backend, needs.Block)})
}
