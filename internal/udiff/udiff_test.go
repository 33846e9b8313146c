package udiff

import (
	"fmt"
	"strings"
	"testing"
)

// TestDiffOpsRebuildBoth: the kept and removed lines give back the old
// text, the kept and added ones the new text, for small changes and for
// texts too large for the subsequence table.
func TestDiffOpsRebuildBoth(t *testing.T) {
	big := func(n, every int, change string) []string {
		var out []string
		for i := range n {
			line := fmt.Sprintf("line %d\n", i)
			if every > 0 && i%every == 0 {
				line = change + line
			}
			out = append(out, line)
		}
		return out
	}
	for name, tc := range map[string][2][]string{
		"small":     {splitLines("a\nb\nc\nd\n"), splitLines("a\nB\nc\nd\ne\n")},
		"empty old": {nil, splitLines("x\ny\n")},
		"empty new": {splitLines("x\ny\n"), nil},
		"huge":      {big(3000, 7, ""), big(3000, 7, "  ")},
	} {
		ops := diffOps(tc[0], tc[1])
		var old, new []string
		for _, o := range ops {
			if o.kind != '+' {
				old = append(old, o.text)
			}
			if o.kind != '-' {
				new = append(new, o.text)
			}
		}
		if strings.Join(old, "") != strings.Join(tc[0], "") || strings.Join(new, "") != strings.Join(tc[1], "") {
			t.Errorf("%s: the edit script does not rebuild both texts", name)
		}
	}
}

func TestDiffRemovalBeforeAddition(t *testing.T) {
	got := Unified("f.hcl", "a\nx = 1\nb\n", "a\nx  = 1\nb\n")
	if !strings.Contains(got, "-x = 1\n+x  = 1\n") {
		t.Errorf("diff:\n%s", got)
	}
}
