package table

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/lang"
)

// The cacheScope values of 2026-07-28 results: a public result may be
// shared between authorization contexts by a cache, a private one is for
// the caller alone.
const (
	CachePublic  = "public"
	CachePrivate = "private"
)

// defaultCacheScope is the server's scope when its block sets none: with
// an auth block every answer is taken to depend on who asks, unless the
// configuration says otherwise.
func (c *compiler) defaultCacheScope() string {
	if c.cfg.Auth != nil {
		return CachePrivate
	}
	return CachePublic
}

// cacheScopeAttr checks a cache_scope attribute; "" when it is absent or
// wrong (the error is reported).
func (c *compiler) cacheScopeAttr(attr *hcl.Attribute) string {
	if attr == nil {
		return ""
	}
	n := len(c.diags)
	v := c.staticString(attr)
	if len(c.diags) > n {
		return "" // not a static string: reported
	}
	if v != CachePublic && v != CachePrivate {
		c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), "Invalid cache_scope",
			"cache_scope is %q or %q, not %q.", CachePublic, CachePrivate, v)})
		return ""
	}
	return v
}

// cacheScope is the scope of a resource or template: private whenever its
// answer depends on the caller (it reads auth.*, or a backend it calls
// forwards the caller's request headers), where writing "public" is an
// error; else its own cache_scope, else the server's. what names it for
// messages ("The resource \"x\"").
func (c *compiler) cacheScope(attr *hcl.Attribute, what string, usesIdentity bool, call *lang.Call, steps []*lang.Step) string {
	own := c.cacheScopeAttr(attr)
	why := ""
	if usesIdentity {
		why = "reads auth.* (the caller's identity)"
	} else if b := c.forwardingBackend(call, steps); b != "" {
		why = fmt.Sprintf("calls the backend %q, which forwards the caller's request headers", b)
	}
	if why == "" {
		if own != "" {
			return own
		}
		return c.table.Server.CacheScope
	}
	if own == CachePublic {
		c.add(hcl.Diagnostics{errorf(attr.Expr.Range(), "Per-caller answer marked public",
			"%s %s, so its answer depends on who asks and a cache must not share it with others. Remove cache_scope = %q: it is %q.", what, why, CachePublic, CachePrivate)})
	}
	return CachePrivate
}

// forwardingBackend names a backend of call or steps that forwards inbound
// request headers (forward_headers); "" when none does.
func (c *compiler) forwardingBackend(call *lang.Call, steps []*lang.Step) string {
	calls := []*lang.Call{call}
	for _, s := range steps {
		calls = append(calls, s.Call)
	}
	for _, cl := range calls {
		if cl == nil || cl.Backend == "" {
			continue
		}
		be := c.table.Backends[cl.Backend]
		if be == nil {
			continue
		}
		if fwd, _ := be.Describe()["forward_headers"].([]any); len(fwd) > 0 {
			return cl.Backend
		}
	}
	return ""
}
