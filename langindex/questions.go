package langindex

import "fmt"

// questionKinds are the blocks that ask the client before the call;
// each answer is answers.<key>.
var questionKinds = map[string]bool{"elicit": true, "sample": true, "roots": true}

// questions declares the keys of an owner's questions: the key attribute,
// or the default ("elicit", "elicit2", ...), which is declared at the
// block's type and cannot be renamed there.
func (c *collector) questions(sym *Symbol, scope string, n *node) {
	count := map[string]int{}
	for _, b := range n.blocks {
		if !questionKinds[b.typ] {
			continue
		}
		count[b.typ]++
		if a := b.attr("key"); a != nil {
			if lits := c.strings(a.expr); len(lits) == 1 {
				s := lits[0]
				c.declare(sym, KindQuestion, scope, label{s.text, c.lines.rng(c.name, s.from, s.to)}, b.rng)
			}
			continue
		}
		name := b.typ
		if count[b.typ] > 1 {
			name = fmt.Sprintf("%s%d", b.typ, count[b.typ])
		}
		q := c.declare(sym, KindQuestion, scope, label{name, b.typeRange}, b.rng)
		q.implicit = true
	}
}
