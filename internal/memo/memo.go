// Package memo keeps values made from keys, so that a hot path makes each
// one once: a span's name from a method and a configured name, a metric's
// series from its label values.
package memo

import "sync"

// Max bounds what a Memo keeps. Its keys come from the configuration, but
// reloads may bring new ones, so a full Memo starts over rather than grow
// without end.
const Max = 4096

// Memo is a map from keys to the values its make function gives them,
// filled on first use and safe for concurrent use.
type Memo[K comparable, V any] struct {
	mu   sync.RWMutex
	m    map[K]V
	make func(K) V
}

// New returns an empty Memo whose values make makes.
func New[K comparable, V any](make func(K) V) *Memo[K, V] {
	return &Memo[K, V]{m: map[K]V{}, make: make}
}

// Get is the value of k, made on its first use.
func (c *Memo[K, V]) Get(k K) V {
	c.mu.RLock()
	v, ok := c.m[k]
	c.mu.RUnlock()
	if ok {
		return v
	}
	v = c.make(k)
	c.mu.Lock()
	if len(c.m) >= Max {
		c.m = map[K]V{}
	}
	c.m[k] = v
	c.mu.Unlock()
	return v
}

// Len is how many values the Memo keeps.
func (c *Memo[K, V]) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}
