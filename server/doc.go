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
// dispatch table. [Server.Swap] replaces the table atomically on reload.
package server
