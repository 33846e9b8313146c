package dispatch

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/zclconf/go-cty/cty"

	"github.com/mcpdecl/mcpdecl/adapter"
	"github.com/mcpdecl/mcpdecl/eval"
	"github.com/mcpdecl/mcpdecl/table"
)

// eachCall is a step with for_each in a wave: its items, and what the call
// of each item gave, by item index.
// eachAtOnce is how many items of a step that changes nothing are
// called at the same time (one table-wide rule, whatever the backend).
const eachAtOnce = 4

type eachCall struct {
	items   []cty.Value
	answers []*adapter.Result
	stops   []*stopped
	errs    []error
}

// eachItems evaluates the list of a step with for_each, in the request of
// the step (args and the earlier steps). Instead of items it may return
// why the call stops: a list that cannot be computed, is not a list, or is
// longer than the step's bound. null is an empty list.
func eachItems(s *table.Step, req *adapter.Request) (*eachCall, *stopped) {
	v, diags := eval.Value(s.ForEach.Expr, req.Context(s.ForEach.Expr))
	if diags.HasErrors() {
		d := diags[0]
		return nil, &stopped{failed: true, text: fmt.Sprintf("The step %q was not run: its list of items (for_each) could not be computed (%s: %s).", s.Name, d.Summary, d.Detail)}
	}
	v, _ = v.UnmarkDeep()
	if v.IsNull() {
		return &eachCall{}, nil
	}
	ty := v.Type()
	if !ty.IsListType() && !ty.IsSetType() && !ty.IsTupleType() || !v.IsWhollyKnown() {
		return nil, &stopped{failed: true, text: fmt.Sprintf("The step %q was not run: its for_each gave %s, not a list of items.", s.Name, adapter.TypeName(ty))}
	}
	if n := v.LengthInt(); n > s.ForEach.MaxItems {
		return nil, &stopped{text: fmt.Sprintf("This would make %d calls, one per item, and at most %d are allowed, so nothing was called. Ask for fewer items (a narrower search, or a lower limit).", n, s.ForEach.MaxItems)}
	}
	items := make([]cty.Value, 0, v.LengthInt())
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		items = append(items, e)
	}
	n := len(items)
	return &eachCall{items: items, answers: make([]*adapter.Result, n), stops: make([]*stopped, n), errs: make([]error, n)}, nil
}

// runEach calls the items of a step with for_each: those of a step that
// changes nothing a few at a time (eachAtOnce), any other one after the
// other in item order. Once an item stops the call, no later item starts;
// the items before it still finish, since the first stop in item order is
// the one reported.
func runEach(ctx context.Context, t *table.Table, log *slog.Logger, owner string, c *stepCall, run *stepRun, args *callArgs) {
	n := len(c.each.items)
	workers := 1
	if changesNothing(c.step) {
		workers = min(eachAtOnce, n)
	}
	var next atomic.Int64
	var firstStop atomic.Int64
	firstStop.Store(int64(n))
	work := func() {
		for {
			i := int(next.Add(1) - 1)
			if i >= n || int64(i) > firstStop.Load() {
				return
			}
			if runItem(ctx, t, log, owner, c, i, run, args) {
				lowerTo(&firstStop, int64(i))
			}
		}
	}
	if workers <= 1 {
		work()
		return
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(work)
	}
	wg.Wait()
}

// runItem calls one item and reads its answer; it reports whether the item
// stops the call.
func runItem(ctx context.Context, t *table.Table, log *slog.Logger, owner string, c *stepCall, i int, run *stepRun, args *callArgs) bool {
	s, e := c.step, c.each
	req := *c.req
	vars := make(map[string]cty.Value, len(c.req.Vars)+1)
	for k, v := range c.req.Vars {
		vars[k] = v
	}
	vars["each"] = cty.ObjectVal(map[string]cty.Value{"value": e.items[i], "index": cty.NumberIntVal(int64(i))})
	req.Vars = vars
	res, failure := invoke(ctx, log, owner+" step "+s.Name+"["+strconv.Itoa(i)+"]", s.Name, s.Action, &req)
	each := map[string]any{"value": itemJSON(e.items[i]), "index": i}
	e.answers[i] = res
	e.stops[i], e.errs[i] = verdict(s, res, failure, run, args, each)
	if e.errs[i] != nil {
		e.errs[i] = fmt.Errorf("item %d: %w", i, e.errs[i])
	}
	return e.stops[i] != nil || e.errs[i] != nil
}

// itemJSON is an item as expr-lang programs read each.value: decoded
// JSON, numbers with their digits.
func itemJSON(v cty.Value) any {
	out, err := eval.ToJSON(v)
	if err != nil {
		return nil
	}
	return out
}

// lowerTo sets a to v when v is lower.
func lowerTo(a *atomic.Int64, v int64) {
	for {
		cur := a.Load()
		if v >= cur || a.CompareAndSwap(cur, v) {
			return
		}
	}
}

// takeEach reads the answers of a step with for_each in item order: the
// first item that stopped the call stops it; otherwise the answers become
// steps.<name>, a list in item order.
func (r *stepRun) takeEach(c *stepCall) (*stopped, error) {
	s, e := c.step, c.each
	for i := range e.items {
		if e.stops[i] != nil || e.errs[i] != nil {
			return e.stops[i], e.errs[i]
		}
	}
	fields := make([]map[string]any, len(e.items))
	values := make([]cty.Value, len(e.items))
	for i, res := range e.answers {
		v, err := s.Value(res.Fields)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		fields[i], values[i] = res.Fields, v
	}
	r.fields[s.Name], r.cached = fields, nil
	r.values[s.Name] = cty.EmptyTupleVal
	if len(values) > 0 {
		r.values[s.Name] = cty.TupleVal(values)
	}
	r.answered = append(r.answered, s.Name)
	return nil, nil
}
