// Package table compiles a decoded configuration ([lang.Config]) into an
// immutable [Table]: every tool, resource, resource template and prompt
// with its JSON Schema, compiled expressions and adapter action. The table
// is what a configuration IS; package dispatch runs calls on it (what a
// call DOES), and the server puts the results on the wire:
//
//	*lang.Config ─table.Compile(reg)─▶ *table.Table ─dispatch─▶ results ─server─▶ wire
//
// [Compile] evaluates variables and locals, checks every reference and
// type (HCL expressions by evaluating them with unknown arguments;
// expr-lang programs against a typed environment), hands call blocks to
// the adapters of an [adapter.Registry], and collects every diagnostic in
// one run. It performs no I/O on any backend: `mcpdecl validate` stops
// here.
//
// Besides the compiled items and their compiler, the table owns what
// follows from the configuration alone: lookup by name or URI
// ([Table.Tool], [Table.MatchTemplate], ...), the listings ([Table.Listing]),
// the app pages' Content Security Policy ([InjectCSP]), the validators of
// arguments and output schemas ([Args.Validate], [Tool.ValidateOutput]),
// and the opening and closing of its backends ([Table.OpenBackends],
// [Table.CloseBackends]), and what `mcpdecl inspect` prints of it
// ([Inspect]: the listing with the steps, scopes and identity use of each
// primitive, the auth block without its secrets; [AppCount]).
//
// table may import adapter, auth, eval, lang and the internal leaf
// packages (internal/fastschema, internal/rule, ...); it must not import
// dispatch, the adapters, mcp, server or cmd.
package table
