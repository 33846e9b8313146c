package rule

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agext/levenshtein"
)

// Closest returns the candidate a misspelt name most likely meant, or ""
// when none is close enough to be a likely typo.
//
// Letter case never counts: a candidate equal to given but for case always
// wins (Body suggests body), and distances are measured between lower-case
// forms. A candidate is close enough when its distance is at most a third
// of the longer name's length, rounded up, and never more than 2: one edit
// for a short name (id, url), two for a longer one (smaple). Among equally
// close candidates the first in sorted order wins, so the suggestion does
// not depend on the order in which candidates were listed.
func Closest(given string, candidates []string) string {
	if exact := sameButCase(given, candidates); exact != "" {
		return exact
	}
	lower := strings.ToLower(given)
	best, bestDist := "", 0
	for _, c := range candidates {
		limit := maxDistance(given, c)
		d := levenshtein.Distance(lower, strings.ToLower(c), nil)
		if d > limit || d == 0 {
			continue
		}
		if best == "" || d < bestDist || d == bestDist && c < best {
			best, bestDist = c, d
		}
	}
	return best
}

// sameButCase returns the first candidate in sorted order that equals
// given when case is ignored, or "".
func sameButCase(given string, candidates []string) string {
	best := ""
	for _, c := range candidates {
		if strings.EqualFold(c, given) && (best == "" || c < best) {
			best = c
		}
	}
	return best
}

// maxDistance is the largest distance at which candidate is still offered
// for given.
func maxDistance(given, candidate string) int {
	n := max(utf8.RuneCountInString(given), utf8.RuneCountInString(candidate))
	return min((n+2)/3, 2)
}

// DidYouMean returns ` Did you mean "x"?` for the candidate [Closest]
// chooses, or "" when there is none: the sentence that ends a message
// about an unknown name.
func DidYouMean(given string, candidates []string) string {
	if s := Closest(given, candidates); s != "" {
		return fmt.Sprintf(" Did you mean %q?", s)
	}
	return ""
}
