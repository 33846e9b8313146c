package main

import (
	"regexp"
	"testing"

	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// TestEveryPatternCompiles compiles each pattern that the packages of the
// binary declare: they compile on first use, not at start-up, so a typo in
// one that is rarely matched would otherwise surface only in that call.
func TestEveryPatternCompiles(t *testing.T) {
	all := lazyregexp.Declared()
	if len(all) < 50 {
		t.Fatalf("only %d patterns declared; the adapters, language and lint declare more than 50", len(all))
	}
	for _, r := range all {
		if _, err := regexp.Compile(r.String()); err != nil {
			t.Errorf("pattern %q: %v", r.String(), err)
		}
	}
}
