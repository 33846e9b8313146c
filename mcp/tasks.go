package mcp

import (
	"context"
	"encoding/json"
	"strconv"
	"time"
)

// Tasks: a tools/call may answer with a task instead of its result, and
// the client polls it. Two wire forms exist:
//
//   - 2026-07-28, the extension io.modelcontextprotocol/tasks: advertised
//     in discover's capabilities.extensions, declared by the client per
//     request; tasks/get (the result or error inlined), tasks/update
//     (answers to the task's questions) and tasks/cancel; the server
//     decides which calls become tasks.
//   - 2025-11-25 (experimental there): capability tasks, tool
//     execution.taskSupport, a params.task on tools/call asks for a task;
//     tasks/get, tasks/result (waits for the end), tasks/list and
//     tasks/cancel.
//
// Handlers stay era-neutral: a CallToolResult with Task set is shaped as
// each era's CreateTaskResult, and a TaskHandler answers the tasks/*
// methods with Task values.

// ExtensionTasks is the 2026-07-28 tasks extension's identifier.
const ExtensionTasks = "io.modelcontextprotocol/tasks"

// MetaRelatedTask names the task a 2025-11-25 message belongs to.
const MetaRelatedTask = "io.modelcontextprotocol/related-task"

// Task statuses.
const (
	TaskWorking       = "working"
	TaskInputRequired = "input_required"
	TaskCompleted     = "completed"
	TaskFailed        = "failed"
	TaskCancelled     = "cancelled"
)

// Task is a task as a client sees it.
type Task struct {
	TaskID        string
	Status        string
	StatusMessage string
	CreatedAt     time.Time
	LastUpdatedAt time.Time
	// TTL is how long the task is kept from its creation; zero means no
	// limit. PollInterval is the suggested time between polls (zero: none).
	TTL          time.Duration
	PollInterval time.Duration

	// Result is the encoded result of a completed task (EncodeToolResult);
	// Error the encoded JSON-RPC error object of a failed one
	// (EncodeError); InputRequests the questions an input_required task
	// waits on.
	Result        json.RawMessage
	Error         json.RawMessage
	InputRequests map[string]InputRequest

	// Tool is the configured name of the tool the task runs, for the
	// server's own records (the audit trail); it is never sent.
	Tool string
}

// TaskHandler is an optional Handler extension serving the tasks/*
// methods. Unknown ids, and tasks of another owner, are InvalidParams.
type TaskHandler interface {
	// GetTask returns the task as it is now.
	GetTask(ctx context.Context, req *Request, id string) (*Task, error)
	// UpdateTask delivers answers (a JSON object keyed like the task's
	// inputRequests); unknown or already answered keys are ignored.
	UpdateTask(ctx context.Context, req *Request, id string, inputResponses json.RawMessage) error
	// CancelTask asks the task to stop and returns it as it is then.
	CancelTask(ctx context.Context, req *Request, id string) (*Task, error)
	// ListTasks returns one page of the requester's tasks (2025-11-25).
	ListTasks(ctx context.Context, req *Request, cursor string) ([]Task, string, error)
	// AwaitTask returns the task once it has ended (2025-11-25
	// tasks/result), or ctx's error.
	AwaitTask(ctx context.Context, req *Request, id string) (*Task, error)
}

// TaskRequest is what a 2025-11-25 client asked for with params.task.
type TaskRequest struct {
	TTL time.Duration // zero when the client named none
}

func hasTasksExtension(c *ServerCapabilities) bool {
	_, ok := c.Extensions[ExtensionTasks]
	return ok
}

func hasLegacyTasks(c *ServerCapabilities) bool { return len(c.Tasks) > 0 }

// DeclaresTasks reports whether a request may be answered with a task:
// a 2026-07-28 request that declares the extension, or a 2025-11-25 one
// that asks for a task with params.task.
func (r *Request) DeclaresTasks() bool {
	if r.Era == EraModern {
		_, ok := r.ClientCapabilities.Extensions[ExtensionTasks]
		return ok
	}
	return false
}

// MissingTasksExtension is the -32021 for a call that must run as a task
// from a client that did not declare the tasks extension.
func MissingTasksExtension() *Error {
	return MissingClientCapability(ClientCapabilities{Extensions: map[string]json.RawMessage{ExtensionTasks: json.RawMessage("{}")}})
}

// needsTasksExtension is ladder step 11 for the modern tasks/* methods.
func needsTasksExtension(r *Request, _ *params) *Error {
	if r.Era != EraModern || r.DeclaresTasks() {
		return nil
	}
	e := MissingTasksExtension()
	e.ladder = true
	return e
}

// EncodeToolResult encodes a tool result as the request's era would get
// it from tools/call, for keeping as a task's result.
func EncodeToolResult(req *Request, r *CallToolResult) (json.RawMessage, error) {
	out := *r
	out.Content = shapeContent(out.Content, req)
	if req.Era == EraLegacy {
		out.StructuredContent = legacyStructured(&out, req.ProtocolVersion)
	}
	b, err := out.appendJSON(make([]byte, 0, 256))
	if err != nil {
		return nil, err
	}
	if req.Era == EraModern {
		b = splice(b, []byte(`"resultType":"complete"`))
	}
	if len(r.Meta) > 0 {
		b = splice(b, field("_meta", r.Meta))
	}
	return b, nil
}

// EncodeError encodes a JSON-RPC error object as the request's era would
// get it, for keeping as a failed task's error.
func EncodeError(req *Request, err error) json.RawMessage {
	return shapeError(asError(err), req.Era).wire()
}

func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// appendTask writes a task's fields (no braces) in the era's names:
// ttlMs/pollIntervalMs for 2026-07-28, ttl/pollInterval for 2025-11-25.
func appendTask(b []byte, t *Task, era Era) []byte {
	b = append(b, `"taskId":`...)
	b = strconv.AppendQuote(b, t.TaskID)
	b = append(b, `,"status":`...)
	b = strconv.AppendQuote(b, t.Status)
	if t.StatusMessage != "" {
		msg, _ := json.Marshal(t.StatusMessage)
		b = append(b, `,"statusMessage":`...)
		b = append(b, msg...)
	}
	b = append(b, `,"createdAt":"`...)
	b = append(b, isoTime(t.CreatedAt)...)
	b = append(b, `","lastUpdatedAt":"`...)
	b = append(b, isoTime(t.LastUpdatedAt)...)
	b = append(b, '"')
	ttl, poll := `,"ttlMs":`, `,"pollIntervalMs":`
	if era == EraLegacy {
		ttl, poll = `,"ttl":`, `,"pollInterval":`
	}
	b = append(b, ttl...)
	if t.TTL > 0 {
		b = strconv.AppendInt(b, max(t.TTL.Milliseconds(), 1), 10)
	} else {
		b = append(b, "null"...)
	}
	if t.PollInterval > 0 {
		b = append(b, poll...)
		b = strconv.AppendInt(b, max(t.PollInterval.Milliseconds(), 1), 10)
	}
	return b
}

// taskObject is the Task alone, as a JSON object.
func taskObject(t *Task, era Era) []byte {
	b := append(make([]byte, 0, 256), '{')
	return append(appendTask(b, t, era), '}')
}

// createTaskResult shapes a tools/call answered with a task: modern, the
// flat Result & Task with resultType "task"; 2025-11-25, {task: Task}.
func (c *call) createTaskResult(t *Task) ([]byte, *Error) {
	if c.req.Era == EraModern {
		b := append(make([]byte, 0, 320), `{"resultType":"task",`...)
		b = appendTask(b, t, EraModern)
		b = append(b, `,"_meta":`...)
		b = append(b, c.s.serverMeta(c.info)...)
		return append(b, '}'), nil
	}
	b := append(make([]byte, 0, 256), `{"task":`...)
	b = append(b, taskObject(t, EraLegacy)...)
	return append(b, '}'), nil
}

// detailedTask is tasks/get's answer: modern, the task with its result,
// error or questions inlined and resultType "complete"; 2025-11-25, the
// task alone.
func (c *call) detailedTask(t *Task) ([]byte, *Error) {
	if c.req.Era != EraModern {
		return taskObject(t, EraLegacy), nil
	}
	b := append(make([]byte, 0, 512+len(t.Result)), `{"resultType":"complete",`...)
	b, err := appendDetailedTask(b, t)
	if err != nil {
		return nil, Errorf(CodeInternalError, "encoding input requests: %v", err)
	}
	b = append(b, `,"_meta":`...)
	b = append(b, c.s.serverMeta(c.info)...)
	return append(b, '}'), nil
}

// appendDetailedTask writes a modern task's fields with its result, error
// or questions (no braces).
func appendDetailedTask(b []byte, t *Task) ([]byte, error) {
	b = appendTask(b, t, EraModern)
	switch {
	case t.Status == TaskCompleted && len(t.Result) > 0:
		b = append(b, `,"result":`...)
		b = append(b, t.Result...)
	case t.Status == TaskFailed && len(t.Error) > 0:
		b = append(b, `,"error":`...)
		b = append(b, t.Error...)
	case t.Status == TaskInputRequired && len(t.InputRequests) > 0:
		reqs, err := json.Marshal(t.InputRequests)
		if err != nil {
			return nil, err
		}
		b = append(b, `,"inputRequests":`...)
		b = append(b, reqs...)
	}
	return b, nil
}

func (c *call) taskHandler() (TaskHandler, *Error) {
	th, ok := c.s.h.(TaskHandler)
	if !ok {
		return nil, Errorf(CodeMethodNotFound, "method not found: %s", c.req.Method)
	}
	if c.p.TaskID == "" {
		return nil, InvalidParams("missing taskId")
	}
	return th, nil
}

func runGetTask(ctx context.Context, c *call) ([]byte, *Error) {
	th, e := c.taskHandler()
	if e != nil {
		return nil, e
	}
	t, err := th.GetTask(ctx, c.req, c.p.TaskID)
	if err != nil {
		return nil, asError(err)
	}
	return c.detailedTask(t)
}

func runUpdateTask(ctx context.Context, c *call) ([]byte, *Error) {
	th, e := c.taskHandler()
	if e != nil {
		return nil, e
	}
	ir := json.RawMessage(c.p.InputResponses)
	if len(ir) == 0 || firstByte(ir) != '{' {
		return nil, InvalidParams("inputResponses must be an object keyed like the task's inputRequests")
	}
	if err := th.UpdateTask(ctx, c.req, c.p.TaskID, ir); err != nil {
		return nil, asError(err)
	}
	return c.result(struct{}{}, false, nil, nil)
}

func runCancelTask(ctx context.Context, c *call) ([]byte, *Error) {
	th, e := c.taskHandler()
	if e != nil {
		return nil, e
	}
	t, err := th.CancelTask(ctx, c.req, c.p.TaskID)
	if err != nil {
		return nil, asError(err)
	}
	if c.req.Era == EraModern {
		return c.result(struct{}{}, false, nil, nil)
	}
	return taskObject(t, EraLegacy), nil
}

// runTaskResult is 2025-11-25's tasks/result: it waits for the task to
// end, then answers as the tools/call would have, with the task named in
// _meta.
func runTaskResult(ctx context.Context, c *call) ([]byte, *Error) {
	th, e := c.taskHandler()
	if e != nil {
		return nil, e
	}
	t, err := th.AwaitTask(ctx, c.req, c.p.TaskID)
	if err != nil {
		return nil, asError(err)
	}
	related := []byte(`{"` + MetaRelatedTask + `":{"taskId":` + strconv.Quote(t.TaskID) + `}}`)
	switch t.Status {
	case TaskCompleted:
		return splice(t.Result, field("_meta", related)), nil
	case TaskFailed:
		var wire Error
		if json.Unmarshal(t.Error, &wire) != nil || wire.Code == 0 {
			wire = Error{Code: CodeInternalError, Message: "the task failed"}
		}
		return nil, &wire
	}
	return nil, InvalidParams("task %s was cancelled and has no result", t.TaskID)
}

func runListTasks(ctx context.Context, c *call) ([]byte, *Error) {
	th, ok := c.s.h.(TaskHandler)
	if !ok {
		return nil, Errorf(CodeMethodNotFound, "method not found: tasks/list")
	}
	cur := ""
	if c.p.Cursor != nil {
		cur = *c.p.Cursor
	}
	tasks, next, err := th.ListTasks(ctx, c.req, cur)
	if err != nil {
		return nil, asError(err)
	}
	b := append(make([]byte, 0, 64+200*len(tasks)), `{"tasks":[`...)
	for i := range tasks {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, taskObject(&tasks[i], EraLegacy)...)
	}
	b = append(b, ']')
	if next != "" {
		b = append(b, `,"nextCursor":`...)
		b = strconv.AppendQuote(b, next)
	}
	return append(b, '}'), nil
}

// legacyTaskCapability is what a 2025-11-25 server that runs tool calls as
// tasks advertises.
var legacyTaskCapability = json.RawMessage(`{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}`)

// TasksCapabilities returns caps advertising tasks in both eras: the
// 2026-07-28 extension and the 2025-11-25 capability.
func TasksCapabilities(caps ServerCapabilities) ServerCapabilities {
	caps = WithExtension(caps, ExtensionTasks)
	caps.Tasks = legacyTaskCapability
	return caps
}

// WithExtension returns caps advertising the 2026-07-28 extension id
// (with no settings); caps itself is not changed. Legacy revisions have
// no extensions map, and do not see it.
func WithExtension(caps ServerCapabilities, id string) ServerCapabilities {
	ext := make(map[string]json.RawMessage, len(caps.Extensions)+1)
	for k, v := range caps.Extensions {
		ext[k] = v
	}
	ext[id] = json.RawMessage("{}")
	caps.Extensions = ext
	return caps
}

// hasTaskMethods gates tasks/get and tasks/cancel, which both eras have.
func hasTaskMethods(c *ServerCapabilities) bool { return hasTasksExtension(c) || hasLegacyTasks(c) }
