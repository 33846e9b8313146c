package rule

import (
	"cmp"
	"slices"
	"strings"
)

// Redacted stands where a secret would have been written: in the server's
// log and messages, in error texts, and in a backend's answer that repeats
// a credential.
const Redacted = "[redacted]"

// MinSecretLen is the length of the shortest secret [Redact] replaces: a
// shorter one ("on", "1", "abc") would match ordinary text everywhere and
// protects nothing.
const MinSecretLen = 4

// Redact replaces every secret in s by [Redacted]. Longer secrets are
// replaced first, so that one holding another ("token-1234" and "1234")
// is replaced whole rather than leaving its other part behind. Secrets
// shorter than [MinSecretLen] (the empty one included) are ignored.
//
// Text without any secret is returned as it is, without allocating: that
// is the common case, and it costs one substring search per secret.
func Redact(s string, secrets []string) string {
	return redact(s, secrets)
}

// RedactEach is Redact with each list of secrets in turn (the server's own
// and a call's, say).
func RedactEach(s string, lists ...[]string) string {
	for _, list := range lists {
		s = redact(s, list)
	}
	return s
}

func redact(s string, secrets []string) string {
	if !holdsAny(s, secrets) {
		return s
	}
	if !longestFirst(secrets) {
		secrets = LongestFirst(secrets)
	}
	for _, sec := range secrets {
		if len(sec) >= MinSecretLen && strings.Contains(s, sec) {
			s = strings.ReplaceAll(s, sec, Redacted)
		}
	}
	return s
}

// LongestFirst returns a copy of secrets ordered longest first, the order
// in which [Redact] replaces them; secrets of one length keep their order.
func LongestFirst(secrets []string) []string {
	out := slices.Clone(secrets)
	slices.SortStableFunc(out, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return out
}

func holdsAny(s string, secrets []string) bool {
	for _, sec := range secrets {
		if len(sec) >= MinSecretLen && strings.Contains(s, sec) {
			return true
		}
	}
	return false
}

func longestFirst(secrets []string) bool {
	for i := 1; i < len(secrets); i++ {
		if len(secrets[i]) > len(secrets[i-1]) {
			return false
		}
	}
	return true
}
