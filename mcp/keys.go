package mcp

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"sync/atomic"
)

// MinKeyLen is the shortest signing key accepted: 32 bytes, the size of
// the HMAC-SHA256 output, below which a key is easier to guess than a
// signature.
const MinKeyLen = 32

// Keys seal what the server hands a client to bring back later: a 2025
// session id without server-side state, and (in package server) the
// requestState of a 2026-07-28 multi-round call. The first key signs and
// seals, and every key is accepted. Replicas behind one load balancer share the keys,
// so the next request may land on any replica; during a rotation the
// previous key stays in the list until what it signed has expired.
type Keys struct {
	ring atomic.Pointer[sealKeys]
}

// NewKeys returns the keys; none means one random key, which suits a
// single process.
func NewKeys(keys [][]byte) (*Keys, error) {
	k := new(Keys)
	if err := k.Set(keys); err != nil {
		return nil, err
	}
	return k, nil
}

// Set replaces the keys, as a reload does after a rotation; what was
// signed with a key still in the list stays valid.
func (k *Keys) Set(keys [][]byte) error {
	if len(keys) == 0 {
		keys = [][]byte{randomKey()}
	}
	ring := make([][]byte, 0, len(keys))
	for _, key := range keys {
		if len(key) < MinKeyLen {
			return errors.New("a signing key must be at least 32 bytes")
		}
		ring = append(ring, append([]byte(nil), key...))
	}
	k.ring.Store(&sealKeys{ring: ring})
	return nil
}

// Sign returns the MAC of the message parts under the first key.
func (k *Keys) Sign(parts ...string) []byte {
	return keyMAC(k.ring.Load().ring[0], parts)
}

// Verify reports whether mac was made by one of the keys over parts.
func (k *Keys) Verify(mac []byte, parts ...string) bool {
	ok := false
	for _, key := range k.ring.Load().ring {
		// Every key is tried, so the time taken does not tell which matched.
		if hmac.Equal(mac, keyMAC(key, parts)) {
			ok = true
		}
	}
	return ok
}

// keyMAC joins the parts with NUL bytes, so that no two lists of parts
// without NULs sign the same bytes.
func keyMAC(key []byte, parts []string) []byte {
	h := hmac.New(sha256.New, key)
	for i, p := range parts {
		if i > 0 {
			h.Write([]byte{0})
		}
		h.Write([]byte(p))
	}
	return h.Sum(nil)
}

// sealing is the current ring, whose derived keys are made once per
// purpose; Set replaces it whole.
func (k *Keys) sealing() *sealKeys { return k.ring.Load() }

func randomKey() []byte {
	key := make([]byte, MinKeyLen)
	if _, err := rand.Read(key); err != nil {
		panic("mcp: no randomness for a signing key: " + err.Error())
	}
	return key
}
