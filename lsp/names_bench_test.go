package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// smallTool is a file of its own beside the large configuration, with
// an args.q to ask the definition of.
const smallTool = `tool "mine" {
  description = "A tool of its own file."
  arg "q" {
    type = string
  }
  result {
    text = "args.q"
  }
}
`

// BenchmarkNameRequestAfterAnEdit is a keystroke and then a definition
// request, in a folder holding a 1,000-tool file and a small one: the
// index of the folder is kept, and the request indexes again only the
// file typed into. edited=small types into the small file, edited=large
// into the large one. Diagnostics wait an hour, so that only the index
// is measured.
func BenchmarkNameRequestAfterAnEdit(b *testing.B) {
	for _, edited := range []string{"small", "large"} {
		b.Run("edited="+edited, func(b *testing.B) {
			dir := b.TempDir()
			large := largeText(b, 1000)
			files := map[string]string{"large.hcl": large, "small.hcl": smallTool}
			for name, text := range files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			c := startClient(b, &Server{Debounce: time.Hour, Index: NewNameIndex()})
			c.initialize()
			small := c.open(filepath.Join(dir, "small.hcl"), smallTool)
			typed := small
			if edited == "large" {
				typed = c.open(filepath.Join(dir, "large.hcl"), large)
			}
			end := newText(files[edited+".hcl"]).position(len(files[edited+".hcl"]))
			where := posParams(small, newText(smallTool).position(strings.Index(smallTool, "args.q")+5))
			var loc location
			c.call("textDocument/definition", where, &loc) // the first request builds the index
			if loc.URI != small {
				b.Fatalf("definition %+v", loc)
			}
			b.ResetTimer()
			cpu0 := cpuTime()
			for i := range b.N {
				c.change(typed, i+2, contentChange{Range: &Range{Start: end, End: end}, Text: "#"})
				end.Character++
				c.call("textDocument/definition", where, &loc)
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "CPU-ms/op")
		})
	}
}

// BenchmarkNameRequestCold is the first definition request of a
// session on the same folder: the whole index built (a session's start,
// initialize and the open are counted too, a small part), for comparison
// with a request after an edit.
func BenchmarkNameRequestCold(b *testing.B) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "large.hcl"), []byte(largeText(b, 1000)), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "small.hcl"), []byte(smallTool), 0o644); err != nil {
		b.Fatal(err)
	}
	where := newText(smallTool).position(strings.Index(smallTool, "args.q") + 5)
	cpu0 := cpuTime()
	for range b.N {
		c := startClient(b, &Server{Debounce: time.Hour, Index: NewNameIndex()})
		c.initialize()
		small := c.open(filepath.Join(dir, "small.hcl"), smallTool)
		var loc location
		c.call("textDocument/definition", posParams(small, where), &loc)
		if loc.URI != small {
			b.Fatalf("definition %+v", loc)
		}
		c.shutdown()
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "CPU-ms/op")
}
