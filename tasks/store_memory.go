package tasks

import (
	"context"
	"errors"
	"slices"
	"sort"
	"sync"
	"time"
)

// Memory is a Store in this process's memory: the default, for one
// process (stdio, or one HTTP server). Tasks are lost when it exits.
type Memory struct {
	mu       sync.Mutex
	tasks    map[string]*Task
	watchers map[string][]*func()
	now      func() time.Time
	swept    time.Time // the last sweep of expired tasks
	fin      *finished // the finished tasks, oldest first, within limits
	limits   Limits
}

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory {
	return &Memory{tasks: map[string]*Task{}, watchers: map[string][]*func(){}, now: time.Now, fin: newFinished(), limits: DefaultLimits}
}

// SetLimits implements Store; they apply from the next task that ends.
func (m *Memory) SetLimits(l Limits) {
	m.mu.Lock()
	m.limits = l
	m.mu.Unlock()
}

// drop forgets a task; m.mu is held.
func (m *Memory) drop(id string) {
	delete(m.tasks, id)
	m.fin.remove(id)
}

// ended records a task that is (now) finished and forgets the tasks the
// limits no longer leave room for; m.mu is held.
func (m *Memory) ended(t *Task) {
	for _, id := range m.fin.add(t, m.limits) {
		delete(m.tasks, id)
	}
}

var _ Store = (*Memory)(nil)

// sweepEvery is the time between two sweeps of expired tasks: each costs
// one look at every task, so it is paid once per period, not per write.
const sweepEvery = time.Second

// Create implements Store.
func (m *Memory) Create(_ context.Context, t *Task) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.live(t.ID); ok {
		return ErrIDInUse
	}
	m.tasks[t.ID] = t.Clone()
	if t.Terminal() {
		m.ended(t)
	}
	m.wrote()
	return nil
}

// live returns a stored task that has not expired, dropping one that has.
func (m *Memory) live(id string) (*Task, bool) {
	t, ok := m.tasks[id]
	if ok && m.now().After(t.ExpiresAt()) {
		m.drop(id)
		return nil, false
	}
	return t, ok
}

func (m *Memory) wrote() {
	now := m.now()
	if now.Sub(m.swept) < sweepEvery {
		return
	}
	m.swept = now
	for id, t := range m.tasks {
		if now.After(t.ExpiresAt()) {
			m.drop(id)
		}
	}
}

// Get implements Store.
func (m *Memory) Get(_ context.Context, id string) (*Task, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.live(id)
	if !ok {
		return nil, ErrNotFound
	}
	return t.Clone(), nil
}

// Update implements Store.
func (m *Memory) Update(_ context.Context, id string, fn func(*Task) error) (*Task, error) {
	m.mu.Lock()
	t, ok := m.live(id)
	if !ok {
		m.mu.Unlock()
		return nil, ErrNotFound
	}
	c := t.Clone()
	err := fn(c)
	if errors.Is(err, ErrUnchanged) {
		m.mu.Unlock()
		return t.Clone(), nil
	}
	if err != nil {
		m.mu.Unlock()
		return nil, err
	}
	m.tasks[id] = c
	if c.Terminal() {
		m.ended(c)
	} else if t.Terminal() {
		m.fin.remove(id)
	}
	m.wrote()
	out := c.Clone()
	m.signal(id)
	m.mu.Unlock()
	return out, nil
}

// signal wakes the task's watchers; m.mu is held.
func (m *Memory) signal(id string) {
	for _, notify := range m.watchers[id] {
		(*notify)()
	}
}

// List implements Store.
func (m *Memory) List(_ context.Context, owner, after string, limit int) ([]*Task, string, error) {
	if owner == "" {
		return page(nil, after, limit) // tasks of nobody are never listed
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var all []*Task
	for id, t := range m.tasks {
		if t.Owner != owner {
			continue
		}
		if _, ok := m.live(id); ok {
			all = append(all, t)
		}
	}
	sort.Slice(all, func(i, j int) bool { return olderThan(all[i], all[j]) })
	return page(all, after, limit)
}

// olderThan orders tasks by creation, then id.
func olderThan(a, b *Task) bool {
	if !a.CreatedAt.Equal(b.CreatedAt) {
		return a.CreatedAt.Before(b.CreatedAt)
	}
	return a.ID < b.ID
}

// page cuts one page out of sorted tasks (copies them).
func page(all []*Task, after string, limit int) ([]*Task, string, error) {
	start := 0
	if after != "" {
		start = -1
		for i, t := range all {
			if t.ID == after {
				start = i + 1
				break
			}
		}
		if start < 0 {
			return nil, "", ErrBadCursor
		}
	}
	end := len(all)
	if limit > 0 && start+limit < end {
		end = start + limit
	}
	out := make([]*Task, 0, end-start)
	for _, t := range all[start:end] {
		out = append(out, t.Clone())
	}
	next := ""
	if end < len(all) && len(out) > 0 {
		next = out[len(out)-1].ID
	}
	return out, next, nil
}

// Watch implements Store.
func (m *Memory) Watch(id string, notify func()) func() {
	w := &notify
	m.mu.Lock()
	m.watchers[id] = append(m.watchers[id], w)
	m.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			m.mu.Lock()
			ws := slices.DeleteFunc(m.watchers[id], func(x *func()) bool { return x == w })
			if len(ws) == 0 {
				delete(m.watchers, id)
			} else {
				m.watchers[id] = ws
			}
			m.mu.Unlock()
		})
	}
}

// Close implements Store.
func (m *Memory) Close() error { return nil }
