package lang

import (
	"fmt"

	"github.com/agext/levenshtein"
)

// NameSuggestion returns the name in candidates closest to given, or "" when
// none is close enough to be a likely typo.
func NameSuggestion(given string, candidates []string) string {
	best, bestDist := "", 3 // a distance under 3 catches most typos without wild guesses
	for _, c := range candidates {
		if d := levenshtein.Distance(given, c, nil); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// suggest returns " Did you mean "x"?" or "".
func suggest(given string, candidates []string) string {
	if s := NameSuggestion(given, candidates); s != "" {
		return fmt.Sprintf(" Did you mean %q?", s)
	}
	return ""
}
