package tasks

import "container/list"

// Limits bound the finished tasks a store keeps, so that clients cannot
// fill the server's memory (or Redis's) with results nobody reads: the
// tasks spec says a receiver should limit the tasks of each requestor.
// When a task ends and its owner, or the store as a whole, is over a
// bound, the owner's (then the store's) oldest finished tasks are
// forgotten, as if they had expired: reading one then answers "unknown
// task". A running task is never dropped, nor the task that just ended.
// A zero field sets no bound.
type Limits struct {
	// PerOwner is how many finished tasks one owner keeps.
	PerOwner int
	// Anonymous is how many finished tasks of nobody in particular (the
	// owner "": clients without an identity or a session, together) are
	// kept.
	Anonymous int
	// Total is how many finished tasks the store keeps.
	Total int
	// PerOwnerBytes bounds the bytes of one owner's results and errors.
	PerOwnerBytes int64
	// AnonymousBytes bounds the bytes of the results and errors of
	// nobody in particular.
	AnonymousBytes int64
	// TotalBytes bounds the bytes of every kept result and error.
	TotalBytes int64
}

// DefaultLimits are the limits of a new store.
var DefaultLimits = Limits{PerOwner: 100, Anonymous: 1000, Total: 10000, PerOwnerBytes: 64 << 20, AnonymousBytes: 128 << 20, TotalBytes: 1 << 30}

// ownerBounds are the count and byte bounds of one owner's finished tasks.
func (l Limits) ownerBounds(owner string) (int, int64) {
	if owner == "" {
		return l.Anonymous, l.AnonymousBytes
	}
	return l.PerOwner, l.PerOwnerBytes
}

// resultBytes is what a finished task counts against the byte bounds.
func resultBytes(t *Task) int64 { return int64(len(t.Result) + len(t.Error)) }

// over reports a count or a size above its bound (0: none).
func over(n int, size int64, maxN int, maxSize int64) bool {
	return maxN > 0 && n > maxN || maxSize > 0 && size > maxSize
}

// finished is the memory store's record of its finished tasks, oldest
// first, per owner and in all.
type finished struct {
	all    *list.List // of *finEntry
	bytes  int64
	owners map[string]*ownerFinished
	byID   map[string]*finEntry
}

type ownerFinished struct {
	tasks *list.List // of *finEntry
	bytes int64
}

type finEntry struct {
	id, owner  string
	bytes      int64
	inAll, own *list.Element
}

func newFinished() *finished {
	return &finished{all: list.New(), owners: map[string]*ownerFinished{}, byID: map[string]*finEntry{}}
}

// add records a task that just ended; it returns the ids to forget to keep
// within l.
func (f *finished) add(t *Task, l Limits) []string {
	if e := f.byID[t.ID]; e != nil { // ended already: its size may change
		f.resize(e, resultBytes(t))
		return nil
	}
	o := f.owners[t.Owner]
	if o == nil {
		o = &ownerFinished{tasks: list.New()}
		f.owners[t.Owner] = o
	}
	e := &finEntry{id: t.ID, owner: t.Owner, bytes: resultBytes(t)}
	e.inAll, e.own = f.all.PushBack(e), o.tasks.PushBack(e)
	f.bytes += e.bytes
	o.bytes += e.bytes
	f.byID[t.ID] = e

	var gone []string
	maxN, maxB := l.ownerBounds(t.Owner)
	for over(o.tasks.Len(), o.bytes, maxN, maxB) && o.tasks.Front().Value != e {
		gone = append(gone, f.forget(o.tasks.Front().Value.(*finEntry)))
	}
	for over(f.all.Len(), f.bytes, l.Total, l.TotalBytes) {
		oldest := f.all.Front()
		if oldest.Value == e {
			oldest = oldest.Next()
		}
		if oldest == nil {
			break
		}
		gone = append(gone, f.forget(oldest.Value.(*finEntry)))
	}
	return gone
}

func (f *finished) resize(e *finEntry, size int64) {
	f.bytes += size - e.bytes
	f.owners[e.owner].bytes += size - e.bytes
	e.bytes = size
}

// remove drops a task's record, if it has one (it was deleted).
func (f *finished) remove(id string) {
	if e := f.byID[id]; e != nil {
		f.forget(e)
	}
}

func (f *finished) forget(e *finEntry) string {
	o := f.owners[e.owner]
	f.all.Remove(e.inAll)
	o.tasks.Remove(e.own)
	f.bytes -= e.bytes
	o.bytes -= e.bytes
	if o.tasks.Len() == 0 {
		delete(f.owners, e.owner)
	}
	delete(f.byID, e.id)
	return e.id
}
