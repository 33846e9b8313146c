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
// server turns what comes back into protocol results; it is the only
// package that sees both the protocol and the compiled table.
//
// It also owns the lifecycle of served tables: [Open] opens a table's
// backends and serves it, [Server.Reload] opens the next table's and swaps
// it in atomically, and a replaced table's backends are closed when the
// last call that started on it ends (each table is reference counted by
// its calls in flight); [Server.Close] retires the last one.
// [Server.Swap] replaces the table without touching backends.
package server
