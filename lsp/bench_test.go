package lsp

import (
	"bytes"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/mcpdecl/mcpdecl/internal/largecfg"
)

// benchServer checks at once: the benchmarks measure the check and its
// publishing, not the debounce an editor's typing waits (100 ms).
func benchServer() *Server { return &Server{Debounce: 1} }

func largeText(b *testing.B, tools int) string {
	var buf bytes.Buffer
	if err := largecfg.Write(&buf, tools); err != nil {
		b.Fatal(err)
	}
	return buf.String()
}

// BenchmarkChangeToDiagnostics is the time from a didChange to the
// publishDiagnostics of that version: load, compile, the test blocks and
// lint of the whole configuration, on the editor's text. CPU-ms/op is
// the process's CPU time per change (the client's share included).
func BenchmarkChangeToDiagnostics(b *testing.B) {
	for _, tools := range []int{10, 1000} {
		b.Run(fmt.Sprintf("tools=%d", tools), func(b *testing.B) {
			src := largeText(b, tools)
			c := startClient(b, benchServer())
			c.initialize()
			uri := c.open(filepath.Join(b.TempDir(), "large.hcl"), src)
			c.awaitVersion(uri, 1)
			end := newText(src).position(len(src))
			b.ResetTimer()
			cpu0 := cpuTime()
			for i := range b.N {
				v := i + 2
				// a comment typed at the end, one character per change
				c.change(uri, v, contentChange{Range: &Range{Start: end, End: end}, Text: "#"})
				c.awaitVersion(uri, v)
				end.Character++
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "CPU-ms/op")
		})
	}
}

// BenchmarkHeapAfterEdits types 1,000 characters one change at a time
// into the 1,000-tool configuration, waits for the last diagnostics and
// reports the live heap then (heap-MB): what the session keeps, not
// what the checks made and dropped.
func BenchmarkHeapAfterEdits(b *testing.B) {
	src := largeText(b, 1000)
	cpu0 := cpuTime()
	for range b.N {
		c := startClient(b, &Server{})
		c.initialize()
		uri := c.open(filepath.Join(b.TempDir(), "large.hcl"), src)
		end := newText(src).position(len(src))
		for i := range 1000 {
			c.change(uri, i+2, contentChange{Range: &Range{Start: end, End: end}, Text: "#"})
			end.Character++
		}
		c.awaitVersion(uri, 1001)
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		b.ReportMetric(float64(m.HeapAlloc)/(1<<20), "heap-MB")
		if err := c.shutdown(); err != nil { // the next session starts alone
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "CPU-ms/op")
}
