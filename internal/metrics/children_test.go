package metrics

import (
	"slices"
	"strconv"
	"testing"
	"time"
)

// TestCallsCountedThroughKeptSeries: the series a call counts in are
// kept by label values, and counting stays exact when that cache fills
// and starts over (a configuration reloaded many times with new names).
func TestCallsCountedThroughKeptSeries(t *testing.T) {
	r := New()
	for i := range maxChildren + 10 {
		r.CallStarted("tool")
		r.CallEnded("tool", "t"+strconv.Itoa(i), "ok", time.Millisecond)
	}
	// The first names again, after the cache started over.
	for range 3 {
		r.CallStarted("tool")
		r.CallEnded("tool", "t0", "tool_error", time.Millisecond)
		r.CallStarted("tool")
		r.CallEnded("tool", "t0", "ok", time.Millisecond)
		r.Request("modern", "tools/call")
	}
	got := series(t, r, "mcpdecl_calls_total")
	if len(got) != maxChildren+11 {
		t.Errorf("%d call series, want %d", len(got), maxChildren+11)
	}
	for _, want := range []string{
		`mcpdecl_calls_total{kind=tool,name=t0,outcome=ok} 4`,
		`mcpdecl_calls_total{kind=tool,name=t0,outcome=tool_error} 3`,
		`mcpdecl_calls_total{kind=tool,name=t4105,outcome=ok} 1`,
	} {
		if !slices.Contains(got, want) {
			t.Errorf("no %s", want)
		}
	}
	if got := series(t, r, "mcpdecl_calls_in_flight"); !slices.Equal(got, []string{`mcpdecl_calls_in_flight{kind=tool} 0`}) {
		t.Errorf("in flight: %q", got)
	}
	if got := series(t, r, "mcpdecl_requests_total"); !slices.Equal(got, []string{`mcpdecl_requests_total{era=modern,method=tools/call} 3`}) {
		t.Errorf("requests: %q", got)
	}
}

// TestChildrenLookUpOnce: a series is looked up in its vector once per
// label values until the cache starts over.
func TestChildrenLookUpOnce(t *testing.T) {
	lookups := 0
	c := newChildren(func(k labels2) string { lookups++; return k.a + "/" + k.b })
	for range 3 {
		if got := c.of(labels2{"tool", "greet"}); got != "tool/greet" {
			t.Fatalf("of = %q", got)
		}
	}
	if lookups != 1 {
		t.Errorf("%d lookups, want 1", lookups)
	}
	for i := range maxChildren {
		c.of(labels2{"tool", strconv.Itoa(i)})
	}
	c.of(labels2{"tool", "greet"})
	if lookups != maxChildren+2 {
		t.Errorf("%d lookups after the cache started over, want %d", lookups, maxChildren+2)
	}
}
