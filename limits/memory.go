package limits

import (
	"context"
	"sync"
	"time"
)

// Memory keeps buckets in this process. Buckets untouched for longer than
// they take to fill are dropped, a sweep at most every sweepEvery.
type Memory struct {
	mu        sync.Mutex
	buckets   map[string]*bucket
	lastSweep time.Time
	now       func() time.Time
}

type bucket struct {
	tokens float64
	at     time.Time
	full   time.Duration
}

const sweepEvery = time.Minute

// NewMemory returns an empty store.
func NewMemory() *Memory {
	return &Memory{buckets: map[string]*bucket{}, now: time.Now}
}

// Take implements Store.
func (m *Memory) Take(_ context.Context, key string, b Bucket) (Decision, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	bk := m.buckets[key]
	if bk == nil {
		bk = &bucket{tokens: float64(b.Burst), at: now}
		m.buckets[key] = bk
	}
	var d Decision
	bk.tokens, d = refill(bk.tokens, now.Sub(bk.at), b)
	bk.at, bk.full = now, b.fullAfter()
	if m.lastSweep.IsZero() {
		m.lastSweep = now
	}
	if now.Sub(m.lastSweep) > sweepEvery {
		m.sweep(now)
	}
	return d, nil
}

// Return implements Store.
func (m *Memory) Return(_ context.Context, key string, b Bucket) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if bk := m.buckets[key]; bk != nil {
		bk.tokens = min(float64(b.Burst), bk.tokens+1)
	}
	return nil
}

// sweep drops the buckets that are full again.
func (m *Memory) sweep(now time.Time) {
	m.lastSweep = now
	for k, bk := range m.buckets {
		if now.Sub(bk.at) > bk.full {
			delete(m.buckets, k)
		}
	}
}

// Len is the number of buckets kept.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.buckets)
}

// Close implements Store.
func (m *Memory) Close() error { return nil }
