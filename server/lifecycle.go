package server

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/mcp"
)

// The lifecycle of a served configuration: a table is compiled (by the
// caller), its backends are opened (OpenBackends), it is swapped in as the
// current generation, and when a reload replaces it, its backends are
// closed as soon as the last call that started on it has ended, and not
// before. Nothing else keeps a replaced table alive, so its memory is
// freed by the next garbage collection.
//
// Each generation (a *state) counts its users: one reference for being
// current, one per call in flight. Whoever drops the count to zero closes
// the generation's backends, once.

// Open opens t's backends and returns a Server serving t. The server owns
// the backends of every table it serves from then on: Reload opens the
// next table's and retires the current one; Close retires the last.
func Open(ctx context.Context, t *dispatch.Table, opts *Options) (*Server, error) {
	if err := openOrClose(ctx, t); err != nil {
		return nil, err
	}
	s := New(t, opts)
	s.state.Load().owned = true
	return s, nil
}

// Reload opens t's backends and, when they all open, swaps t in: calls
// that start from now on use t, calls in flight finish on the table they
// started with, whose backends are closed when the last of them ends. On
// an error nothing changes and the previous table keeps serving. It
// returns the lists that changed and the URIs of resources whose content
// changed, for list_changed and resources/updated.
func (s *Server) Reload(ctx context.Context, t *dispatch.Table) (mcp.ListKind, []string, error) {
	if err := openOrClose(ctx, t); err != nil {
		return 0, nil, err
	}
	return s.swap(t, true)
}

// Close retires the table being served: its backends are closed once the
// calls in flight have ended (at once when there are none). Call it after
// the transport has stopped taking requests.
func (s *Server) Close() {
	s.swapMu.Lock()
	defer s.swapMu.Unlock()
	if !s.closed {
		s.closed = true
		s.state.Load().release()
	}
}

// errClosed is Reload's error after Close.
var errClosed = errors.New("the server is closed")

// swap makes t the current generation and retires the previous one.
func (s *Server) swap(t *dispatch.Table, owned bool) (mcp.ListKind, []string, error) {
	s.swapMu.Lock()
	defer s.swapMu.Unlock()
	if s.closed {
		if owned {
			CloseBackends(t, s.log)
		}
		return 0, nil, errClosed
	}
	next := newState(t)
	next.owned = owned
	next.log = s.log
	prev := s.state.Swap(next)
	kinds, updated := changedLists(prev, next), changedResources(prev, next)
	prev.release()
	return kinds, updated, nil
}

// generation is the reference count of one state: it closes the state's
// backends when the count drops to zero.
type generation struct {
	// refs starts at 1, the reference of being the current generation.
	refs  atomic.Int64
	once  sync.Once
	owned bool         // whether the server opened the backends (Open, Reload)
	log   *slog.Logger // where closing failures go
}

// acquire returns the current generation with a reference for one call;
// the call must release it when it ends.
func (s *Server) acquire() *state {
	for {
		st := s.state.Load()
		st.refs.Add(1)
		if s.state.Load() == st {
			return st
		}
		// Retired between the load and the count: it may already be
		// closed, so use the new one.
		st.release()
	}
}

// release drops one reference; the last one closes the backends.
func (st *state) release() {
	if st.refs.Add(-1) != 0 {
		return
	}
	st.once.Do(func() {
		if st.owned {
			CloseBackends(st.table, st.log)
		}
	})
}

// BackendError is a backend that could not be opened.
type BackendError struct {
	Name string
	Err  error // the adapter's error, which names the backend
}

func (e *BackendError) Error() string { return e.Err.Error() }
func (e *BackendError) Unwrap() error { return e.Err }

// OpenBackends opens every backend of t that acquires resources (a
// connection pool), each one even when another fails, in name order. It
// returns one error per backend that could not be opened, with t's
// secrets taken out. Release the backends with CloseBackends in any case.
func OpenBackends(ctx context.Context, t *dispatch.Table) []*BackendError {
	_, _, failed := openEach(ctx, t, false)
	return failed
}

// CheckOpener is a backend that opens for a check (mcpdecl check)
// differently from serving: without creating or changing anything, with
// its failures as diagnostics at its own attributes, and with a note on
// what it checked against.
type CheckOpener interface {
	CheckOpen(ctx context.Context) (note string, diags hcl.Diagnostics)
}

// OpenForCheck opens t's backends for a check, in the order OpenBackends
// uses: a CheckOpener through CheckOpen, every other backend as for
// serving. It returns the CheckOpeners' notes and diagnostics and the
// other backends that could not be opened, with t's secrets taken out.
// Release the backends with CloseBackends in any case.
func OpenForCheck(ctx context.Context, t *dispatch.Table) (notes []string, diags hcl.Diagnostics, failed []*BackendError) {
	return openEach(ctx, t, true)
}

// openEach opens every backend of t that acquires resources, each one
// even when another fails, in name order; with check, a CheckOpener opens
// its checking way.
func openEach(ctx context.Context, t *dispatch.Table, check bool) (notes []string, diags hcl.Diagnostics, failed []*BackendError) {
	for _, name := range backendNames(t) {
		b := t.Backends[name]
		if co, ok := b.(CheckOpener); ok && check {
			note, d := co.CheckOpen(ctx)
			diags = append(diags, dispatch.RedactDiagnostics(d, t.Secrets)...)
			if note != "" {
				notes = append(notes, dispatch.RedactText(note, t.Secrets))
			}
			continue
		}
		o, ok := b.(adapter.Opener)
		if !ok {
			continue
		}
		if err := o.Open(ctx); err != nil {
			failed = append(failed, &BackendError{Name: name, Err: errors.New(dispatch.RedactText(err.Error(), t.Secrets))})
		}
	}
	return notes, diags, failed
}

// CloseBackends closes every backend of t that holds resources; failures
// are logged (log may be nil).
func CloseBackends(t *dispatch.Table, log *slog.Logger) {
	for _, name := range backendNames(t) {
		c, ok := t.Backends[name].(io.Closer)
		if !ok {
			continue
		}
		if err := c.Close(); err != nil && log != nil {
			log.Warn("closing backend failed", "backend", name, "error", dispatch.RedactText(err.Error(), t.Secrets))
		}
	}
}

// openOrClose opens t's backends; when one fails, it closes the others
// and returns the failures.
func openOrClose(ctx context.Context, t *dispatch.Table) error {
	failed := OpenBackends(ctx, t)
	if len(failed) == 0 {
		return nil
	}
	CloseBackends(t, nil)
	errs := make([]error, len(failed))
	for i, f := range failed {
		errs[i] = f
	}
	return errors.Join(errs...)
}

func backendNames(t *dispatch.Table) []string {
	names := make([]string, 0, len(t.Backends))
	for name := range t.Backends {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
