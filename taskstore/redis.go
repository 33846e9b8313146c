package taskstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis is a Store in a Redis server shared by every replica. Each task is
// one JSON value that expires with the task; an owner's tasks are indexed
// in a sorted set; every change is published on the task's channel, which
// the replica running the task (and a 2025 client waiting for its result)
// subscribes to.
type Redis struct {
	c      *redis.Client
	prefix string

	mu       sync.Mutex
	ps       *redis.PubSub
	watchers map[string]map[*chan struct{}]bool
}

var _ Store = (*Redis)(nil)

// OpenRedis connects to the Redis server of a redis:// or rediss:// URL
// (redis://[user:password@]host:port/db) and checks that it answers.
func OpenRedis(ctx context.Context, url string) (*Redis, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("task store URL: %w", err)
	}
	c := redis.NewClient(opt)
	if err := c.Ping(ctx).Err(); err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("task store %s: %w", opt.Addr, err)
	}
	return &Redis{c: c, prefix: "mcpdecl:", watchers: map[string]map[*chan struct{}]bool{}}, nil
}

// WithPrefix returns the store with its keys under prefix (tests use one
// per run; the default is "mcpdecl:").
func (r *Redis) WithPrefix(prefix string) *Redis {
	r.prefix = prefix
	return r
}

func (r *Redis) key(id string) string         { return r.prefix + "task:" + id }
func (r *Redis) ownerKey(o string) string     { return r.prefix + "owner:" + o }
func (r *Redis) channel(id string) string     { return r.prefix + "changed:" + id }
func (r *Redis) idOfChannel(ch string) string { return strings.TrimPrefix(ch, r.prefix+"changed:") }

// Create implements Store.
func (r *Redis) Create(ctx context.Context, t *Task) error {
	b, err := json.Marshal(t)
	if err != nil {
		return err
	}
	exp := t.ExpiresAt()
	ok, err := r.c.SetArgs(ctx, r.key(t.ID), b, redis.SetArgs{Mode: "NX", ExpireAt: exp}).Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return err
	}
	if ok != "OK" {
		return errors.New("taskstore: task id already in use")
	}
	ok2 := r.c.ZAdd(ctx, r.ownerKey(t.Owner), redis.Z{Score: float64(t.CreatedAt.UnixMilli()), Member: t.ID})
	if ok2.Err() != nil {
		return ok2.Err()
	}
	// The index lives as long as its newest task may.
	return r.c.ExpireGT(ctx, r.ownerKey(t.Owner), time.Until(exp)+MinKeep).Err()
}

// Get implements Store.
func (r *Redis) Get(ctx context.Context, id string) (*Task, error) {
	b, err := r.c.Get(ctx, r.key(id)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	var t Task
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("taskstore: task %s is not readable: %w", id, err)
	}
	return &t, nil
}

// maxUpdateTries bounds the retries of an update that raced another.
const maxUpdateTries = 100

// Update implements Store with an optimistic transaction: when another
// replica changed the task between the read and the write, it runs again.
func (r *Redis) Update(ctx context.Context, id string, fn func(*Task) error) (*Task, error) {
	key := r.key(id)
	for range maxUpdateTries {
		var out *Task
		err := r.c.Watch(ctx, func(tx *redis.Tx) error {
			b, err := tx.Get(ctx, key).Bytes()
			if errors.Is(err, redis.Nil) {
				return ErrNotFound
			}
			if err != nil {
				return err
			}
			var t Task
			if err := json.Unmarshal(b, &t); err != nil {
				return fmt.Errorf("taskstore: task %s is not readable: %w", id, err)
			}
			if err := fn(&t); err != nil {
				out = &t
				return err
			}
			nb, err := json.Marshal(&t)
			if err != nil {
				return err
			}
			_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.Set(ctx, key, nb, 0)
				p.PExpireAt(ctx, key, t.ExpiresAt())
				p.Publish(ctx, r.channel(id), "1")
				return nil
			})
			out = &t
			return err
		}, key)
		switch {
		case errors.Is(err, redis.TxFailedErr):
			continue
		case errors.Is(err, ErrUnchanged):
			return r.Get(ctx, id)
		case err != nil:
			return nil, err
		}
		return out, nil
	}
	return nil, fmt.Errorf("taskstore: task %s changed too often to update", id)
}

// List implements Store.
func (r *Redis) List(ctx context.Context, owner, after string, limit int) ([]*Task, string, error) {
	ids, err := r.c.ZRange(ctx, r.ownerKey(owner), 0, -1).Result()
	if err != nil {
		return nil, "", err
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
		return nil, "", err
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
	return page(all, after, limit)
}

// Watch implements Store: one subscription per store carries every
// watched task's channel.
func (r *Redis) Watch(id string) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	r.mu.Lock()
	if r.ps == nil {
		r.ps = r.c.Subscribe(context.Background())
		go r.dispatch(r.ps.Channel())
	}
	if r.watchers[id] == nil {
		r.watchers[id] = map[*chan struct{}]bool{}
		_ = r.ps.Subscribe(context.Background(), r.channel(id))
	}
	r.watchers[id][&ch] = true
	r.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			r.mu.Lock()
			defer r.mu.Unlock()
			delete(r.watchers[id], &ch)
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
		for ch := range r.watchers[id] {
			select {
			case *ch <- struct{}{}:
			default:
			}
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
