package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// finish ends a task with a result of size bytes.
func finish(t *testing.T, s Store, id string, size int) {
	t.Helper()
	result := json.RawMessage(`"` + strings.Repeat("x", max(size-2, 0)) + `"`)
	if _, err := s.Update(context.Background(), id, func(tk *Task) error {
		tk.Status, tk.Result, tk.UpdatedAt = Completed, result, time.Now()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// kept reports which of ids the store still has.
func kept(t *testing.T, s Store, ids ...string) string {
	t.Helper()
	var out []string
	for _, id := range ids {
		_, err := s.Get(context.Background(), id)
		switch {
		case err == nil:
			out = append(out, id)
		case !errors.Is(err, ErrNotFound):
			t.Fatal(err)
		}
	}
	return strings.Join(out, " ")
}

// TestStoreBoundsFinishedTasks: past an owner's bound (count or bytes),
// or the store's, the oldest finished tasks are forgotten; running tasks
// and the task that just ended never are; tasks of nobody in particular
// have their own bound; a peer (another replica) sees the same.
func TestStoreBoundsFinishedTasks(t *testing.T) {
	ctx := context.Background()
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s, peer := open(), open()
			limits := Limits{PerOwner: 3, Anonymous: 2, Total: 6, PerOwnerBytes: 1000, AnonymousBytes: 1000, TotalBytes: 2500}
			s.SetLimits(limits)
			peer.SetLimits(limits)
			create := func(id, owner string) {
				t.Helper()
				if err := s.Create(ctx, newTask(id, owner)); err != nil {
					t.Fatal(err)
				}
			}
			// Count per owner: a running task stays whatever happens.
			create("a-running", "alice")
			for i := range 5 {
				id := fmt.Sprintf("a%d", i)
				create(id, "alice")
				finish(t, []Store{s, peer}[i%2], id, 10)
			}
			if got := kept(t, peer, "a-running", "a0", "a1", "a2", "a3", "a4"); got != "a-running a2 a3 a4" {
				t.Fatalf("alice's tasks kept with 3 finished at most: %s", got)
			}
			// Bytes per owner: 400 + 400 fit in 1000, a third does not.
			for i := range 3 {
				id := fmt.Sprintf("b%d", i)
				create(id, "bob")
				finish(t, s, id, 400)
			}
			if got := kept(t, s, "b0", "b1", "b2"); got != "b1 b2" {
				t.Fatalf("bob's tasks kept within 1000 bytes: %s", got)
			}
			// One result above the owner's bound is kept alone (the
			// newest is never dropped); the older ones go.
			create("b3", "bob")
			finish(t, peer, "b3", 1500)
			if got := kept(t, s, "b1", "b2", "b3"); got != "b3" {
				t.Fatalf("bob's tasks after a result above his bound: %s", got)
			}
			// Nobody in particular: its own count bound.
			for i := range 3 {
				id := fmt.Sprintf("n%d", i)
				create(id, "")
				finish(t, s, id, 10)
			}
			if got := kept(t, s, "n0", "n1", "n2"); got != "n1 n2" {
				t.Fatalf("anonymous tasks kept with 2 at most: %s", got)
			}
			// The store's bytes: alice 30 + bob 1500 + nobody 20 = 1550;
			// carol's 970 makes 7 finished tasks and 2520 bytes, so the
			// oldest finished (alice's) go until both fit.
			create("c0", "carol")
			finish(t, s, "c0", 970)
			if got := kept(t, s, "a-running", "a2", "a3", "a4", "b3", "n1", "n2", "c0"); got != "a-running a4 b3 n1 n2 c0" {
				t.Fatalf("tasks kept within the store's 2500 bytes: %s", got)
			}
			// The store's count: 6 finished at most.
			for i := range 3 {
				id := fmt.Sprintf("d%d", i)
				create(id, "dave")
				finish(t, []Store{s, peer}[i%2], id, 1)
			}
			if got := kept(t, s, "a-running", "a4", "b3", "n1", "n2", "c0", "d0", "d1", "d2"); got != "a-running n1 n2 c0 d0 d1 d2" {
				t.Fatalf("tasks kept with 6 finished at most: %s", got)
			}
			// Forgotten tasks are not listed either.
			if l, _, err := s.List(ctx, "alice", "", 10); err != nil || len(l) != 1 || l[0].ID != "a-running" {
				t.Fatalf("alice's list: %v, %v", l, err)
			}
		})
	}
}

// TestStoreForgetsEmptyResults: a task that ended with nothing to keep (a
// cancelled one) counts 0 bytes, and forgetting it must not break the
// finish that pushed it out. In Redis's Lua, -0 is written "-0", which
// HINCRBY refuses, so the store's script once failed every later finish
// of the owner with "the task could not be stored".
func TestStoreForgetsEmptyResults(t *testing.T) {
	ctx := context.Background()
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open()
			s.SetLimits(Limits{PerOwner: 1, Anonymous: 1, Total: 10, PerOwnerBytes: 1000, AnonymousBytes: 1000, TotalBytes: 1000})
			for _, id := range []string{"c0", "c1", "c2"} {
				if err := s.Create(ctx, newTask(id, "carol")); err != nil {
					t.Fatal(err)
				}
				if _, err := s.Update(ctx, id, func(tk *Task) error {
					tk.Status, tk.UpdatedAt = Cancelled, time.Now()
					return nil
				}); err != nil {
					t.Fatalf("cancelling %s: %v", id, err)
				}
			}
			if got := kept(t, s, "c0", "c1", "c2"); got != "c2" {
				t.Fatalf("carol's cancelled tasks kept with 1 finished at most: %s", got)
			}
		})
	}
}
