package lsp

import (
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkCompletionOfFunctions is one completion request for a name
// typed in a program string at the end of a large configuration: the
// parse that finds the blocks around the cursor, and the function list.
func BenchmarkCompletionOfFunctions(b *testing.B) {
	for _, tools := range []int{10, 1000} {
		b.Run(fmt.Sprintf("tools=%d", tools), func(b *testing.B) {
			src := largeText(b, tools) + "tool \"typing\" {\n  result {\n    text = \"len(args) > 0 && up"
			c := startClient(b, benchServer())
			c.initialize()
			uri := c.open(filepath.Join(b.TempDir(), "large.hcl"), src)
			at := newText(src).position(len(src))
			b.ResetTimer()
			for range b.N {
				var list completionList
				c.call("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": at}, &list)
				if len(list.Items) == 0 {
					b.Fatal("no items")
				}
			}
		})
	}
}
