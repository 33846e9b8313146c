// Package testrun runs calls on a compiled table without the MCP protocol
// and shows their results exactly as a client would receive them; it is
// the runtime of `mcpdecl call` and of the `test` blocks that
// `mcpdecl test` runs (expectations, HTTP mocks and recordings, SQLite
// fixtures).
package testrun
