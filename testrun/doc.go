// Package testrun runs calls on a compiled table without the MCP protocol
// and shows their results exactly as a client would receive them; it is
// the runtime of `mcpdecl call` and of the `test` blocks that
// `mcpdecl test` runs (expectations, HTTP mocks and recordings, SQLite
// fixtures). A [Request] is a call as the command line names it, checked
// against the table into a [Target]; [CheckPath] checks the test blocks of
// a configuration as `mcpdecl validate` does. Tests compile with a
// [Placeholder] for each env() whose variable is not set, and refuse to
// let a request or a database connection carry one to a real server.
//
// It imports server (its result conversions), dispatch, lang, adapters/all
// and the adapters it stands in for (http, sql); never serving or the
// command line.
package testrun
