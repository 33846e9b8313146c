// Package lsp is mcpdecl's language server (`mcpdecl lsp`): the Language
// Server Protocol over stdio, for VS Code's extension (editors/vscode)
// and any other editor with an LSP client.
//
// It checks what `mcpdecl validate` checks (lang, table, the test
// blocks, lint) on the editor's unsaved buffers, and answers formatting
// (the bytes of `mcpdecl fmt`), the outline, hover (langref's text, the
// call a step makes, a function's signature), completion (langschema's
// tree, the names of the tool under the cursor, and the functions:
// expr-lang's in programs, eval's in HCL) and code actions for the
// diagnostics that carry a fix. Hover and completion answer in the JSON
// syntax too: the file is read leniently (jsonsyntax.go), as it is while
// being typed, into the native blocks the language tree says its objects
// are, and the native answers are made from them.
//
// The JSON-RPC 2.0 layer is this package's own (jsonrpc.go and the
// dispatch in server.go), a few hundred lines. The Go LSP libraries
// bring what a server over stdio does not need (glsp pulls in
// gorilla/websocket, sourcegraph/jsonrpc2 and the commonlog logging
// framework, for its TCP, WebSocket and Node IPC transports) and hand
// their handlers no context that $/cancelRequest ends. Here every
// request runs on its own goroutine under such a context, while the
// notifications that change documents are applied in the order they
// arrive, so a request always sees the edits sent before it.
//
// Positions: the protocol counts characters in UTF-16 code units, hcl
// in bytes (and columns in characters); every conversion goes through a
// document's text (text.go), so a line holding "é" or an emoji puts a
// diagnostic where the editor shows it.
//
// Definition, references, rename and semantic tokens belong to an index
// of the configuration's names; Server.Index (hooks.go) is where it
// plugs in, and NameIndex (names_index.go, over package langindex) is
// the one `mcpdecl lsp` runs with.
package lsp
