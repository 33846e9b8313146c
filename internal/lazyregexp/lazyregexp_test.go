package lazyregexp

import (
	"sync"
	"testing"
)

func TestCompiledOnFirstUseOnly(t *testing.T) {
	r := New(`^a(b+)$`)
	if r.re != nil {
		t.Fatal("New compiled the pattern; it must wait for the first use")
	}
	if got := r.FindStringSubmatch("abb"); len(got) != 2 || got[1] != "bb" {
		t.Fatalf("FindStringSubmatch(abb) = %q, want [abb bb]", got)
	}
	first := r.re
	if first == nil || !r.MatchString("ab") || r.re != first {
		t.Fatal("the compiled pattern must be made once and kept")
	}
}

func TestConcurrentFirstUse(t *testing.T) {
	r := New(`x\d`)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !r.MatchString("x1") {
				t.Error("x1 must match")
			}
		}()
	}
	wg.Wait()
}

func TestBadPatternPanicsOnUse(t *testing.T) {
	r := New(`(`)
	defer func() {
		if recover() == nil {
			t.Fatal("a pattern that does not compile must panic on use")
		}
	}()
	r.MatchString("")
}

func TestDeclaredListsEveryPattern(t *testing.T) {
	r := New(`listed`)
	all := Declared()
	if len(all) == 0 || all[len(all)-1] != r {
		t.Fatal("Declared must end with the pattern just made")
	}
}

// BenchmarkInit shows what a package variable costs at start-up now (New)
// and before (the pattern compiled), for a pattern of the SQL adapter.
func BenchmarkInit(b *testing.B) {
	const pattern = `(?i)duplicate key value violates unique constraint "([^"]+)"`
	b.Run("lazy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			declared = declared[:0]
			New(pattern)
		}
	})
	b.Run("compiled", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			declared = declared[:0]
			New(pattern).Regexp()
		}
	})
}
