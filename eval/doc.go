// Package eval evaluates the two expression languages of mcpdecl.
//
// HCL expressions build calls (URLs, query values, SQL parameters, argv):
// [Scope] makes the evaluation context (args, var, local and the curated
// function table of [Functions]); [CheckRefs] checks every reference before
// anything is evaluated; [Parts] splits a template into literal text and
// interpolations so that each interpolation can be escaped or bound on its
// own.
//
// expr-lang programs look at answers (`when`, `result`, the {{ ... }} pieces
// of a message): [CompileProgram] and [CompileTemplate] compile them once
// against a typed environment and map every compile error to the exact
// column inside the .hcl string. Exact numbers (json.Number) pass through
// them untouched and are converted only where a program computes
// ([NumberOf], exprlang_numbers.go).
//
// eval depends on hcl, cty and expr only; packages table and dispatch and
// the adapters use it.
package eval
