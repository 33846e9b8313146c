package server

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/table"
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
func Open(ctx context.Context, t *table.Table, opts *Options) (*Server, error) {
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
func (s *Server) Reload(ctx context.Context, t *table.Table) (mcp.ListKind, []string, error) {
	kinds, updated, err := s.reload(ctx, t)
	if s.obs != nil {
		s.swapMu.Lock()
		gen := s.gen
		s.swapMu.Unlock()
		s.obs.Reloaded(gen, err)
	}
	return kinds, updated, err
}

func (s *Server) reload(ctx context.Context, t *table.Table) (mcp.ListKind, []string, error) {
	v, err := s.newVerifier(t)
	if err != nil {
		return 0, nil, err
	}
	if err := openOrClose(ctx, t); err != nil {
		if v != nil {
			v.Close()
		}
		return 0, nil, err
	}
	return s.swap(t, true, v, nil)
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
// v and authErr are t's token checks (see newVerifier).
func (s *Server) swap(t *table.Table, owned bool, v *auth.Verifier, authErr error) (mcp.ListKind, []string, error) {
	s.swapMu.Lock()
	defer s.swapMu.Unlock()
	if s.closed {
		if owned {
			t.CloseBackends(s.log)
		}
		if v != nil {
			v.Close()
		}
		return 0, nil, errClosed
	}
	next := newState(t)
	next.owned = owned
	next.log = s.log
	next.verifier, next.authErr = v, authErr
	next.hooks = s.hooksFor(t)
	prev := s.state.Swap(next)
	s.gen++
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
			st.table.CloseBackends(st.log)
		}
		if st.verifier != nil {
			st.verifier.Close()
		}
	})
}

// openOrClose opens t's backends; when one fails, it closes the others
// and returns the failures.
func openOrClose(ctx context.Context, t *table.Table) error {
	failed := t.OpenBackends(ctx)
	if len(failed) == 0 {
		return nil
	}
	t.CloseBackends(nil)
	errs := make([]error, len(failed))
	for i, f := range failed {
		errs[i] = f
	}
	return errors.Join(errs...)
}
