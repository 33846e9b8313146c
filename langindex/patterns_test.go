package langindex

import (
	"regexp"
	"testing"

	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// TestEveryPatternCompiles compiles the patterns this package declares
// (compiled on first use, not at start-up), so that a typo in one fails
// here and not in the call that first matches it. The command's own test
// covers the packages it links, which this one is not among.
func TestEveryPatternCompiles(t *testing.T) {
	all := lazyregexp.Declared()
	if len(all) < 6 {
		t.Fatalf("only %d patterns declared; langindex declares 6", len(all))
	}
	for _, r := range all {
		if _, err := regexp.Compile(r.String()); err != nil {
			t.Errorf("pattern %q: %v", r.String(), err)
		}
	}
}
