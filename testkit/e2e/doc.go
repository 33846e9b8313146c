// Package e2e holds the end-to-end tests of wrapping REST APIs: the real
// example configurations (examples/library.hcl, examples/calendar.hcl)
// served in process and by the built binary, driven by real MCP clients
// against fake APIs on loopback, with every server message checked
// against the official schemas. The package has no non-test code.
package e2e
