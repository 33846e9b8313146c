// Package mcp is mcpdecl's own server side of the Model Context Protocol.
//
// It owns everything between the bytes on the wire and an era-neutral
// [Handler]: the JSON-RPC codec, classification of every message into the
// modern (2026-07-28, stateless) or legacy (2025-03-26, 2025-06-18,
// 2025-11-25, initialize-based) era, the validation ladder, the method table,
// per-era output shaping, pagination, subscriptions/listen and legacy
// list_changed fan-out, and the stdio and Streamable HTTP transports.
//
// The contract it implements is the MCP specification of each revision
// served; comments name the rule they implement in words. The package
// imports only the standard library so that the protocol can be tested and
// reasoned about on its own; the server package adapts a compiled table
// (package table, run by package dispatch) to [Handler].
//
// Construct a [Server] with [NewServer], then serve it with
// [Server.ServeStdio] or mount [Server.HTTPHandler] on an http.Server.
package mcp
