package server_test

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/server"
	"github.com/mcpdecl/mcpdecl/tasks"
)

// taskRecorder is an Observer that keeps the task changes it is told of,
// as "from>to", and the tasks in each running state now.
type taskRecorder struct {
	mu      sync.Mutex
	moves   []string
	running map[string]int
}

var _ tasks.Observer = (*taskRecorder)(nil)

func (r *taskRecorder) CallStarted(string)                              {}
func (r *taskRecorder) CallEnded(string, string, string, time.Duration) {}
func (r *taskRecorder) Reloaded(uint64, error)                          {}

func (r *taskRecorder) TaskMoved(from, to string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.moves = append(r.moves, from+">"+to)
	r.running[from]--
	r.running[to]++
}

func (r *taskRecorder) snapshot() ([]string, map[string]int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := map[string]int{}
	for s, n := range r.running {
		if n != 0 && s != "" {
			now[s] = n
		}
	}
	return slices.Clone(r.moves), now
}

// TestTaskObserverStates: the replica running a task tells its observer
// each change: working, input_required while its question waits (the
// answer sent to another replica), working again, then the end it
// recorded; a task cancelled on another replica ends cancelled. The other
// replica, which runs nothing, is told nothing.
func TestTaskObserverStates(t *testing.T) {
	for name, open := range taskStores(t) {
		t.Run(name, func(t *testing.T) {
			recA, recB := &taskRecorder{running: map[string]int{}}, &taskRecorder{running: map[string]int{}}
			a := newReplica(t, open(), &server.Options{Observer: recA})
			b := newReplica(t, open(), &server.Options{Observer: recB})

			id := a.rpc(t, "tools/call", `"name":"confirm"`)["taskId"].(string)
			b.waitFor(t, id, "input_required", status("input_required"))
			if _, now := recA.snapshot(); now["input_required"] != 1 || now["working"] != 0 {
				t.Errorf("while the question waits: %v", now)
			}
			b.rpc(t, "tasks/update", `"taskId":"`+id+`","inputResponses":{"ok":{"action":"accept","content":{"ok":true}}}`)
			a.waitFor(t, id, "completed", status("completed"))

			secs := uniqueSeconds()
			slow := a.rpc(t, "tools/call", `"name":"sleeper","arguments":{"seconds":`+secs+`}`)["taskId"].(string)
			waitSleepers(t, secs, 1)
			if _, now := recA.snapshot(); now["working"] != 1 {
				t.Errorf("while the sleeper runs: %v", now)
			}
			b.rpc(t, "tasks/cancel", `"taskId":"`+slow+`"`)
			waitSleepers(t, secs, 0)
			var moves []string
			var now map[string]int
			for range 500 { // the end is recorded just after the command ends
				if moves, now = recA.snapshot(); len(moves) == 6 {
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
			want := []string{">working", "working>input_required", "input_required>working", "working>completed", ">working", "working>cancelled"}
			if !slices.Equal(moves, want) {
				t.Errorf("replica A was told\n%q\nwant\n%q", moves, want)
			}
			if now["working"] != 0 || now["input_required"] != 0 {
				t.Errorf("tasks still counted running: %v", now)
			}
			if moves, _ := recB.snapshot(); len(moves) != 0 {
				t.Errorf("replica B, which ran nothing, was told %q", moves)
			}
		})
	}
}
