package auth

import (
	"crypto/sha256"
	"sync"
	"time"
)

// maxCacheAge bounds how long a verified token is trusted without being
// checked again, whatever its exp: a key the authorization server stops
// publishing, or a token it revokes, is honoured within this time.
const maxCacheAge = 5 * time.Minute

// tokenCache holds verified identities by the SHA-256 of their token (the
// token itself is never kept), each until its token expires or
// maxCacheAge passes. It is bounded: when full, expired entries are swept
// and, if that frees nothing, a tenth of them is evicted at random.
type tokenCache struct {
	mu      sync.Mutex
	max     int
	entries map[[32]byte]cacheEntry
}

type cacheEntry struct {
	id    *Identity
	until time.Time
}

func newTokenCache(max int) *tokenCache {
	return &tokenCache{max: max, entries: make(map[[32]byte]cacheEntry)}
}

func hashToken(token string) [32]byte { return sha256.Sum256([]byte(token)) }

func (c *tokenCache) get(key [32]byte, now time.Time) *Identity {
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if !ok || !now.Before(e.until) {
		return nil
	}
	return e.id
}

func (c *tokenCache) put(key [32]byte, id *Identity, until, now time.Time) {
	if limit := now.Add(maxCacheAge); until.After(limit) {
		until = limit
	}
	if !now.Before(until) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= c.max {
		c.sweepLocked(now)
	}
	c.entries[key] = cacheEntry{id: id, until: until}
}

func (c *tokenCache) sweepLocked(now time.Time) {
	for k, e := range c.entries {
		if !now.Before(e.until) {
			delete(c.entries, k)
		}
	}
	// Still full of live entries: evict a tenth at random (map order), so
	// the next puts do not sweep again.
	for k := range c.entries {
		if len(c.entries) < c.max-c.max/10 {
			return
		}
		delete(c.entries, k)
	}
}
