package serving

import (
	"os"
	"runtime"
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

// A big configuration's compile also gets a heap floor: the heap may
// grow to compileHeapPerByte bytes per byte of its files (at most
// maxCompileFloor) before the collector runs, and past that at
// compilePace. Its live heap grows with the table all along (10,000
// tools: to 146 MB), so at a pace alone the collector ran ten times,
// marking what was live each time (550 MB in all); with the floor it
// runs two or three times. The factor keeps that configuration's peak
// under 300 MiB. A configuration whose floor would be under
// minCompileFloor keeps the pace alone, and so does a reload (a compile
// while another table is live): the old table's live heap already sets
// the collections' pace, and a floor on top of it would raise the
// reload's peak (10,000 tools: 264 to 328 MiB).
const (
	compileHeapPerByte = 28
	maxCompileFloor    = 256 << 20
	minCompileFloor    = 16 << 20
)

var pace struct {
	sync.Mutex
	compiles  int   // the compiles running
	prev      int   // GOGC before the first of them
	floor     int64 // the heap floor, 0 for none
	prevLimit int64 // the memory limit before the floor
	gen       int   // of the floor: a collection hook of an older one stops
}

// paceCompile sets the collector's pace for a compile of input bytes of
// configuration and returns what puts it back; of compiles that overlap,
// the last to end puts it back. GOGC in the environment stands, and so
// does GOMEMLIMIT (no floor then).
func paceCompile(input int64) (restore func()) {
	if _, set := os.LookupEnv("GOGC"); set {
		return func() {}
	}
	_, limited := os.LookupEnv("GOMEMLIMIT")
	floor := min(compileHeapPerByte*input, maxCompileFloor)
	pace.Lock()
	defer pace.Unlock()
	if pace.compiles == 0 {
		pace.prev = debug.SetGCPercent(compilePace)
	}
	pace.compiles++
	if !limited && floor >= minCompileFloor && floor > pace.floor && int64(liveHeap()) < minCompileFloor {
		if pace.floor == 0 {
			pace.prevLimit = debug.SetMemoryLimit(-1)
			pace.gen++
			armFloor(pace.gen)
		}
		pace.floor = floor
		applyFloor()
	}
	return func() {
		pace.Lock()
		defer pace.Unlock()
		if pace.compiles--; pace.compiles > 0 {
			return
		}
		if pace.floor > 0 {
			pace.floor = 0
			debug.SetMemoryLimit(pace.prevLimit)
		}
		debug.SetGCPercent(pace.prev)
	}
}

// applyFloor lets the heap grow to the floor, or past it at compilePace
// of what the last collection found live: with GOGC off, the memory
// limit alone starts a collection. pace must be locked.
func applyFloor() {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(max(pace.floor, int64(liveHeap())*(100+compilePace)/100))
}

// floorHook is an object whose finalizer runs after the collection that
// finds it unreachable: the hook that moves the limit after each
// collection while a floor is set.
type floorHook struct{ gen *int }

func armFloor(gen int) {
	runtime.SetFinalizer(&floorHook{gen: &gen}, func(h *floorHook) {
		pace.Lock()
		defer pace.Unlock()
		if pace.floor == 0 || *h.gen != pace.gen {
			return // the compile is over, or another floor's hook runs
		}
		applyFloor()
		armFloor(*h.gen)
	})
}
