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

// largeJSON is a configuration in the JSON syntax of tools tools, each
// booksJSON's tool under its own name.
func largeJSON(tools int) string {
	start := strings.Index(booksJSON, `    "search": {`)
	end := strings.LastIndex(booksJSON, "\n  }\n}")
	tool := booksJSON[start:end]
	var b strings.Builder
	b.WriteString(booksJSON[:start])
	for i := range tools {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(strings.Replace(tool, `"search"`, fmt.Sprintf(`"search%d"`, i), 1))
	}
	b.WriteString(booksJSON[end:])
	return b.String()
}

// BenchmarkCompletionInJSON is one completion request in a file of the
// JSON syntax, in the middle of it: a property name being typed, and
// args. in a program string. The whole file is read for each, as hcl's
// JSON parser reads it for validation; CPU-ms/op beside it.
func BenchmarkCompletionInJSON(b *testing.B) {
	for _, tools := range []int{10, 1000} {
		src := largeJSON(tools)
		middle := strings.Index(src, fmt.Sprintf(`"search%d"`, tools/2))
		for _, tc := range []struct{ name, old, new string }{
			{"key", `"annotations": {`, `"ti": "x", "annotations": {`},
			{"string", `"result": { "text": "string(len(body))" }`, `"result": { "text": "args." }`},
		} {
			b.Run(fmt.Sprintf("%s/tools=%d", tc.name, tools), func(b *testing.B) {
				i := middle + strings.Index(src[middle:], tc.old)
				typed := src[:i] + tc.new + src[i+len(tc.old):]
				cursor := i + strings.Index(tc.new, `"ti`) + 3
				if tc.name == "string" {
					cursor = i + strings.Index(tc.new, "args.") + 5
				}
				c := startClient(b, benchServer())
				c.initialize()
				uri := c.open(filepath.Join(b.TempDir(), "large.hcl.json"), typed)
				at := newText(typed).position(cursor)
				b.ResetTimer()
				cpu0 := cpuTime()
				for range b.N {
					var list completionList
					c.call("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": at}, &list)
					if len(list.Items) == 0 {
						b.Fatal("no items")
					}
				}
				b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "CPU-ms/op")
			})
		}
	}
}
