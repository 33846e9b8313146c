package openapi

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// deepBodies is a document of 148 KB whose one request body nests objects
// 4,000 deep: small on disk, and each level costs the parser and the
// converter work of its own.
func deepBodies(depth int) []byte {
	var b strings.Builder
	b.WriteString(`{"openapi":"3.0.0","info":{"title":"deep","version":"1"},"paths":{"/x":{"post":{"operationId":"postX","requestBody":{"content":{"application/json":{"schema":`)
	for range depth {
		b.WriteString(`{"type":"object","properties":{"a":`)
	}
	b.WriteString(`{"type":"string"}`)
	for range depth {
		b.WriteString(`}}`)
	}
	b.WriteString(`}}}}}}}`)
	return []byte(b.String())
}

// BenchmarkHostileDeepBodies imports the 4,000-deep document as the
// command does; ns/op and B/op say what one such import costs.
func BenchmarkHostileDeepBodies(b *testing.B) {
	path := filepath.Join(b.TempDir(), "deep.json")
	if err := os.WriteFile(path, deepBodies(4000), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		src, err := Read(context.Background(), path, 0, nil)
		if err != nil {
			b.Fatal(err)
		}
		if api, err := Parse(src); err == nil {
			Generate(api, api.Operations, Options{Source: "deep.json"})
		}
	}
}
