package serving

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// smallLiveHeap is the live heap under which a served configuration gets
// the collector's larger room (roomySmallHeap).
const smallLiveHeap = 8 << 20

// roomySmallHeap is the collector's GOGC while the live heap is small.
const roomySmallHeap = 200

// setCollectorRoom sets how far the heap may grow between collections
// while serving, after each load, unless GOGC is in the environment (then
// the operator's value stands). A small configuration's live heap (the
// echo tool's: about 1.5 MB) sits under the runtime's 4 MB minimum goal,
// so at the default pace it collects every few hundred calls and the
// collection was most of what a call costs over a plain net/http handler:
// on the echo call over loopback (callgrind, 8 keep-alive clients) GOGC
// 200 took 122.5 thousand instructions per call to 108.6 thousand against
// the plain handler's 99.2 thousand, for at most 8 MB more heap. A larger
// configuration keeps the default, so that its resident memory (10,000
// tools: 45 MB live) does not grow by as much as it holds.
func setCollectorRoom() {
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	if liveHeap() < smallLiveHeap {
		debug.SetGCPercent(roomySmallHeap)
	} else {
		debug.SetGCPercent(100)
	}
}

// liveHeap is the heap the last collection found live.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// compilePace is the collector's GOGC while a configuration compiles
// (Compile), unless GOGC is in the environment. A compile is a batch job
// whose garbage is mostly the syntax of the pieces read: at the default
// pace the collector took about a fifth of the CPU time of validating
// 10,000 tools. Measured on that configuration (scripts/bench-large.sh's,
// 5 alternated runs): GOGC 100 took 1.71-1.83 s of CPU and 248-288 MiB at
// its peak, 150 took 1.51-1.57 s and 279-286 MiB, 200 took 1.52-1.66 s
// and 290-313 MiB.
const compilePace = 150

var pace struct {
	sync.Mutex
	compiles int // the compiles running
	prev     int // GOGC before the first of them
}

// paceCompile sets the collector's pace for a compile and returns what
// puts it back; of compiles that overlap, the last to end puts it back.
func paceCompile() (restore func()) {
	if _, set := os.LookupEnv("GOGC"); set {
		return func() {}
	}
	pace.Lock()
	defer pace.Unlock()
	if pace.compiles == 0 {
		pace.prev = debug.SetGCPercent(compilePace)
	}
	pace.compiles++
	return func() {
		pace.Lock()
		defer pace.Unlock()
		if pace.compiles--; pace.compiles == 0 {
			debug.SetGCPercent(pace.prev)
		}
	}
}
