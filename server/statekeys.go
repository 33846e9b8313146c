package server

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"errors"
)

// MinStateKeyLen is the shortest request-state key accepted: 32 bytes, the
// size of the HMAC-SHA256 output, below which a key is easier to guess
// than a signature.
const MinStateKeyLen = 32

// stateKeys signs request states with the first key and accepts a state
// signed with any of them. Replicas behind one load balancer share the
// keys, so a later round may land on any replica; during a rotation the
// previous key stays in the list until the states it signed have expired.
type stateKeys [][]byte

func newStateKeys(keys [][]byte) (stateKeys, error) {
	if len(keys) == 0 {
		return stateKeys{randomStateKey()}, nil
	}
	out := make(stateKeys, 0, len(keys))
	for _, k := range keys {
		if len(k) < MinStateKeyLen {
			return nil, errors.New("a request-state key must be at least 32 bytes")
		}
		out = append(out, append([]byte(nil), k...))
	}
	return out, nil
}

// sign returns the MAC of a state under the signing (first) key.
func (ks stateKeys) sign(payload, binding string) []byte {
	return stateMAC(ks[0], payload, binding)
}

// verify reports whether mac was made by one of the keys.
func (ks stateKeys) verify(mac []byte, payload, binding string) bool {
	ok := false
	for _, k := range ks {
		// Every key is tried, so the time taken does not tell which matched.
		if hmac.Equal(mac, stateMAC(k, payload, binding)) {
			ok = true
		}
	}
	return ok
}

func stateMAC(key []byte, payload, binding string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(payload + "\x00" + binding))
	return h.Sum(nil)
}

func randomStateKey() []byte {
	key := make([]byte, MinStateKeyLen)
	if _, err := rand.Read(key); err != nil {
		panic("server: no randomness for the request-state key: " + err.Error())
	}
	return key
}

// SetStateKeys replaces the request-state keys (see Options.StateKeys), as
// a reload does when the key file changed; states signed with a key that
// is still in the list stay valid. None means a new random key.
func (s *Server) SetStateKeys(keys [][]byte) error {
	ks, err := newStateKeys(keys)
	if err != nil {
		return err
	}
	s.stateKey.Store(&ks)
	return nil
}

func (s *Server) keys() stateKeys { return *s.stateKey.Load() }
