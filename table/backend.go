package table

import (
	"fmt"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/internal/diagcode"
	"github.com/mcpdecl/mcpdecl/internal/english"
	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/lang"
)

func (c *compiler) compileBackends() {
	c.backends = map[string]*lang.Backend{}
	for _, b := range c.cfg.Backends {
		a, ok := c.reg.Lookup(b.Kind)
		if !ok {
			d := errorf(b.KindRange, "Unknown backend kind",
				"There is no backend kind %q; the kinds are %s.%s", b.Kind, listNames(c.reg.Names()), rule.DidYouMean(b.Kind, c.reg.Names()))
			c.add(hcl.Diagnostics{suggestLabel(d, rule.Closest(b.Kind, c.reg.Names()), b.KindRange)})
			continue
		}
		c.backends[b.Name] = b
		callerScope := c.withAuth(c.scope(nil, ""), map[string]bool{})
		compiled, d := a.CompileBackend(&adapter.BackendBlock{Name: b.Name, Body: b.Body, DeclRange: b.DeclRange, Scope: c.scope(nil, ""), CallerScope: callerScope})
		c.add(d)
		if compiled != nil {
			c.table.Backends[b.Name] = compiled
			c.checkActsForCaller(b, compiled)
		}
	}
}

// compileCall hands a call block to its adapter. It returns nil when the
// block is wrong; the reasons are in the diagnostics.
func (c *compiler) compileCall(call *lang.Call, owner string, scope *adapter.Scope) adapter.Action {
	return c.compileCallWithin(call, owner, scope, 0)
}

// compileCallWithin is compileCall for a call whose owner sets a deadline
// (a tool's timeout), which the adapter must allow for.
func (c *compiler) compileCallWithin(call *lang.Call, owner string, scope *adapter.Scope, timeout time.Duration) adapter.Action {
	a, ok := c.reg.Lookup(call.Kind)
	if !ok {
		c.add(hcl.Diagnostics{errorf(call.TypeRange, "Unknown call kind", "There is no adapter for %q calls.", call.Kind)})
		return nil
	}
	block := &adapter.CallBlock{Owner: owner, Body: call.Body, DeclRange: call.DeclRange, TypeRange: call.TypeRange, Scope: scope, Timeout: timeout}
	if call.Backend == "" && !a.Info().NeedsBackend {
		call = c.namedBackend(call)
	}
	if call.Backend != "" || a.Info().NeedsBackend {
		backend, ok := c.lookupBackend(call)
		if !ok {
			c.checkBodyRefs(call.Body, scope)
			return nil
		}
		block.Backend = backend
	}
	if needs := adapter.NeedsOf(block.Backend); needs != nil {
		c.callsForCaller(call, owner, scope, needs)
	}
	action, d := a.CompileCall(block)
	c.add(d)
	return action
}

func (c *compiler) lookupBackend(call *lang.Call) (adapter.Backend, bool) {
	decl, ok := c.backends[call.Backend]
	if !ok {
		var same []string
		for _, b := range c.cfg.Backends {
			if b.Kind == call.Kind && hclsyntax.ValidIdentifier(b.Name) { // never offer a name refused where it is declared
				same = append(same, b.Name)
			}
		}
		detail := fmt.Sprintf("No backend %q { ... } block is named %q.", call.Kind, call.Backend)
		if s := rule.DidYouMean(call.Backend, same); s != "" {
			detail += s
		} else if len(same) > 0 {
			detail += fmt.Sprintf(" The %s backends are %s.", call.Kind, listNames(same))
		} else {
			detail += fmt.Sprintf(" Declare one, as in backend %q %q { ... }.", call.Kind, call.Backend)
		}
		c.add(hcl.Diagnostics{suggestLabel(errorf(call.BackendRange, "Unknown backend", "%s", detail), rule.Closest(call.Backend, same), call.BackendRange)})
		return nil, false
	}
	if decl.Kind != call.Kind {
		c.add(hcl.Diagnostics{diagcode.Relate(errorf(call.BackendRange, "Wrong backend kind",
			"The backend %q is %s backend (declared at %s), so %s call cannot use it.", call.Backend, english.A(decl.Kind), decl.DeclRange, english.A(call.Kind)), decl.DeclRange)})
		return nil, false
	}
	b, ok := c.table.Backends[call.Backend]
	return b, ok // not ok: the backend block itself has errors, already reported
}

func listNames(names []string) string {
	out := ""
	for i, n := range names {
		switch {
		case i == 0:
		case i == len(names)-1:
			out += " and "
		default:
			out += ", "
		}
		out += fmt.Sprintf("%q", n)
	}
	return out
}

func (c *compiler) compileIcons(icons []*lang.Icon) []Icon {
	var out []Icon
	for _, ic := range icons {
		icon := Icon{Src: c.staticString(ic.Src), MimeType: c.staticString(ic.MimeType), Theme: c.staticString(ic.Theme)}
		if v := c.staticValue(ic.Sizes, cty.List(cty.String)); v != cty.NilVal && v.IsWhollyKnown() && !v.IsNull() {
			for _, s := range v.AsValueSlice() {
				icon.Sizes = append(icon.Sizes, s.AsString())
			}
		}
		if icon.Theme != "" && icon.Theme != "light" && icon.Theme != "dark" {
			c.add(hcl.Diagnostics{errorf(ic.Theme.Expr.Range(), "Invalid icon theme", "An icon theme is \"light\" or \"dark\".")})
		}
		out = append(out, icon)
	}
	return out
}

// checkBodyRefs checks the references of every attribute in a call body
// whose adapter cannot compile it (its backend is unknown), so that one run
// still reports misspelt names inside.
func (c *compiler) checkBodyRefs(body hcl.Body, scope *adapter.Scope) {
	b, ok := body.(*hclsyntax.Body)
	if !ok {
		return
	}
	for _, attr := range b.Attributes {
		c.add(eval.CheckRefs(attr.Expr, scope.Names))
	}
	for _, blk := range b.Blocks {
		c.checkBodyRefs(blk.Body, scope)
	}
}

// namedBackend returns call with the backend its body names in a
// `backend = "name"` attribute, for call kinds whose block has no label
// (shell). Without one it returns call unchanged.
func (c *compiler) namedBackend(call *lang.Call) *lang.Call {
	content, _, _ := call.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "backend"}}})
	attr, ok := content.Attributes["backend"]
	if !ok {
		return call
	}
	v, d := attr.Expr.Value(nil)
	if d.HasErrors() || v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), "Invalid backend name", "backend names %s backend block with a literal string, as in backend = \"tools\".", english.A(call.Kind))})
		return call
	}
	named := *call
	named.Backend, named.BackendRange = v.AsString(), attr.Expr.Range()
	return &named
}
