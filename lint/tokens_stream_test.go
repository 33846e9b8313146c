package lint

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// TestEstimatorInPartsAsWhole: the estimate of a text written in parts,
// cut anywhere but inside a character, is the estimate of the whole, and
// that is what the one-pass rules below (the estimator's definition) say.
func TestEstimatorInPartsAsWhole(t *testing.T) {
	alphabet := []string{"a", "Z", "q", "7", "0", " ", " ", "\t", "\n", "\r", "{", "}", ",", "\"", ":", "[", "]", "\x01", "é", "→", "_", "-"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var text []byte
		for range r.IntN(40) {
			text = append(text, alphabet[r.IntN(len(alphabet))]...)
		}
		want := referenceEstimate(text)
		if got := EstimateTokens(text); got != want {
			t.Fatalf("EstimateTokens(%q) = %d, want %d", text, got, want)
		}
		var e estimator
		rest := text
		for len(rest) > 0 {
			cut := r.IntN(len(rest) + 1)
			for cut < len(rest) && !utf8.RuneStart(rest[cut]) {
				cut++
			}
			e.Write(rest[:cut])
			rest = rest[cut:]
		}
		if got := e.Total(); got != want {
			t.Fatalf("%q in parts: %d, want %d", text, got, want)
		}
	}
}

// referenceEstimate is EstimateTokens's rules written as one pass over
// the whole text.
func referenceEstimate(text []byte) int {
	n := 0
	for i := 0; i < len(text); {
		c := text[i]
		j := i + 1
		switch {
		case isLetter(c):
			for j < len(text) && isLetter(text[j]) {
				j++
			}
			n += 1 + (j-i-1)/6
		case c >= '0' && c <= '9':
			for j < len(text) && text[j] >= '0' && text[j] <= '9' {
				j++
			}
			n += (j - i + 2) / 3
		case c == ' ' && j < len(text) && isLetter(text[j]):
			// joins the word after it
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r') {
				j++
			}
			n++
		case c < utf8.RuneSelf:
			for j < len(text) && isPunct(text[j]) {
				j++
			}
			n += (j - i + 1) / 2
		default:
			_, size := utf8.DecodeRune(text[i:])
			j = i + size
			n++
		}
		i = j
	}
	return n
}
