// Package lang reads mcpdecl configuration files (HCL native syntax or the HCL
// JSON syntax) and decodes them into an intermediate representation: a
// [Config] holding the server description, variables, locals, backends,
// tools, resources, resource templates and prompts.
//
// It is the first stage of the pipeline
//
//	files ─lang.Load─▶ *lang.Config ─table.Compile─▶ *table.Table ─dispatch─▶ results ─server─▶ wire
//
// lang checks structure only: block and attribute names, labels, argument
// type expressions, name rules and duplicates. It records every expression
// unevaluated (as *hcl.Attribute) together with its source range, so that
// later stages (package table, with package eval and the adapters) can
// type-check and evaluate them and still point at the exact column.
//
// lang reads only the files it is given and imports no adapter code: the
// three call kinds (http, sql, shell) are part of the language, the code that
// runs them is not.
package lang
