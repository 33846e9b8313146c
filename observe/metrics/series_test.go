package metrics

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/internal/memo"
)

// TestCallsCountedThroughKeptSeries: the series a call counts in are
// kept by label values, and counting stays exact when that cache fills
// and starts over (a configuration reloaded many times with new names).
func TestCallsCountedThroughKeptSeries(t *testing.T) {
	r := New()
	for i := range memo.Max + 10 {
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
	if len(got) != memo.Max+11 {
		t.Errorf("%d call series, want %d", len(got), memo.Max+11)
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
