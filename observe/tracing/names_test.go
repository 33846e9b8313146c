package tracing

import (
	"strconv"
	"testing"
	"unsafe"

	"github.com/mcpdecl/mcpdecl/internal/memo"
)

// TestSpanNamesMadeOnce: a call's span name is built once per method and
// configured name, and the cache starts over rather than grow past its
// bound.
func TestSpanNamesMadeOnce(t *testing.T) {
	c := NewProvider(&Recorder{}, ProviderOptions{}).Tracer().names
	first := c.Get(spanNameKey{"tools/call", "search"})
	if first != "tools/call search" {
		t.Fatalf("name %q", first)
	}
	if again := c.Get(spanNameKey{"tools/call", "search"}); unsafe.StringData(again) != unsafe.StringData(first) {
		t.Error("the name was built again")
	}
	for i := range memo.Max + 1 {
		c.Get(spanNameKey{"tools/call", strconv.Itoa(i)})
	}
	if n := c.Len(); n > memo.Max {
		t.Errorf("%d names kept, the bound is %d", n, memo.Max)
	}
	if got := c.Get(spanNameKey{"prompts/get", "review"}); got != "prompts/get review" {
		t.Errorf("name %q", got)
	}
}
