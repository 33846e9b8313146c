package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/mcpdecl/mcpdecl/auth"
	"github.com/mcpdecl/mcpdecl/internal/rule"
	"github.com/mcpdecl/mcpdecl/mcp"
	"github.com/mcpdecl/mcpdecl/observe/audit"
	"github.com/mcpdecl/mcpdecl/observe/logs"
	"github.com/mcpdecl/mcpdecl/table"
)

// viaMeta marks a call made through the meta-tool call_tool.
type viaMeta struct{}

// callToolHooked is CallTool with limits and the audit record.
func (s *Server) callToolHooked(ctx context.Context, st *state, req *mcp.Request, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	h := st.hooks
	start := time.Now()
	o := s.observe(KindTool)
	if o.watched() {
		o.name = toolName(st.table, p.Name)
		ctx = o.trace(ctx, req)
	}
	var (
		res      *mcp.CallToolResult
		timedOut bool
		err      error
		refused  *refusal
	)
	if len(h.limits) > 0 && st.table.Tool(p.Name) != nil {
		refused = s.take(ctx, h, req, p.Name)
	}
	if refused != nil {
		res = refused.result()
	} else {
		res, timedOut, err = s.callTool(ctx, st, req, p)
	}
	if o.watched() {
		o.end(ctx, st, err, res != nil && res.IsError, timedOut)
	}
	if h.audit != nil {
		r := s.auditRecord(ctx, st, req, start, err)
		r.Tool = toolName(st.table, p.Name)
		if via, _ := ctx.Value(viaMeta{}).(string); via != "" {
			r.Via = via
		}
		r.Arguments = auditArgs(st, st.table.Tool(p.Name), p.Arguments)
		switch {
		case refused != nil:
			r.Outcome, r.Limit = "refused", refused.limit.Name
		case err == nil:
			r.Outcome = outcomeOf(ctx, nil, res.IsError, timedOut)
			if res.Task != nil {
				r.TaskID, r.Outcome = res.Task.TaskID, "task_created"
			}
		}
		h.audit.Write(r)
	}
	return res, err
}

// auditRecord is the record of a call as far as every kind shares it:
// who, when, how long, and how it ended when it failed.
func (s *Server) auditRecord(ctx context.Context, st *state, req *mcp.Request, start time.Time, err error) *audit.Record {
	r := &audit.Record{Time: start, Method: req.Method, Duration: time.Since(start), RequestID: logs.RequestID(ctx),
		Protocol: req.ProtocolVersion, Principal: redactText(s.principal(ctx, req), st.secrets)}
	if id := auth.FromContext(ctx); id != nil {
		r.Subject = id.Subject
		r.Client, _ = id.Claims["client_id"].(string)
		if r.Client == "" {
			r.Client, _ = id.Claims["azp"].(string)
		}
	}
	if err != nil {
		r.Outcome = outcomeOf(ctx, err, false, false)
		var pe *mcp.Error
		if errors.As(st.protocolError(err), &pe) {
			r.Code = pe.Code
		}
	}
	return r
}

// auditCall writes the record of a resources/read or prompts/get.
func (s *Server) auditCall(ctx context.Context, st *state, req *mcp.Request, start time.Time, name, uri string, args json.RawMessage, err error) {
	r := s.auditRecord(ctx, st, req, start, withoutInputRequest(err))
	r.Tool, r.URI, r.Arguments = name, redactText(uri, st.secrets), args
	if r.Outcome == "" {
		r.Outcome = OutcomeOK
	}
	st.hooks.audit.Write(r)
}

// auditTask writes the record of a task's cancellation.
func (s *Server) auditTask(ctx context.Context, req *mcp.Request, id string, err error, start time.Time) {
	st := s.state.Load()
	if st.hooks == nil || st.hooks.audit == nil {
		return
	}
	r := s.auditRecord(ctx, st, req, start, err)
	r.TaskID = id
	if r.Outcome == "" {
		r.Outcome = OutcomeOK
	}
	st.hooks.audit.Write(r)
}

// auditArgs are a call's arguments as the audit trail keeps them: the
// values of sensitive arguments replaced by the redaction marker, and the
// server's secrets (sensitive variables) and bearer credentials replaced
// wherever they appear, as in the log.
func auditArgs(st *state, tool *table.Tool, raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	sensitive := tool != nil && hasSensitive(tool)
	if !sensitive && bytes.IndexByte(raw, '\\') < 0 && !mentions(string(raw), st.secrets) {
		// Without escapes, the text shows every string as written: a
		// secret or a bearer credential would be found in it.
		return raw
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return json.RawMessage(`"` + rule.Redacted + `"`)
	}
	if obj, ok := v.(map[string]any); ok && tool != nil {
		for _, a := range tool.Args.List {
			if _, present := obj[a.Name]; present && a.Sensitive {
				obj[a.Name] = rule.Redacted
			}
		}
	}
	v = redactValue(v, st.secrets)
	out, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`"` + rule.Redacted + `"`)
	}
	return out
}

func hasSensitive(t *table.Tool) bool {
	if t.Args == nil {
		return false
	}
	for _, a := range t.Args.List {
		if a.Sensitive {
			return true
		}
	}
	return false
}

// mentions reports a secret or a bearer credential in s.
func mentions(s string, secrets []string) bool {
	if hasBearer(s) {
		return true
	}
	for _, sec := range secrets {
		if len(sec) >= rule.MinSecretLen && strings.Contains(s, sec) {
			return true
		}
	}
	return false
}

func redactValue(v any, secrets []string) any {
	switch x := v.(type) {
	case string:
		return redactText(x, secrets)
	case map[string]any:
		for k, e := range x {
			x[k] = redactValue(e, secrets)
		}
	case []any:
		for i, e := range x {
			x[i] = redactValue(e, secrets)
		}
	}
	return v
}

func redactText(s string, secrets []string) string {
	return redactBearer(rule.Redact(s, secrets))
}

// auditStart is when a call starts, when it is audited.
func auditStart(st *state) time.Time {
	if st.hooks == nil || st.hooks.audit == nil {
		return time.Time{}
	}
	return time.Now()
}

// auditPromptArgs are a prompt's arguments as the trail keeps them,
// redacted as auditArgs does.
func auditPromptArgs(st *state, name string, args map[string]string) json.RawMessage {
	if len(args) == 0 {
		return nil
	}
	sensitive := map[string]bool{}
	if p := st.table.Prompt(name); p != nil && p.Args != nil {
		for _, a := range p.Args.List {
			sensitive[a.Name] = a.Sensitive
		}
	}
	out := make(map[string]any, len(args))
	for k, v := range args {
		if sensitive[k] {
			out[k] = rule.Redacted
			continue
		}
		out[k] = redactText(v, st.secrets)
	}
	b, _ := json.Marshal(out)
	return b
}

// auditMeta writes the record of a tools/call the view answers itself: a
// meta-tool's, or that of a name outside the view (label unknownName).
func (s *Server) auditMeta(ctx context.Context, st *state, req *mcp.Request, start time.Time, label string, res *mcp.CallToolResult, err error) {
	r := s.auditRecord(ctx, st, req, start, err)
	r.Tool = label
	if err == nil {
		r.Outcome = outcomeOf(ctx, nil, res != nil && res.IsError, false)
	}
	st.hooks.audit.Write(r)
}
