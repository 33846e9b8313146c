package tracing

import "sync"

// maxSpanNames bounds the span names kept: the names are the
// configuration's, but reloads may bring new ones, so the cache starts
// over rather than grow without end.
const maxSpanNames = 4096

// spanNames keeps the server spans' names ("tools/call search"), so that
// a call does not build its span's name again: every method and
// configured name pair is a string made once.
type spanNames struct {
	mu    sync.RWMutex
	names map[spanNameKey]string
}

type spanNameKey struct{ method, name string }

// of is the name of the span of a call of method on the configured name.
func (c *spanNames) of(method, name string) string {
	key := spanNameKey{method, name}
	c.mu.RLock()
	s, ok := c.names[key]
	c.mu.RUnlock()
	if ok {
		return s
	}
	s = method + " " + name
	c.mu.Lock()
	if c.names == nil || len(c.names) >= maxSpanNames {
		c.names = make(map[spanNameKey]string)
	}
	c.names[key] = s
	c.mu.Unlock()
	return s
}
