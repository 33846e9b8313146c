package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mcpdecl/mcpdecl/dispatch"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/table"
	"github.com/mcpdecl/mcpdecl/taskstore"
)

// askInTask asks a running task's questions through the store: the task
// turns input_required with the round's questions as its inputRequests,
// and goes on once tasks/update (on any replica) has answered them all.
func (run *taskRun) askInTask(ctx context.Context, a *dispatch.Asking) (map[string]json.RawMessage, error) {
	answers := map[string]json.RawMessage{}
	for {
		pending := nextRound(a.Questions, answers)
		if len(pending) == 0 {
			return answers, nil
		}
		asked := askable(pending, run.req.ClientCapabilities)
		if len(asked) == 0 {
			return nil, &dispatch.AskFailure{Message: "This must ask the client first, and the client that started the task declared none of the capabilities needed (" + kindsOf(pending) + ")."}
		}
		requests := map[string]json.RawMessage{}
		for _, q := range pending {
			if !containsQuestion(asked, q) {
				answers[q.Key] = json.RawMessage("null")
				continue
			}
			method, params, err := a.Build(q)
			if err != nil {
				return nil, &dispatch.AskFailure{Message: err.Error()}
			}
			requests[q.Key] = mustJSON(mcp.InputRequest{Method: method, Params: mustJSON(params)})
		}
		got, err := run.waitForAnswers(ctx, requests)
		if err != nil {
			return nil, err
		}
		for k, v := range got {
			answers[k] = v
		}
	}
}

func containsQuestion(qs []*table.Question, q *table.Question) bool {
	for _, x := range qs {
		if x == q {
			return true
		}
	}
	return false
}

func kindsOf(qs []*table.Question) string {
	var out []string
	for _, q := range qs {
		out = append(out, map[string]string{"elicit": "elicitation", "sample": "sampling", "roots": "roots"}[q.Kind])
	}
	return strings.Join(out, ", ")
}

// waitForAnswers parks the task on requests and returns the answers once
// every one has come in.
func (run *taskRun) waitForAnswers(ctx context.Context, requests map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	store := run.r.store
	changes, stop := taskstore.Changes(store, run.id)
	defer stop()
	_, err := store.Update(ctx, run.id, func(t *taskstore.Task) error {
		if t.Terminal() {
			return taskstore.ErrUnchanged
		}
		t.Status, t.UpdatedAt = taskstore.InputRequired, time.Now()
		t.StatusMessage = "Waiting for the client to answer " + strconv.Itoa(len(requests)) + " question(s); send the answers with tasks/update."
		t.InputRequests, t.InputResponses = requests, nil
		return nil
	})
	if err != nil {
		return nil, err
	}
	run.moved(taskstore.InputRequired)
	defer run.moved(taskstore.Working)
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
	_, err := run.r.store.Update(ctx, run.id, func(t *taskstore.Task) error {
		if len(t.InputResponses) == 0 {
			return taskstore.ErrUnchanged
		}
		for k, v := range t.InputResponses {
			if _, asked := requests[k]; asked {
				got[k] = v
			}
		}
		t.InputResponses = nil
		if len(got) == len(requests) && t.Status == taskstore.InputRequired {
			t.Status, t.StatusMessage, t.InputRequests = taskstore.Working, "Answers received; working.", nil
		}
		t.UpdatedAt = time.Now()
		return nil
	})
	return err
}

// wireTask is a stored task as the protocol shows it.
func wireTask(t *taskstore.Task) *mcp.Task {
	out := &mcp.Task{TaskID: t.ID, Status: t.Status, StatusMessage: t.StatusMessage, CreatedAt: t.CreatedAt,
		LastUpdatedAt: t.UpdatedAt, TTL: t.TTL, PollInterval: t.PollInterval, Result: t.Result, Error: t.Error}
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
