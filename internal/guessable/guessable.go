// Package guessable tells secrets a person or a template wrote from random
// ones: placeholder words, a key once shipped as an example, few distinct
// bytes, repeated patterns, sequences and small alphabets. The serving
// keys and the config's static tokens are both checked with it.
package guessable

import (
	"bytes"
	"math"
	"strconv"
	"strings"
)

// placeholderWords are the words of keys written by hand or copied from an
// example. Checked in the decoded bytes (a random 32-byte key spells one of
// these with a probability below 2^-150) and, for the longer ones, in the
// base64 text itself (a text placeholder that happens to be valid base64).
var placeholderWords = []string{
	"replace", "changeme", "change-me", "change_me", "secret", "example",
	"placeholder", "password", "passw0rd", "yourkey", "your-key", "your_key",
	"dummy", "sample", "default", "insecure", "testkey", "test-key",
}

// oldShippedKey is the base64 of the key deploy/kubernetes once shipped; anyone can read it.
const oldShippedKey = "cmVwbGFjZS1tZS13aXRoLW9wZW5zc2wtcmFuZC1iYXNlNjQtMzI="

// MinBits is the least entropy a key may appear to have: the bits per
// byte of the smallest alphabet its bytes fit (hex digits, letters, …)
// times its length.
const MinBits = 128

// Why says why a secret is not random enough, or "" when nothing shows it
// is guessable. text is the secret as written (a key's base64) and key its
// bytes (decoded); for a secret used as written, both are the same. Each test
// refuses keys a person or a template wrote, and none refuses a key of
// random bytes but with a probability far below 2^-64.
func Why(text string, key []byte) string {
	lower := bytes.ToLower(key)
	lowerText := strings.ToLower(text)
	if text == oldShippedKey {
		return "it is the example key once shipped in deploy/kubernetes, which anyone can read"
	}
	for _, w := range placeholderWords {
		if bytes.Contains(lower, []byte(w)) || (len(w) >= 6 && strings.Contains(lowerText, w)) {
			return "it holds the placeholder text " + `"` + w + `"`
		}
	}
	if n := distinctBytes(key); n < 10 {
		return "it has only " + strconv.Itoa(n) + " distinct bytes"
	}
	if period := repeatPeriod(key); period > 0 {
		return "it repeats a pattern of " + strconv.Itoa(period) + " bytes"
	}
	if sequential(key) {
		return "its bytes follow a sequence"
	}
	if bits := apparentBits(key); bits < MinBits {
		return "its bytes come from a small alphabet or read as words (about " + strconv.Itoa(int(bits)) + " bits of entropy; at least " + strconv.Itoa(MinBits) + " are needed)"
	}
	return ""
}

func distinctBytes(key []byte) int {
	var seen [256]bool
	n := 0
	for _, b := range key {
		if !seen[b] {
			seen[b] = true
			n++
		}
	}
	return n
}

// repeatPeriod is the shortest p (at most half the key) such that three
// quarters or more of the bytes equal the byte p before them: "abcabcabc"
// and "passwordpassword1" both repeat. 0 when none does. For random bytes
// each position matches with probability 1/256.
func repeatPeriod(key []byte) int {
	for p := 1; p <= len(key)/2; p++ {
		same := 0
		for i := p; i < len(key); i++ {
			if key[i] == key[i-p] {
				same++
			}
		}
		if 4*same >= 3*(len(key)-p) {
			return p
		}
	}
	return 0
}

// sequential reports keys whose bytes mostly step by a constant
// ("abcdef…", "0123…", counting down): a quarter or more of the bytes
// continue the step of the two before them.
func sequential(key []byte) bool {
	steps := 0
	for i := 2; i < len(key); i++ {
		if key[i]-key[i-1] == key[i-1]-key[i-2] {
			steps++
		}
	}
	return 4*steps >= len(key)
}

// apparentBits is the key's length times the bits per byte of the
// smallest alphabet holding all its bytes: decimal digits, hex digits,
// lower-case letters, letters, letters and digits, printable ASCII, or any
// byte. Printable text with spaces reads as words, which carry about two
// bits a letter, not six.
func apparentBits(key []byte) float64 {
	body := bytes.TrimRight(key, "\r\n") // `echo text | base64` adds a newline
	if printable(body) && bytes.ContainsAny(body, " \t") {
		return float64(len(body)) * 2
	}
	alphabets := []struct {
		size float64
		in   func(byte) bool
	}{
		{10, func(b byte) bool { return b >= '0' && b <= '9' }},
		{16, func(b byte) bool { return b >= '0' && b <= '9' || b >= 'a' && b <= 'f' || b >= 'A' && b <= 'F' }},
		{26, func(b byte) bool { return b >= 'a' && b <= 'z' }},
		{52, func(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }},
		{62, func(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' }},
		{95, func(b byte) bool { return b >= ' ' && b <= '~' }},
	}
	for _, a := range alphabets {
		all := true
		for _, b := range body {
			if !a.in(b) {
				all = false
				break
			}
		}
		if all {
			return float64(len(body)) * math.Log2(a.size)
		}
	}
	return float64(len(key)) * 8
}

func printable(b []byte) bool {
	for _, c := range b {
		if c < ' ' && c != '\t' || c > '~' {
			return false
		}
	}
	return true
}
