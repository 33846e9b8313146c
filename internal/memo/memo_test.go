package memo

import (
	"strconv"
	"testing"
)

// TestMadeOncePerKey: a value is made once per key until the Memo fills
// and starts over.
func TestMadeOncePerKey(t *testing.T) {
	type pair struct{ a, b string }
	made := 0
	c := New(func(k pair) string { made++; return k.a + "/" + k.b })
	for range 3 {
		if got := c.Get(pair{"tool", "greet"}); got != "tool/greet" {
			t.Fatalf("Get = %q", got)
		}
	}
	if made != 1 {
		t.Errorf("made %d times, want 1", made)
	}
	for i := range Max {
		c.Get(pair{"tool", strconv.Itoa(i)})
	}
	if n := c.Len(); n > Max {
		t.Errorf("%d values kept, the bound is %d", n, Max)
	}
	c.Get(pair{"tool", "greet"})
	if made != Max+2 {
		t.Errorf("made %d times after the Memo started over, want %d", made, Max+2)
	}
}
