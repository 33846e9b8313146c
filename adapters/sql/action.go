package sqladapter

import (
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/adapter"
)

// Action is a compiled `sql "<backend>" { ... }` block.
type Action struct {
	// Owner names the enclosing block, e.g. `tool "open_orders"`.
	Owner string
	Range hcl.Range
	// Backend is nil only when the call named no known backend (which is
	// itself reported).
	Backend *Backend
	// Query is nil when the query did not compile.
	Query   *Query
	MaxRows int
	// ReadOnly is true when the backend or the call is read-only; the
	// runtime then runs the statement in a read-only transaction.
	ReadOnly bool

	// columns is the column info of the last result set, which the next
	// call reuses when its columns are the same (see readRows). It is
	// shared, read-only, by the results of those calls.
	columns atomic.Pointer[columnInfo]
	// summary names the call in traces and metrics (Summary).
	summary *adapter.CallSummary
}

var (
	_ adapter.Action         = (*Action)(nil)
	_ adapter.ReadOnlyAction = (*Action)(nil)
)

// ChangesNothing implements adapter.ReadOnlyAction: a read-only call runs in a
// read-only transaction, so it changes nothing.
func (a *Action) ChangesNothing() bool { return a.ReadOnly }

// Writes reports whether the call's statement needs a writable call (see
// Query.Writes); `mcpdecl validate` compares it with the tool's
// annotations and the backend's read_only.
func (a *Action) Writes() bool { return a.Query != nil && a.Query.Writes }

// Describe returns the call's static settings.
func (a *Action) Describe() map[string]any {
	d := map[string]any{"kind": Kind, "max_rows": a.MaxRows, "read_only": a.ReadOnly}
	if a.Backend != nil {
		d["backend"] = a.Backend.Name
	}
	if a.Query != nil {
		d["query"] = a.Query.Text
		d["params"] = len(a.Query.Params)
	}
	return d
}
