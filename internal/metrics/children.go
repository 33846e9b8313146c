package metrics

import "sync"

// maxChildren bounds a children cache. The label values are the
// configuration's, but reloads may bring new names, so a full cache
// starts over; the metrics themselves keep every series.
const maxChildren = 4096

// children keeps the series of a metric vector by their label values, so
// that a call does not look them up again: the vector's own lookup
// hashes and checks every label value (UTF-8) on each use, which costs
// more than counting.
type children[K comparable, V any] struct {
	mu     sync.RWMutex
	m      map[K]V
	series func(K) V // looks a series up in the vector
}

func newChildren[K comparable, V any](series func(K) V) *children[K, V] {
	return &children[K, V]{m: make(map[K]V), series: series}
}

// of is the series of the label values k.
func (c *children[K, V]) of(k K) V {
	c.mu.RLock()
	v, ok := c.m[k]
	c.mu.RUnlock()
	if ok {
		return v
	}
	v = c.series(k)
	c.mu.Lock()
	if len(c.m) >= maxChildren {
		c.m = make(map[K]V)
	}
	c.m[k] = v
	c.mu.Unlock()
	return v
}
