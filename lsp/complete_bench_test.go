package lsp

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkCompletionOfFunctions is one completion request for a name
// typed in a program string amid a large configuration, its quote and
// braces closed as an editor closes them: the parse that finds the
// blocks around the cursor, and the function list.
func BenchmarkCompletionOfFunctions(b *testing.B) {
	for _, tools := range []int{10, 1000} {
		b.Run(fmt.Sprintf("tools=%d", tools), func(b *testing.B) {
			large := largeText(b, tools)
			half := strings.Index(large[len(large)/2:], "\ntool ") + len(large)/2 + 1
			typed := "tool \"typing\" {\n  result {\n    text = \"len(args) > 0 && up"
			src := large[:half] + typed + "\"\n  }\n}\n\n" + large[half:]
			c := startClient(b, benchServer())
			c.initialize()
			uri := c.open(filepath.Join(b.TempDir(), "large.hcl"), src)
			at := newText(src).position(half + len(typed))
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
