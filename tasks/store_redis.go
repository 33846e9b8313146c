package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mcpdecl/mcpdecl/internal/redisurl"

	"github.com/redis/go-redis/v9"
)

// Redis is a Store in a Redis server shared by every replica. Each task is
// one JSON value that expires with the task; an owner's tasks are indexed
// in a sorted set scored by when they may expire, from which each new
// task prunes the expired ones; every change is published on the task's channel, which
// the replica running the task (and a 2025 client waiting for its result)
// subscribes to.
type Redis struct {
	c      *redis.Client
	prefix string

	mu       sync.Mutex
	limits   Limits
	ps       *redis.PubSub
	watchers map[string]map[*func()]bool
}

var _ Store = (*Redis)(nil)

// OpenRedis connects to the Redis server of a redis:// or rediss:// URL
// (redis://[user:password@]host:port/db[?key_prefix=NAME]) and checks
// that it answers. Deployments that share a Redis database share their
// task lists and bounds unless each has its own key_prefix (default
// "mcpdecl:").
func OpenRedis(ctx context.Context, url string) (*Redis, error) {
	opt, prefix, err := redisurl.Options(url, defaultKeyPrefix)
	if err != nil {
		return nil, fmt.Errorf("task store URL: %w", err)
	}
	c := redis.NewClient(opt)
	if err := c.Ping(ctx).Err(); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("task store %s: %w", opt.Addr, err)
	}
	return &Redis{c: c, prefix: prefix, watchers: map[string]map[*func()]bool{}, limits: DefaultLimits}, nil
}

// defaultKeyPrefix is where a store keeps its keys without key_prefix.
const defaultKeyPrefix = "mcpdecl:"

// WithPrefix returns the store with its keys under prefix (tests use one
// per run; the default is defaultKeyPrefix).
func (r *Redis) WithPrefix(prefix string) *Redis {
	r.prefix = prefix
	return r
}

func (r *Redis) key(id string) string         { return r.prefix + "task:" + id }
func (r *Redis) ownerKey(o string) string     { return r.prefix + "owner:" + o }
func (r *Redis) channel(id string) string     { return r.prefix + "changed:" + id }
func (r *Redis) idOfChannel(ch string) string { return strings.TrimPrefix(ch, r.prefix+"changed:") }

// Create implements Store: the task, its place in the owner's index and
// the index's expiry are written in one transaction (one round trip). A
// task of nobody in particular is in no index: nobody lists it.
func (r *Redis) Create(ctx context.Context, t *Task) error {
	b, err := json.Marshal(t)
	if err != nil {
		return err
	}
	exp := t.ExpiresAt()
	var set *redis.StatusCmd
	index := r.ownerKey(t.Owner)
	// A task may outlive its first expiry while it runs (its lease); the
	// index keeps it for its TTL past that, which covers the common case.
	until := exp.Add(t.TTL + MinKeep)
	_, err = r.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		set = p.SetArgs(ctx, r.key(t.ID), b, redis.SetArgs{Mode: "NX", ExpireAt: exp})
		if t.Owner == "" {
			return nil
		}
		p.ZRemRangeByScore(ctx, index, "-inf", fmt.Sprint(time.Now().UnixMilli()))
		p.ZAdd(ctx, index, redis.Z{Score: float64(until.UnixMilli()), Member: t.ID})
		// The index lives as long as its newest task may: NX sets an
		// expiry on a new index, GT lengthens an existing one.
		p.ExpireNX(ctx, index, time.Until(until))
		p.ExpireGT(ctx, index, time.Until(until))
		return nil
	})
	// A transaction that did not reach Redis leaves set unanswered: that
	// is an outage, not an id in use.
	if err != nil && !errors.Is(err, redis.Nil) {
		return r.fail(ctx, err)
	}
	if set == nil || set.Val() != "OK" {
		return ErrIDInUse
	}
	return nil
}

// fail classifies an error of the Redis client: one that did not come
// from a Redis answer (a refused or cut connection, a timeout, a closed
// pool), or an answer saying Redis cannot serve now, wraps
// ErrUnavailable. The caller's own cancellation stays as it is.
func (r *Redis) fail(ctx context.Context, err error) error {
	if err == nil || errors.Is(err, redis.Nil) || errors.Is(err, ErrUnavailable) {
		return err
	}
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return err
	}
	var reply redis.Error
	if errors.As(err, &reply) && !busyReply(err) {
		return err // Redis answered: it is there
	}
	return fmt.Errorf("%w (%s): %w", ErrUnavailable, r.c.Options().Addr, err)
}

// busyReply reports an answer by which Redis says it cannot serve yet.
func busyReply(err error) bool {
	for _, p := range []string{"LOADING", "MASTERDOWN", "TRYAGAIN", "CLUSTERDOWN"} {
		if redis.HasErrorPrefix(err, p) {
			return true
		}
	}
	return false
}

// Get implements Store.
func (r *Redis) Get(ctx context.Context, id string) (*Task, error) {
	b, err := r.c.Get(ctx, r.key(id)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, r.fail(ctx, err)
	}
	var t Task
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("taskstore: task %s is not readable: %w", id, err)
	}
	return &t, nil
}

// maxUpdateTries bounds the retries of an update that raced another.
const maxUpdateTries = 100

// casScript replaces a task's value only if it is still the one read,
// sets its expiry and announces the change: an update costs one read and
// one script call, and never holds a connection between them.
var casScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PXAT', ARGV[3])
redis.call('PUBLISH', KEYS[2], '1')
return 1`)

// Update implements Store optimistically: when another replica changed
// the task between the read and the write, it runs again.
func (r *Redis) Update(ctx context.Context, id string, fn func(*Task) error) (*Task, error) {
	key := r.key(id)
	for range maxUpdateTries {
		old, err := r.c.Get(ctx, key).Bytes()
		if errors.Is(err, redis.Nil) {
			return nil, ErrNotFound
		}
		if err != nil {
			return nil, r.fail(ctx, err)
		}
		var t Task
		if err := json.Unmarshal(old, &t); err != nil {
			return nil, fmt.Errorf("taskstore: task %s is not readable: %w", id, err)
		}
		ending := !t.Terminal()
		if err := fn(&t); errors.Is(err, ErrUnchanged) {
			var same Task
			_ = json.Unmarshal(old, &same)
			return &same, nil
		} else if err != nil {
			return nil, err
		}
		nb, err := json.Marshal(&t)
		if err != nil {
			return nil, err
		}
		var ok int
		if ending && t.Terminal() {
			ok, err = r.runFinish(ctx, &t, old, nb)
		} else {
			ok, err = casScript.Run(ctx, r.c, []string{key, r.channel(id)}, old, nb, t.ExpiresAt().UnixMilli()).Int()
		}
		if err != nil {
			return nil, r.fail(ctx, err)
		}
		if ok == 1 {
			return &t, nil
		}
	}
	return nil, fmt.Errorf("taskstore: task %s changed too often to update", id)
}

// List implements Store.
func (r *Redis) List(ctx context.Context, owner, after string, limit int) ([]*Task, string, error) {
	if owner == "" {
		return page(nil, after, limit) // tasks of nobody are never listed
	}
	ids, err := r.c.ZRange(ctx, r.ownerKey(owner), 0, -1).Result()
	if err != nil {
		return nil, "", r.fail(ctx, err)
	}
	if len(ids) == 0 {
		return page(nil, after, limit)
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = r.key(id)
	}
	vals, err := r.c.MGet(ctx, keys...).Result()
	if err != nil {
		return nil, "", r.fail(ctx, err)
	}
	var all []*Task
	var gone []any
	for i, v := range vals {
		s, ok := v.(string)
		var t Task
		if !ok || json.Unmarshal([]byte(s), &t) != nil || t.Owner != owner {
			gone = append(gone, ids[i])
			continue
		}
		all = append(all, &t)
	}
	if len(gone) > 0 {
		r.c.ZRem(ctx, r.ownerKey(owner), gone...)
	}
	sort.Slice(all, func(i, j int) bool { return olderThan(all[i], all[j]) })
	return page(all, after, limit)
}

// Watch implements Store: one subscription per store carries every
// watched task's channel.
func (r *Redis) Watch(id string, notify func()) func() {
	r.mu.Lock()
	if r.ps == nil {
		r.ps = r.c.Subscribe(context.Background())
		go r.dispatch(r.ps.Channel())
	}
	if r.watchers[id] == nil {
		r.watchers[id] = map[*func()]bool{}
		_ = r.ps.Subscribe(context.Background(), r.channel(id))
	}
	r.watchers[id][&notify] = true
	r.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			defer r.mu.Unlock()
			delete(r.watchers[id], &notify)
			if len(r.watchers[id]) == 0 {
				delete(r.watchers, id)
				_ = r.ps.Unsubscribe(context.Background(), r.channel(id))
			}
		})
	}
}

// dispatch wakes the watchers of each published change.
func (r *Redis) dispatch(msgs <-chan *redis.Message) {
	for m := range msgs {
		id := r.idOfChannel(m.Channel)
		r.mu.Lock()
		for notify := range r.watchers[id] {
			(*notify)()
		}
		r.mu.Unlock()
	}
}

// Close implements Store.
func (r *Redis) Close() error {
	r.mu.Lock()
	if r.ps != nil {
		_ = r.ps.Close()
	}
	r.mu.Unlock()
	return r.c.Close()
}

// Open opens the store a URL names: "memory" (or "") for this process's
// memory, redis:// or rediss:// for a Redis server.
func Open(ctx context.Context, url string) (Store, error) {
	switch {
	case url == "" || url == "memory":
		return NewMemory(), nil
	case strings.HasPrefix(url, "redis://") || strings.HasPrefix(url, "rediss://"):
		return OpenRedis(ctx, url)
	}
	return nil, fmt.Errorf("task store %q: use \"memory\" or a redis:// URL such as redis://127.0.0.1:6379/0", url)
}

// Ping checks that the Redis server answers, for the readiness probe. The
// error names the server's address, never the URL's password.
func (r *Redis) Ping(ctx context.Context) error {
	if err := r.c.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("task store %s: %w", r.c.Options().Addr, err)
	}
	return nil
}
