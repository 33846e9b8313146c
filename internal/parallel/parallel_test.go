package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// TestForRunsEachOnce: every index runs exactly once, whatever the
// number of cores, and For returns only after the last.
func TestForRunsEachOnce(t *testing.T) {
	for _, procs := range []int{1, 2, 8} {
		prev := runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, 2, 7, 1000} {
			counts := make([]atomic.Int32, n)
			For(n, func(i int) { counts[i].Add(1) })
			for i := range counts {
				if c := counts[i].Load(); c != 1 {
					t.Errorf("GOMAXPROCS=%d n=%d: index %d ran %d times", procs, n, i, c)
				}
			}
		}
		runtime.GOMAXPROCS(prev)
	}
}
