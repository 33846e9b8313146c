// Package dispatch is the interpreter of calls on a compiled [table.Table]:
// a tools/call, resources/read, prompts/get or completion/complete is
// decoded, checked, run and mapped here, so that a call can be made and
// tested without the protocol.
//
//	*lang.Config ─table.Compile─▶ *table.Table ─dispatch─▶ results ─server─▶ wire
//
// Every entry point is a function that takes the context, then the table,
// then what the call names and its [CallInput]:
//
//	dispatch.CallTool(ctx, tbl, name, in)                      → *ToolResult
//	dispatch.ReadResource(ctx, tbl, uri, in)                   → []Contents
//	dispatch.GetPrompt(ctx, tbl, name, arguments, in)          → *PromptResult
//	dispatch.Complete(ctx, tbl, refType, name, arg, typed, in) → []string
//
// The table is only read: one table serves any number of calls at once.
// dispatch owns the call-time types (CallInput, ToolResult, Block,
// Contents, PromptResult, CallError, Asking, AskFailure, the backend
// observer hooks and the per-call secrets of WithCallSecrets); what a
// configuration declares stays in package table.
//
// dispatch may import table, adapter, auth, eval, lang and the internal
// leaf packages; it must not import the adapters, mcp, server or cmd. The
// server turns what comes back into protocol messages.
package dispatch
