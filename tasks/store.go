package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// Task statuses, as both protocol eras name them.
const (
	Working       = "working"
	InputRequired = "input_required"
	Completed     = "completed"
	Failed        = "failed"
	Cancelled     = "cancelled"
)

// ErrNotFound is returned for a task that does not exist, has expired, or
// belongs to someone else (callers must not tell these apart).
var ErrNotFound = errors.New("taskstore: no such task")

// ErrUnavailable is wrapped by every error that says the store could not
// be reached (Redis down, the connection refused or cut, a timeout): the
// request was fine and may succeed later. Callers tell it apart with
// errors.Is, and must not report it as a fault of the task or the client.
var ErrUnavailable = errors.New("taskstore: the task store cannot be reached")

// ErrBadCursor is returned by List for an after id that names no task of
// the owner (it expired, or was never theirs): the client's fault.
var ErrBadCursor = errors.New("taskstore: the cursor names no task of this owner (it may have expired); list again from the start")

// ErrIDInUse is returned by Create for an id that a live task has.
var ErrIDInUse = errors.New("taskstore: task id already in use")

// Task is one long call. Its JSON form is what stores keep.
type Task struct {
	ID    string `json:"id"`
	Owner string `json:"owner,omitempty"` // the identity that may see it; "" for anyone holding the id
	Tool  string `json:"tool,omitempty"`

	Status        string    `json:"status"`
	StatusMessage string    `json:"statusMessage,omitempty"`
	CreatedAt     time.Time `json:"createdAt"`
	UpdatedAt     time.Time `json:"updatedAt"`
	// TTL is how long the task is kept after it was created (and at least
	// min(TTL, MinKeep) after it ends).
	TTL          time.Duration `json:"ttl"`
	PollInterval time.Duration `json:"poll,omitempty"`

	// Result is the encoded result of a completed task; Error the JSON-RPC
	// error object of a failed one.
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`

	// InputRequests are the questions the task waits on, by key (encoded
	// requests); InputResponses the answers that came in and the running
	// replica has not taken yet.
	InputRequests  map[string]json.RawMessage `json:"inputRequests,omitempty"`
	InputResponses map[string]json.RawMessage `json:"inputResponses,omitempty"`

	// CancelRequested tells the replica running the task to stop it.
	CancelRequested bool `json:"cancel,omitempty"`
	// Runner names the replica running the task; LeaseUntil is when the
	// task counts as abandoned unless that replica renews it.
	Runner     string    `json:"runner,omitempty"`
	LeaseUntil time.Time `json:"lease,omitempty"`
}

// MinKeep is how long a task is kept after it ends (or its TTL when
// shorter), even when its TTL ran out while it was running, so that a
// client polling it sees the end.
const MinKeep = time.Minute

// Terminal reports a status that never changes again.
func Terminal(status string) bool {
	return status == Completed || status == Failed || status == Cancelled
}

// Terminal reports whether the task has ended.
func (t *Task) Terminal() bool { return Terminal(t.Status) }

// ExpiresAt is when a store may forget the task: TTL after creation, and
// not before min(TTL, MinKeep) after it ended; a running task is kept one
// TTL past its lease, so that a task whose replica died is still reported.
func (t *Task) ExpiresAt() time.Time {
	if !t.Terminal() {
		return t.LeaseUntil.Add(t.TTL)
	}
	exp := t.CreatedAt.Add(t.TTL)
	if keep := t.UpdatedAt.Add(min(t.TTL, MinKeep)); keep.After(exp) {
		exp = keep
	}
	return exp
}

// Abandoned reports a running task whose lease ran out: the replica that
// ran it stopped without ending it.
func (t *Task) Abandoned(now time.Time) bool {
	return !t.Terminal() && !t.LeaseUntil.IsZero() && now.After(t.LeaseUntil)
}

// Clone returns a copy that shares nothing mutable with t.
func (t *Task) Clone() *Task {
	c := *t
	c.InputRequests = cloneMap(t.InputRequests)
	c.InputResponses = cloneMap(t.InputResponses)
	return &c
}

func cloneMap(m map[string]json.RawMessage) map[string]json.RawMessage {
	if m == nil {
		return nil
	}
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Store keeps tasks. Every method is safe for concurrent use, and every
// change is visible to every user of the store once the method returns.
type Store interface {
	// Create stores a new task; the id must be unused.
	Create(ctx context.Context, t *Task) error
	// Get returns a copy of the task, or ErrNotFound.
	Get(ctx context.Context, id string) (*Task, error)
	// Update changes a task atomically: fn gets a copy to change and
	// returns ErrUnchanged to leave it as it was (or another error to
	// fail). The stored task is returned.
	Update(ctx context.Context, id string, fn func(*Task) error) (*Task, error)
	// List returns the owner's tasks, oldest first, starting after the
	// task id after ("" for the first page), at most limit of them, and
	// the id to continue after ("" on the last page). Tasks of the owner
	// "" (nobody in particular) are never listed; an after that names
	// no task of the owner is ErrBadCursor.
	List(ctx context.Context, owner, after string, limit int) ([]*Task, string, error)
	// Watch calls notify after each change of the task, made here or by
	// another replica, until stop is called. notify must not block; it
	// may be called for several changes at once, and concurrently.
	Watch(id string, notify func()) (stop func())
	// SetLimits bounds the finished tasks kept (see Limits); a new store
	// has DefaultLimits.
	SetLimits(Limits)
	// Close releases the store's connections.
	Close() error
}

// Changes is Watch as a channel that receives a value (without blocking,
// so several changes may give one value) after each change.
func Changes(s Store, id string) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	stop := s.Watch(id, func() {
		select {
		case ch <- struct{}{}:
		default:
		}
	})
	return ch, stop
}

// ErrUnchanged, returned by an Update function, leaves the task as it was.
var ErrUnchanged = errors.New("taskstore: unchanged")

// Reap returns the task, first marking it failed when its lease ran out:
// nobody reading a task ever sees it "working" forever after its replica
// died.
func Reap(ctx context.Context, s Store, id string, now time.Time) (*Task, error) {
	t, err := s.Get(ctx, id)
	if err != nil || !t.Abandoned(now) {
		return t, err
	}
	return s.Update(ctx, id, func(t *Task) error {
		if !t.Abandoned(now) {
			return ErrUnchanged
		}
		t.Status, t.UpdatedAt = Failed, now
		t.StatusMessage = "The server running this task stopped before it finished. Call the tool again."
		t.Error = abandonedError
		t.InputRequests, t.InputResponses = nil, nil
		return nil
	})
}

var abandonedError = json.RawMessage(`{"code":-32603,"message":"the server running this task stopped before it finished; call the tool again"}`)
