package table

import (
	"sync"

	"github.com/zclconf/go-cty/cty"
)

// compileMemo is what the items compiled at once share: the one copy of
// schemas, types and texts (shared), and what defaultProblem found.
type compileMemo struct {
	mu            sync.Mutex
	shared        shared
	defaultChecks map[string]string // by the JSON of the schema and the value
}

func (c *compiler) shareStr(x string) string {
	c.memo.mu.Lock()
	defer c.memo.mu.Unlock()
	return c.memo.shared.str(x)
}

func (c *compiler) shareStrs(list []string) []string {
	c.memo.mu.Lock()
	defer c.memo.mu.Unlock()
	return c.memo.shared.strs(list)
}

func (c *compiler) shareDoc(m map[string]any) map[string]any {
	c.memo.mu.Lock()
	defer c.memo.mu.Unlock()
	return c.memo.shared.doc(m)
}

func (c *compiler) shareType(t cty.Type) cty.Type {
	c.memo.mu.Lock()
	defer c.memo.mu.Unlock()
	return c.memo.shared.ctyType(t)
}

// fork is a compiler for one item compiled beside others: the same
// configuration and memo, its own findings and scratch state.
func (c *compiler) fork() *compiler {
	f := *c
	f.diags = nil
	f.pendingHeaders = nil
	if c.auth != nil {
		a := *c.auth
		a.usedScopes = map[string]bool{}
		f.auth = &a
	}
	return &f
}

// join takes in what a fork found.
func (c *compiler) join(f *compiler) {
	c.diags = append(c.diags, f.diags...)
	if f.auth != nil {
		for name := range f.auth.usedScopes {
			c.auth.usedScopes[name] = true
		}
	}
}
