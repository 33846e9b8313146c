package tracing

import (
	"strconv"
	"testing"
	"unsafe"
)

// TestSpanNamesMadeOnce: a call's span name is built once per method and
// configured name, and the cache starts over rather than grow past its
// bound.
func TestSpanNamesMadeOnce(t *testing.T) {
	var c spanNames
	first := c.of("tools/call", "search")
	if first != "tools/call search" {
		t.Fatalf("name %q", first)
	}
	if again := c.of("tools/call", "search"); unsafe.StringData(again) != unsafe.StringData(first) {
		t.Error("the name was built again")
	}
	for i := range maxSpanNames + 1 {
		c.of("tools/call", strconv.Itoa(i))
	}
	if n := len(c.names); n > maxSpanNames {
		t.Errorf("%d names kept, the bound is %d", n, maxSpanNames)
	}
	if got := c.of("prompts/get", "review"); got != "prompts/get review" {
		t.Errorf("name %q", got)
	}
}
