// Package server serves a compiled configuration: it implements
// [mcp.Handler] over a [table.Table].
//
//	*table.Table ─server.New─▶ *server.Server (mcp.Handler) ─mcp─▶ wire
//
// For each call it turns the request into a [dispatch.CallInput] and has
// package dispatch run it on the table (dispatch.CallTool and the others):
// dispatch validates the arguments against the compiled JSON Schema (all
// violations at once), converts them to the declared types, checks the
// validation blocks, invokes the adapter action under the call's deadline,
// and maps the answer through the error rules and the result block. The
// server turns what comes back into protocol results; it is the glue
// between the protocol and the compiled table, and the task runner
// (package tasks) is the only other package that sees both.
//
// A call of a tool with a task block that becomes a task goes to the
// runner ([tasks.Runner], built from the task fields of [Options]),
// which the server holds behind a small interface of its own (taskRunner:
// Start, the tasks/* methods, Drain): the server hands it the call as a
// [tasks.Call] (run it on this generation's table, ask its questions,
// shape its result) and forwards tasks/get, tasks/list, tasks/cancel,
// tasks/update, tasks/result and task watches to it.
//
// It also owns the lifecycle of served tables: [Open] opens a table's
// backends and serves it, [Server.Reload] opens the next table's and swaps
// it in atomically, and a replaced table's backends are closed when the
// last call that started on it ends (each table is reference counted by
// its calls in flight); [Server.Close] retires the last one.
// [Server.Swap] replaces the table without touching backends.
//
// Of mcpdecl it imports table, dispatch, mcp, auth (the token checks of a
// generation's auth block), tasks and internal/rule only
// (internal/arch checks it).
package server
