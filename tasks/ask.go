package tasks

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/mcp"
)

// askInTask asks a running task's questions through the store: the
// server words each round (Call.AskInTask), the task turns input_required
// with the round's questions as its inputRequests, and goes on once
// tasks/update (on any replica) has answered them all.
func (run *taskRun) askInTask(ctx context.Context, a *dispatch.Asking) (map[string]json.RawMessage, error) {
	return run.call.AskInTask(ctx, a, run.waitForAnswers)
}

// waitForAnswers parks the task on requests and returns the answers once
// every one has come in.
func (run *taskRun) waitForAnswers(ctx context.Context, requests map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	store := run.r.store
	changes, stop := Changes(store, run.id)
	defer stop()
	_, err := store.Update(ctx, run.id, func(t *Task) error {
		if t.Terminal() {
			return ErrUnchanged
		}
		t.Status, t.UpdatedAt = InputRequired, time.Now()
		t.StatusMessage = "Waiting for the client to answer " + strconv.Itoa(len(requests)) + " question(s); send the answers with tasks/update."
		t.InputRequests, t.InputResponses = requests, nil
		return nil
	})
	if err != nil {
		return nil, err
	}
	run.moved(InputRequired)
	defer run.moved(Working)
	got := map[string]json.RawMessage{}
	poll := time.NewTicker(run.r.lease / 3)
	defer poll.Stop()
	for {
		if err := run.takeAnswers(ctx, requests, got); err != nil {
			return nil, err
		}
		if len(got) == len(requests) {
			return got, nil
		}
		select {
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		case <-changes:
		case <-poll.C:
		}
	}
}

// takeAnswers moves the answers that came in out of the task, and sets it
// working again once none is missing.
func (run *taskRun) takeAnswers(ctx context.Context, requests, got map[string]json.RawMessage) error {
	_, err := run.r.store.Update(ctx, run.id, func(t *Task) error {
		if len(t.InputResponses) == 0 {
			return ErrUnchanged
		}
		for k, v := range t.InputResponses {
			if _, asked := requests[k]; asked {
				got[k] = v
			}
		}
		t.InputResponses = nil
		if len(got) == len(requests) && t.Status == InputRequired {
			t.Status, t.StatusMessage, t.InputRequests = Working, "Answers received; working.", nil
		}
		t.UpdatedAt = time.Now()
		return nil
	})
	return err
}

// wireTask is a stored task as the protocol shows it.
func wireTask(t *Task) *mcp.Task {
	out := &mcp.Task{TaskID: t.ID, Status: t.Status, StatusMessage: t.StatusMessage, CreatedAt: t.CreatedAt,
		LastUpdatedAt: t.UpdatedAt, TTL: t.TTL, PollInterval: t.PollInterval, Result: t.Result, Error: t.Error, Tool: t.Tool}
	if len(t.InputRequests) > 0 {
		out.InputRequests = make(map[string]mcp.InputRequest, len(t.InputRequests))
		for k, v := range t.InputRequests {
			var ir mcp.InputRequest
			if json.Unmarshal(v, &ir) == nil {
				out.InputRequests[k] = ir
			}
		}
	}
	return out
}

// progressText words a progress report without a message.
func progressText(progress, total float64) string {
	if total > 0 {
		return fmt.Sprintf("%s of %s done", num(progress), num(total))
	}
	return fmt.Sprintf("%s done", num(progress))
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
