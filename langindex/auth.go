package langindex

import "github.com/hashicorp/hcl/v2"

// auth indexes the auth block: its scopes and claims, declared by scope
// and claim blocks, and named by the lists and objects in it.
func (c *collector) auth(n *node) {
	parent := c.block(KindAuth, n)
	for _, b := range n.blocks {
		switch b.typ {
		case "scope":
			if len(b.labels) > 0 {
				c.declare(parent, KindScope, "", b.labels[0], b.rng)
			}
		case "claim":
			if len(b.labels) > 0 {
				c.declare(parent, KindClaim, "", b.labels[0], b.rng)
			}
		}
	}
}

// claimTraversal records the x of auth.claims.x in HCL; lit maps the
// offsets of a traversal read from a decoded string.
func (c *collector) claimTraversal(t hcl.Traversal, lit *literal) {
	if len(t) < 3 || t.RootName() != "auth" {
		return
	}
	claims, ok := t[1].(hcl.TraverseAttr)
	name, ok2 := t[2].(hcl.TraverseAttr)
	if !ok || !ok2 || claims.Name != "claims" {
		return
	}
	end := name.SrcRange.End.Byte
	from, to := end-len(name.Name), end
	if lit != nil {
		from, to = lit.span(from, to)
	}
	c.use(KindClaim, "", name.Name, c.lines.rng(c.name, from, to), false)
}
