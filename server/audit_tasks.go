package server

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/observe/logs"
	"github.com/mcpdecl/mcpdecl/table"
)

// What the audit trail records of the tasks/* methods besides
// tasks/cancel (docs/operations.md, "The audit trail"): a result handed
// out is data access as much as the tools/call that made it, so
// tasks/result (2025-11-25) is recorded, and so is a 2026-07-28
// tasks/get that answers with an ended task, whose result or error it
// inlines. Polls of a running task, tasks/list (ids and statuses of the
// caller's own tasks) and tasks/update (the client's answers to the
// task's questions) hand out no data and are not recorded: a client
// polling every second would fill the trail with them.

// auditTaskRead writes the record of a tasks/get or tasks/result that
// handed out a task's result (or failed).
func (s *Server) auditTaskRead(ctx context.Context, req *mcp.Request, id string, t *mcp.Task, err error, start time.Time) {
	st := s.state.Load()
	if st.hooks == nil || st.hooks.audit == nil {
		return
	}
	r := s.auditRecord(logs.WithRequest(ctx, traceparent(req)), st, req, start, err)
	r.TaskID = id
	if t != nil {
		r.Tool = t.Tool
	}
	if err == nil && t != nil {
		switch t.Status {
		case mcp.TaskCompleted:
			var res struct {
				IsError bool `json:"isError"`
			}
			_ = json.Unmarshal(t.Result, &res)
			r.Outcome = OutcomeOK
			if res.IsError {
				r.Outcome = OutcomeToolError
			}
		case mcp.TaskFailed:
			r.Outcome = OutcomeProtocolError
			var e struct {
				Code int `json:"code"`
			}
			if json.Unmarshal(t.Error, &e) == nil {
				r.Code = e.Code
			}
		case mcp.TaskCancelled:
			r.Outcome = OutcomeCancelled
		default:
			r.Outcome = OutcomeOK
		}
	}
	st.hooks.audit.Write(r)
}

// handsOutResult reports whether a tasks/get answer of req's revision
// carries the task's result or error: a 2026-07-28 answer about an ended
// task inlines it; a 2025-11-25 one never does (tasks/result does).
func handsOutResult(req *mcp.Request, t *mcp.Task) bool {
	return req.Era == mcp.EraModern && t != nil && (t.Status == mcp.TaskCompleted || t.Status == mcp.TaskFailed)
}

// completionArg is the argument argName of the prompt or resource
// template ref, or nil. A completion reaches a backend when the argument
// has a complete block (arg.Complete), rather than a list written in the
// configuration.
func completionArg(t *table.Table, refType, ref, argName string) *table.Arg {
	var args *table.Args
	switch refType {
	case "ref/prompt":
		if p := t.Prompt(ref); p != nil {
			args = p.Args
		}
	case "ref/resource":
		for _, tm := range t.Templates {
			if tm.URITemplate == ref {
				args = tm.Args
			}
		}
	}
	if args == nil {
		return nil
	}
	for _, a := range args.List {
		if a.Name == argName {
			return a
		}
	}
	return nil
}

// auditCompletion writes the record of a completion/complete that
// reached a backend: the prompt (name) or template (uri), and the
// argument's typed value, redacted as arguments are.
func (s *Server) auditCompletion(ctx context.Context, st *state, req *mcp.Request, p *mcp.CompleteParams, arg *table.Arg, start time.Time, err error) {
	r := s.auditRecord(ctx, st, req, start, withoutInputRequest(err))
	if p.Ref.Type == "ref/resource" {
		r.URI = redactText(p.Ref.URI, st.secrets)
	} else {
		r.Tool = p.Ref.Name
	}
	value := redactText(p.Argument.Value, st.secrets)
	if arg.Sensitive {
		value = rule.Redacted
	}
	r.Arguments, _ = json.Marshal(map[string]string{p.Argument.Name: value})
	if r.Outcome == "" {
		r.Outcome = OutcomeOK
	}
	st.hooks.audit.Write(r)
}
