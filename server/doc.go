// Package server serves a compiled configuration: it implements
// [mcp.Handler] over a [dispatch.Table].
//
//	*dispatch.Table ─server.New─▶ *server.Server (mcp.Handler) ─mcp─▶ wire
//
// For each call it validates the arguments against the compiled JSON
// Schema (all violations at once), converts them to the declared types,
// checks the validation blocks, invokes the adapter action under the call's
// deadline, and maps the answer through the error rules and the result
// block. It is the only package that sees both the protocol and the
// dispatch table.
//
// It also owns the lifecycle of served tables: [Open] opens a table's
// backends and serves it, [Server.Reload] opens the next table's and swaps
// it in atomically, and a replaced table's backends are closed when the
// last call that started on it ends (each table is reference counted by
// its calls in flight); [Server.Close] retires the last one.
// [Server.Swap] replaces the table without touching backends.
package server
