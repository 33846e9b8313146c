package metrics

import (
	"database/sql"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// series lists the samples of the metrics named with prefix as
// "name{label=value,...} value".
func series(t *testing.T, r *Registry, prefix string) []string {
	t.Helper()
	families, err := r.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range families {
		if !strings.HasPrefix(f.GetName(), prefix) {
			continue
		}
		for _, m := range f.GetMetric() {
			var labels []string
			for _, l := range m.GetLabel() {
				labels = append(labels, l.GetName()+"="+l.GetValue())
			}
			v := m.GetGauge().GetValue() + m.GetCounter().GetValue()
			out = append(out, f.GetName()+"{"+strings.Join(labels, ",")+"} "+strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	slices.Sort(out)
	return out
}

// TestTaskAndOpenLabelsAreFixed: states and kinds outside the known sets
// make no series, so what a caller passes cannot grow the exposition.
func TestTaskAndOpenLabelsAreFixed(t *testing.T) {
	r := New()
	r.TaskMoved("", "working")
	r.TaskMoved("working", "input_required")
	r.TaskMoved("input_required", "working")
	r.TaskMoved("working", "completed")
	r.TaskMoved("", "made-up")
	r.TaskMoved("made-up", "also-made-up")
	r.Opened("session", 1)
	r.Opened("listen", 1)
	r.Opened("listen", -1)
	r.Opened("made-up", 1)
	got := append(series(t, r, "mcpdecl_tasks"), append(series(t, r, "mcpdecl_sessions"), series(t, r, "mcpdecl_streams")...)...)
	want := []string{
		"mcpdecl_tasks_ended_total{state=cancelled} 0",
		"mcpdecl_tasks_ended_total{state=completed} 1",
		"mcpdecl_tasks_ended_total{state=failed} 0",
		"mcpdecl_tasks{state=input_required} 0",
		"mcpdecl_tasks{state=working} 0",
		"mcpdecl_sessions_open{} 1",
		"mcpdecl_streams_open{kind=get} 0",
		"mcpdecl_streams_open{kind=listen} 0",
	}
	if !slices.Equal(got, want) {
		t.Errorf("series\n%q\nwant\n%q", got, want)
	}
}

// TestPoolsReadAtScrape: the pools are read when gathered, each under its
// backend's name; a backend gone from the list is gone from the series.
func TestPoolsReadAtScrape(t *testing.T) {
	r := New()
	pools := []Pool{{Backend: "orders", Stats: sql.DBStats{MaxOpenConnections: 4, OpenConnections: 2, InUse: 1, Idle: 1, WaitCount: 3, WaitDuration: 1500 * time.Millisecond}}}
	r.WatchPools(func() []Pool { return pools })
	want := []string{
		"mcpdecl_sql_pool_idle_connections{backend=orders} 1",
		"mcpdecl_sql_pool_in_use_connections{backend=orders} 1",
		"mcpdecl_sql_pool_max_open_connections{backend=orders} 4",
		"mcpdecl_sql_pool_open_connections{backend=orders} 2",
		"mcpdecl_sql_pool_wait_seconds_total{backend=orders} 1.5",
		"mcpdecl_sql_pool_waits_total{backend=orders} 3",
	}
	if got := series(t, r, "mcpdecl_sql_pool"); !slices.Equal(got, want) {
		t.Errorf("series\n%q\nwant\n%q", got, want)
	}
	pools = nil
	if got := series(t, r, "mcpdecl_sql_pool"); len(got) != 0 {
		t.Errorf("after the backend went: %q", got)
	}
}
