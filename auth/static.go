package auth

import (
	"crypto/sha256"
	"crypto/subtle"
	"maps"
	"slices"
)

// staticToken is a configured token reduced to its SHA-256 digest, so
// every comparison is over 32 bytes whatever the lengths (a length
// difference cannot leak through timing) and the value itself is not kept.
type staticToken struct {
	digest [32]byte
	id     *Identity
}

func newStaticTokens(tokens []StaticToken) []staticToken {
	out := make([]staticToken, 0, len(tokens))
	for _, st := range tokens {
		claims := maps.Clone(st.Claims)
		if claims == nil {
			claims = map[string]any{}
		}
		out = append(out, staticToken{
			digest: sha256.Sum256([]byte(st.Token)),
			id:     &Identity{Subject: st.Name, Scopes: slices.Clone(st.Scopes), Claims: claims},
		})
	}
	return out
}

// matchStatic compares the token's digest d with every static token in constant time and
// without stopping at a match, so neither which token matched nor whether
// one did shows in the time taken.
func (v *Verifier) matchStatic(d [32]byte) *Identity {
	if len(v.static) == 0 {
		return nil
	}
	var found *Identity
	for i := range v.static {
		if subtle.ConstantTimeCompare(d[:], v.static[i].digest[:]) == 1 {
			found = v.static[i].id
		}
	}
	return found
}
