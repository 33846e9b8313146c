package limits

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/mcpdecl/mcpdecl/internal/testenv"
)

func TestParseRate(t *testing.T) {
	for in, want := range map[string]Rate{"10/minute": {10, time.Minute}, "1/s": {1, time.Second}, " 3 / hour ": {3, time.Hour}, "5/day": {5, 24 * time.Hour}} {
		got, err := ParseRate(in)
		if err != nil || got != want {
			t.Errorf("ParseRate(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "10", "0/minute", "-1/s", "x/s", "10/fortnight", "10/"} {
		if _, err := ParseRate(in); err == nil {
			t.Errorf("ParseRate(%q) gave no error", in)
		}
	}
}

// TestMemoryBucket drives the clock: burst takes pass, the next waits for
// one token, refilling lets one more through.
func TestMemoryBucket(t *testing.T) {
	m := NewMemory()
	now := time.Unix(1000, 0)
	m.now = func() time.Time { return now }
	b := Bucket{Rate: Rate{Tokens: 2, Per: time.Second}, Burst: 3}
	for i := 0; i < 3; i++ {
		if d, _ := m.Take(context.Background(), "k", b); !d.Allowed {
			t.Fatalf("take %d refused", i)
		}
	}
	d, _ := m.Take(context.Background(), "k", b)
	if d.Allowed || d.RetryAfter != 500*time.Millisecond {
		t.Fatalf("4th take = %+v, want refused with 500ms", d)
	}
	if d, _ := m.Take(context.Background(), "other", b); !d.Allowed {
		t.Fatal("another key shares the bucket")
	}
	now = now.Add(500 * time.Millisecond)
	if d, _ := m.Take(context.Background(), "k", b); !d.Allowed {
		t.Fatal("refilled token refused")
	}
	// Untouched long enough, buckets are swept.
	now = now.Add(2 * sweepEvery)
	m.Take(context.Background(), "new", b)
	if m.Len() != 1 {
		t.Fatalf("%d buckets kept after the sweep, want 1", m.Len())
	}
}

func redisURL(t *testing.T) string { return testenv.Redis.Need(t) }

// TestRedisSharedBucket opens two stores on one Redis (two replicas):
// they share the bucket, and the key expires.
func TestRedisSharedBucket(t *testing.T) {
	url := redisURL(t)
	prefix := "mcpdecl-limits-test-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	ctx := context.Background()
	a, err := Open(ctx, url+"?key_prefix="+prefix)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := OpenRedis(ctx, url+"?key_prefix="+prefix)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	bk := Bucket{Rate: Rate{Tokens: 1, Per: time.Hour}, Burst: 2}
	if d, err := a.Take(ctx, "caller", bk); err != nil || !d.Allowed {
		t.Fatalf("replica a: %+v %v", d, err)
	}
	if d, err := b.Take(ctx, "caller", bk); err != nil || !d.Allowed {
		t.Fatalf("replica b: %+v %v", d, err)
	}
	d, err := a.Take(ctx, "caller", bk)
	if err != nil || d.Allowed || d.RetryAfter < 59*time.Minute || d.RetryAfter > time.Hour {
		t.Fatalf("third take across replicas = %+v %v, want refused for about an hour", d, err)
	}
	keys, err := b.c.Keys(ctx, prefix+":*").Result()
	if err != nil || len(keys) != 1 {
		t.Fatalf("keys %v %v, want one hashed bucket", keys, err)
	}
	ttl, _ := b.c.PTTL(ctx, keys[0]).Result()
	if ttl <= 0 || ttl > 2*time.Hour+time.Second {
		t.Fatalf("bucket TTL %v, want about the 2h it takes to fill", ttl)
	}
	// A fast bucket refills through the script.
	fast := Bucket{Rate: Rate{Tokens: 1000, Per: time.Second}, Burst: 1}
	a.Take(ctx, "fast", fast)
	time.Sleep(5 * time.Millisecond)
	if d, _ := b.Take(ctx, "fast", fast); !d.Allowed {
		t.Fatalf("refilled take refused: %+v", d)
	}
}

func TestOpenRefuses(t *testing.T) {
	for _, url := range []string{"postgres://x", "redis://127.0.0.1:1/0?key_prefix=a%20b"} {
		if _, err := Open(context.Background(), url); err == nil {
			t.Errorf("Open(%q) gave no error", url)
		}
	}
}

func BenchmarkMemoryTake(b *testing.B) {
	m := NewMemory()
	bk := Bucket{Rate: Rate{Tokens: 1_000_000, Per: time.Second}, Burst: 1_000_000}
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		m.Take(ctx, "per_caller\x00c\x00sub:https://issuer\x00alice", bk)
	}
}

func BenchmarkRedisTake(b *testing.B) {
	url := testenv.Redis.Need(b)
	r, err := OpenRedis(context.Background(), url+"?key_prefix=mcpdecl-limits-bench")
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	bk := Bucket{Rate: Rate{Tokens: 1_000_000, Per: time.Second}, Burst: 1_000_000}
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := r.Take(ctx, "bench", bk); err != nil {
			b.Fatal(err)
		}
	}
}

// TestReturnGivesATokenBack: a returned token can be taken again, never
// beyond the burst, in memory and in Redis; returning to a bucket that
// is gone (full) does nothing.
func TestReturnGivesATokenBack(t *testing.T) {
	ctx := context.Background()
	stores := map[string]Store{"memory": NewMemory()}
	if url := testenv.Redis.Optional(t, "returning to a bucket in Redis"); url != "" {
		r, err := OpenRedis(ctx, url+"?key_prefix=mcpdecl-limits-return-"+strconv.FormatInt(time.Now().UnixNano(), 36))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		stores["redis"] = r
	}
	bk := Bucket{Rate: Rate{Tokens: 1, Per: time.Hour}, Burst: 2}
	for name, s := range stores {
		t.Run(name, func(t *testing.T) {
			if err := s.Return(ctx, "never-taken", bk); err != nil {
				t.Fatal(err)
			}
			for i := range 2 {
				if d, _ := s.Take(ctx, "k", bk); !d.Allowed {
					t.Fatalf("take %d refused", i)
				}
			}
			if d, _ := s.Take(ctx, "k", bk); d.Allowed {
				t.Fatal("a third take allowed with a burst of 2")
			}
			if err := s.Return(ctx, "k", bk); err != nil {
				t.Fatal(err)
			}
			if d, _ := s.Take(ctx, "k", bk); !d.Allowed {
				t.Fatal("the returned token cannot be taken")
			}
			for range 5 {
				if err := s.Return(ctx, "k", bk); err != nil {
					t.Fatal(err)
				}
			}
			allowed := 0
			for range 4 {
				if d, _ := s.Take(ctx, "k", bk); d.Allowed {
					allowed++
				}
			}
			if allowed != 2 {
				t.Fatalf("after five returns %d takes allowed, want the burst, 2", allowed)
			}
		})
	}
}
