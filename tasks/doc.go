// Package tasks runs the calls of tools with a task block as MCP tasks
// and keeps them. It owns both halves:
//
//   - the Runner: it creates a task for a call, runs the call on this
//     replica under a lease, watches the store for a cancellation or the
//     client's answers, bounds the tasks running at once (Options.Max,
//     and Options.MaxPerOwner for one caller), answers the tasks/*
//     methods (tasks/get, tasks/list, tasks/cancel, tasks/update,
//     tasks/result, and the watch of a listening client), follows the
//     store's health (an outage is a few log lines, and -32603 to
//     clients) and drains on shutdown;
//   - the stores: a Store keeps the tasks, private to one process
//     (Memory) or shared by every replica (Redis), with the Limits on the
//     finished tasks kept.
//
// # A task's life
//
// Runner.Start creates the task "working" in the store, owned by the
// caller (a token's issuer and subject, a 2025 session, the stdio
// client, or nobody), and answers the tools/call with it; with ask_first
// (and for 2025 clients) the tool's questions are asked with that
// request first, and the task is created once they are answered. The
// call then runs on a worker of this replica, which renews the task's
// lease a third of its length before it runs out and, once the call has
// run a moment, watches the store's change signals. A question asked
// while it runs turns the task "input_required" with the question as its
// inputRequests; tasks/update, on any replica, stores the answers and the
// running replica takes them. tasks/cancel, on any replica, marks the
// task cancelled, and the running replica stops the call. The call's end
// is stored (completed with its result, failed with its error), and the
// store keeps the task for its TTL (at least MinKeep after it ended),
// within the store's Limits. A task whose replica died is recorded
// failed by the first replica that reads it after its lease ran out
// (Reap). Runner.Drain stops taking tasks, waits for those running, and
// records the ones it had to stop as failed ("server shutting down").
//
// # What it may import
//
// The wire types (mcp), the table's tools and questions (dispatch), and
// internal leaf packages; never server or cmd (internal/arch checks it).
//
// # How the server uses it
//
// The server holds a *Runner behind a small interface of its own: Start
// for a tools/call that becomes a task (Wanted decides which do), the
// tasks/* methods (mcp.TaskHandler and mcp.TaskWatcher), Drain and
// Draining. What the runner needs of the server comes in as values: at
// construction the store, the limits, the Identity of a request's
// caller, an Observer of the tasks' states (metrics) and a logger; with
// each call a Call, through which the server runs the call (on the
// table it started on, with the server's logger, default timeout and
// backend hooks), asks its questions (with the creating request, or a
// round at a time through the task: Post), shapes its end for the
// protocol, and is told when the runner is done with it.
package tasks
