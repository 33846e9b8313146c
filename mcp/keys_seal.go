package mcp

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"sync"
)

// ErrUnsealed is Open's answer for anything it cannot open: made under
// another key or purpose, bound to other associated data, altered, or not
// sealed at all. The causes are not told apart, so an answer teaches a
// forger nothing.
var ErrUnsealed = errors.New("mcp: not sealed by these keys for this purpose and caller")

// sealKeys are the AEADs of one key ring, by purpose: each purpose has its
// own key derived from every state key by HKDF-SHA256, so that what is
// sealed for one use (a session id) is never accepted for another (a
// request state), and the raw state key signs nothing directly.
type sealKeys struct {
	ring  [][]byte
	mu    sync.Mutex
	byUse map[string][]cipher.AEAD
}

func (s *sealKeys) aeads(purpose string) []cipher.AEAD {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a, ok := s.byUse[purpose]; ok {
		return a
	}
	out := make([]cipher.AEAD, 0, len(s.ring))
	for _, key := range s.ring {
		derived, err := hkdf.Key(sha256.New, key, nil, "mcpdecl seal "+purpose, 32)
		if err != nil {
			panic("mcp: deriving a sealing key: " + err.Error())
		}
		block, _ := aes.NewCipher(derived) // 32 bytes: AES-256, never an error
		gcm, _ := cipher.NewGCM(block)
		out = append(out, gcm)
	}
	if s.byUse == nil {
		s.byUse = map[string][]cipher.AEAD{}
	}
	s.byUse[purpose] = out
	return out
}

// Seal encrypts and authenticates plaintext with AES-256-GCM under the
// first key's derivation for purpose, binding it to ad (which is not
// stored: Open must be given the same ad). The result is the random nonce
// followed by the ciphertext; nothing of plaintext can be read from it.
// Nonces are random (96 bits), so one key should seal fewer than 2^32
// messages; a rotation (a new first key) starts afresh.
func (k *Keys) Seal(purpose string, plaintext, ad []byte) []byte {
	aead := k.sealing().aeads(purpose)[0]
	out := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plaintext)+aead.Overhead())
	if _, err := rand.Read(out); err != nil {
		panic("mcp: no randomness for a nonce: " + err.Error())
	}
	return aead.Seal(out, out, plaintext, ad)
}

// Open returns the plaintext of what Seal made for purpose and ad under
// any of the keys, so that what was sealed before a rotation still opens
// while its key stays in the list.
func (k *Keys) Open(purpose string, sealed, ad []byte) ([]byte, error) {
	for _, aead := range k.sealing().aeads(purpose) {
		n := aead.NonceSize()
		if len(sealed) < n+aead.Overhead() {
			return nil, ErrUnsealed
		}
		if out, err := aead.Open(nil, sealed[:n], sealed[n:], ad); err == nil {
			return out, nil
		}
	}
	return nil, ErrUnsealed
}
