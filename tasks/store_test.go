package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	neturl "net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
)

// stores returns the stores under test: memory always, Redis when
// MCPDECL_TEST_REDIS_URL names one. newPeer gives a second handle on the
// same data (another replica), or the same store for memory.
func stores(t *testing.T) map[string]func() Store {
	t.Helper()
	out := map[string]func() Store{}
	mem := NewMemory()
	out["memory"] = func() Store { return mem }
	url := testenv.Redis.Optional(t, "the Redis store")
	if url == "" {
		return out
	}
	prefix := fmt.Sprintf("mcpdecl-test-%d-%s:", time.Now().UnixNano(), t.Name())
	out["redis"] = func() Store {
		r, err := OpenRedis(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = r.Close() })
		return r.WithPrefix(prefix)
	}
	return out
}

func newTask(id, owner string) *Task {
	now := time.Now()
	return &Task{ID: id, Owner: owner, Status: Working, CreatedAt: now, UpdatedAt: now, TTL: time.Hour, LeaseUntil: now.Add(time.Minute)}
}

func TestStoreCreateGetUpdate(t *testing.T) {
	ctx := context.Background()
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) {
			a, b := open(), open()
			if err := a.Create(ctx, newTask("t1", "alice")); err != nil {
				t.Fatal(err)
			}
			if err := a.Create(ctx, newTask("t1", "alice")); err == nil {
				t.Fatal("a second task with the same id was accepted")
			}
			got, err := b.Get(ctx, "t1")
			if err != nil || got.Owner != "alice" || got.Status != Working {
				t.Fatalf("Get on the peer = %+v, %v", got, err)
			}
			up, err := b.Update(ctx, "t1", func(t *Task) error {
				t.Status, t.Result = Completed, json.RawMessage(`{"content":[]}`)
				return nil
			})
			if err != nil || up.Status != Completed {
				t.Fatalf("Update = %+v, %v", up, err)
			}
			got, _ = a.Get(ctx, "t1")
			if got.Status != Completed || string(got.Result) != `{"content":[]}` {
				t.Fatalf("after update: %+v", got)
			}
			same, err := a.Update(ctx, "t1", func(t *Task) error { t.Status = Failed; return ErrUnchanged })
			if err != nil || same.Status != Completed {
				t.Fatalf("an unchanged update changed the task: %+v, %v", same, err)
			}
			if _, err := a.Get(ctx, "nope"); !errors.Is(err, ErrNotFound) {
				t.Fatalf("Get of an unknown id: %v", err)
			}
			if _, err := a.Update(ctx, "nope", func(*Task) error { return nil }); !errors.Is(err, ErrNotFound) {
				t.Fatalf("Update of an unknown id: %v", err)
			}
		})
	}
}

func TestStoreListPerOwner(t *testing.T) {
	ctx := context.Background()
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open()
			base := time.Now()
			for i := range 5 {
				tk := newTask(fmt.Sprintf("a%d", i), "alice")
				tk.CreatedAt = base.Add(time.Duration(i) * time.Second)
				if err := s.Create(ctx, tk); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Create(ctx, newTask("b0", "bob")); err != nil {
				t.Fatal(err)
			}
			var ids []string
			after := ""
			for {
				page, next, err := s.List(ctx, "alice", after, 2)
				if err != nil {
					t.Fatal(err)
				}
				for _, tk := range page {
					ids = append(ids, tk.ID)
				}
				if next == "" {
					break
				}
				after = next
			}
			if fmt.Sprint(ids) != "[a0 a1 a2 a3 a4]" {
				t.Fatalf("alice's tasks in pages of 2: %v", ids)
			}
			bob, _, _ := s.List(ctx, "bob", "", 10)
			if len(bob) != 1 || bob[0].ID != "b0" {
				t.Fatalf("bob's tasks: %v", bob)
			}
			if _, _, err := s.List(ctx, "alice", "b0", 10); err == nil {
				t.Fatal("a cursor naming another owner's task was accepted")
			}
		})
	}
}

// A change made through one handle (replica) wakes a watcher on another.
func TestStoreWatchAcrossReplicas(t *testing.T) {
	ctx := context.Background()
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) {
			a, b := open(), open()
			if err := a.Create(ctx, newTask("w1", "")); err != nil {
				t.Fatal(err)
			}
			changes, stop := Changes(a, "w1")
			defer stop()
			// The subscription of a new watcher may take a moment to
			// reach Redis: change the task until the watcher hears it.
			deadline := time.After(10 * time.Second)
			tick := time.NewTicker(20 * time.Millisecond)
			defer tick.Stop()
			for {
				if _, err := b.Update(ctx, "w1", func(t *Task) error { t.CancelRequested = true; return nil }); err != nil {
					t.Fatal(err)
				}
				select {
				case <-changes:
					got, _ := a.Get(ctx, "w1")
					if !got.CancelRequested {
						t.Fatal("woken, but the change is not visible")
					}
					return
				case <-tick.C:
				case <-deadline:
					t.Fatal("the watcher never heard of the change made on the other replica")
				}
			}
		})
	}
}

// A running task whose lease ran out is failed by the first reader.
func TestStoreReapAbandoned(t *testing.T) {
	ctx := context.Background()
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open()
			tk := newTask("r1", "")
			tk.LeaseUntil = time.Now().Add(-time.Second)
			if err := s.Create(ctx, tk); err != nil {
				t.Fatal(err)
			}
			got, err := Reap(ctx, s, "r1", time.Now())
			if err != nil || got.Status != Failed || len(got.Error) == 0 {
				t.Fatalf("Reap = %+v, %v", got, err)
			}
			live := newTask("r2", "")
			if err := s.Create(ctx, live); err != nil {
				t.Fatal(err)
			}
			if got, _ := Reap(ctx, s, "r2", time.Now()); got.Status != Working {
				t.Fatalf("a task with a live lease was reaped: %+v", got)
			}
		})
	}
}

// A task that ended is forgotten after its TTL (counted from creation,
// and at least MinKeep after it ended).
func TestStoreExpiry(t *testing.T) {
	ctx := context.Background()
	for name, open := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open()
			past := time.Now().Add(-2 * MinKeep)
			tk := &Task{ID: "e1", Status: Completed, CreatedAt: past, UpdatedAt: past, TTL: 2*MinKeep + 300*time.Millisecond}
			if err := s.Create(ctx, tk); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Get(ctx, "e1"); err != nil {
				t.Fatalf("the task is gone before its TTL: %v", err)
			}
			deadline := time.Now().Add(10 * time.Second)
			for {
				_, err := s.Get(ctx, "e1")
				if errors.Is(err, ErrNotFound) {
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("the task outlived its TTL by far: %v", err)
				}
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
}

func TestOpenURLs(t *testing.T) {
	if s, err := Open(context.Background(), "memory"); err != nil || s == nil {
		t.Fatalf("memory: %v", err)
	}
	if _, err := Open(context.Background(), "postgres://x"); err == nil {
		t.Fatal("an unknown store URL was accepted")
	}
	if _, err := Open(context.Background(), "redis://127.0.0.1:1/0"); err == nil {
		t.Fatal("a Redis server that is not there was accepted")
	}
}

// TestRedisErrorsHideThePassword: neither a URL that cannot be parsed, nor
// a server that cannot be reached (at open or on a ping) shows the URL's
// password in the error.
func TestRedisErrorsHideThePassword(t *testing.T) {
	const password = "pw-7Tq2-unlikely"
	for _, url := range []string{
		"redis://user:" + password + "@[::1:6379/0",
		"redis://user:" + password + "@127.0.0.1:6379/not-a-number",
		"redis://user:" + password + "@127.0.0.1:1/0",
	} {
		_, err := Open(context.Background(), url)
		if err == nil || strings.Contains(err.Error(), password) {
			t.Errorf("Open(%s): %v", url, err)
		}
	}
	url := os.Getenv("MCPDECL_TEST_REDIS_URL")
	if url == "" {
		return
	}
	r, err := OpenRedis(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.Ping(context.Background()); err != nil {
		t.Fatalf("Ping of a live server: %v", err)
	}
}

// TestRedisKeyPrefixSeparatesDeployments: two servers sharing a Redis
// database see each other's tasks (that is how replicas work), unless the
// store URL gives each deployment its own key_prefix: then a task, the
// owner's list and the bounds of one are invisible to the other. The
// Redis client's own parameters still reach it.
func TestRedisKeyPrefixSeparatesDeployments(t *testing.T) {
	url := testenv.Redis.Need(t)
	ctx := context.Background()
	run := fmt.Sprintf("t%d", time.Now().UnixNano())
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	open := func(prefix string) *Redis {
		t.Helper()
		r, err := OpenRedis(ctx, url+sep+"dial_timeout=2s&key_prefix="+prefix)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = r.Close() })
		return r
	}
	a, aPeer, b := open(run+"-a"), open(run+"-a:"), open(run+"-b")
	if a.prefix != run+"-a:" || aPeer.prefix != a.prefix {
		t.Fatalf("prefixes %q and %q; want %q for both", a.prefix, aPeer.prefix, run+"-a:")
	}
	if err := a.Create(ctx, newTask("task-of-deployment-a", "sub:alice")); err != nil {
		t.Fatal(err)
	}
	if _, err := aPeer.Get(ctx, "task-of-deployment-a"); err != nil {
		t.Errorf("a replica of the same deployment: %v", err)
	}
	if _, err := b.Get(ctx, "task-of-deployment-a"); !errors.Is(err, ErrNotFound) {
		t.Errorf("another deployment reads the task: %v; want not found", err)
	}
	if listed, _, err := b.List(ctx, "sub:alice", "", 10); err != nil || len(listed) != 0 {
		t.Errorf("another deployment lists %d of alice's tasks (%v); want none", len(listed), err)
	}
	for _, bad := range []string{"", "a b", "x}y", strings.Repeat("p", 65)} {
		if _, err := OpenRedis(ctx, url+sep+"key_prefix="+neturl.QueryEscape(bad)); err == nil || !strings.Contains(err.Error(), "key_prefix") {
			t.Errorf("key_prefix %q: %v; want it refused", bad, err)
		}
	}
}
