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
package table
