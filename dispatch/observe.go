package dispatch

import (
	"context"
	"errors"
	"time"

	"github.com/mcpdecl/mcpdecl/adapter"
)

// BackendObserver follows the backend calls of a call (CallInput.Backends).
type BackendObserver = adapter.Observer

// BackendCall is one backend call a BackendObserver is told of.
type BackendCall = adapter.Call

// observedInvoke runs the action with req.Observer told of it, under the
// context the observer gives (which may carry the call's span, and so
// reach the adapter's outgoing requests).
func observedInvoke(ctx context.Context, step string, action adapter.Action, req *adapter.Request, start time.Time) (*adapter.Result, error) {
	c := &adapter.Call{Summary: adapter.SummaryOf(action), Step: step, Start: start}
	ctx = req.Observer.CallStarted(ctx, c)
	res, err := action.Invoke(ctx, req)
	c.Outcome = backendOutcome(ctx, res, err)
	req.Observer.CallEnded(ctx, c)
	return res, err
}

func backendOutcome(ctx context.Context, res *adapter.Result, err error) string {
	switch {
	case err == nil && res != nil && res.Failure != "":
		return adapter.OutcomeFailure
	case err == nil:
		return adapter.OutcomeOK
	case errors.Is(ctx.Err(), context.Canceled) || errors.Is(err, context.Canceled):
		return adapter.OutcomeCancelled
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		return adapter.OutcomeTimeout
	}
	return adapter.OutcomeError
}
