// Package parallel runs the iterations of a loop on every core, for the
// loads of big configurations: the pieces of a file, its blocks, its
// tools, each done alone and put back in their order by the caller.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// For runs do(0), …, do(n-1), on as many goroutines as there are cores
// (GOMAXPROCS), taking the next index as each finishes, and returns when
// all have returned. With one core, or one iteration, they run in order
// on the caller's goroutine.
func For(n int, do func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			do(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				do(i)
			}
		})
	}
	wg.Wait()
}
