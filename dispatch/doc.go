// Package dispatch compiles a decoded configuration ([lang.Config]) into an
// immutable dispatch [Table]: every tool, resource, resource template and
// prompt with its JSON Schema, compiled expressions and adapter action.
//
//	*lang.Config ─dispatch.Compile(reg)─▶ *dispatch.Table ─server─▶ wire
//
// Compile evaluates variables and locals, checks every reference and type
// (HCL expressions by evaluating them with unknown arguments; expr-lang
// programs against a typed environment), hands call blocks to the adapters
// of an [adapter.Registry], and collects every diagnostic in one run. It
// performs no I/O on any backend: `mcpdecl validate` stops here.
//
// [Inspect] is what `mcpdecl inspect` prints of a table: its listing with
// the steps, scopes and identity use of each primitive, and the auth
// block without its secrets.
//
// It imports lang, eval, adapter, auth and the leaves under internal/;
// never the protocol, the server or the command line.
package dispatch
