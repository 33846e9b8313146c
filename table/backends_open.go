package table

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/internal/rule"
)

// BackendError is a backend that could not be opened.
type BackendError struct {
	Name string
	Err  error // the adapter's error, which names the backend
}

func (e *BackendError) Error() string { return e.Err.Error() }
func (e *BackendError) Unwrap() error { return e.Err }

// OpenBackends opens every backend of the table that acquires resources (a
// connection pool), each one even when another fails, in name order. It
// returns one error per backend that could not be opened, with t's
// secrets taken out. Release the backends with CloseBackends in any case.
func (t *Table) OpenBackends(ctx context.Context) []*BackendError {
	_, _, failed := t.openEach(ctx, false)
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
func (t *Table) OpenForCheck(ctx context.Context) (notes []string, diags hcl.Diagnostics, failed []*BackendError) {
	return t.openEach(ctx, true)
}

// openEach opens every backend of t that acquires resources, each one
// even when another fails, in name order; with check, a CheckOpener opens
// its checking way.
func (t *Table) openEach(ctx context.Context, check bool) (notes []string, diags hcl.Diagnostics, failed []*BackendError) {
	for _, name := range t.backendNames() {
		b := t.Backends[name]
		if co, ok := b.(CheckOpener); ok && check {
			note, d := co.CheckOpen(ctx)
			diags = append(diags, RedactDiagnostics(d, t.Secrets)...)
			if note != "" {
				notes = append(notes, rule.Redact(note, t.Secrets))
			}
			continue
		}
		o, ok := b.(adapter.Opener)
		if !ok {
			continue
		}
		if err := o.Open(ctx); err != nil {
			failed = append(failed, &BackendError{Name: name, Err: errors.New(rule.Redact(err.Error(), t.Secrets))})
		}
	}
	return notes, diags, failed
}

// CloseBackends closes every backend of the table that holds resources; failures
// are logged (log may be nil).
func (t *Table) CloseBackends(log *slog.Logger) {
	for _, name := range t.backendNames() {
		c, ok := t.Backends[name].(io.Closer)
		if !ok {
			continue
		}
		if err := c.Close(); err != nil && log != nil {
			log.Warn("closing backend failed", "backend", name, "error", rule.Redact(err.Error(), t.Secrets))
		}
	}
}

func (t *Table) backendNames() []string {
	names := make([]string, 0, len(t.Backends))
	for name := range t.Backends {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
