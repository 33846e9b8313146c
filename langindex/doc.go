// Package langindex knows where every name of a configuration is declared
// and where it is used, for an editor: go to definition, find references,
// rename, semantic tokens inside expr-lang strings, and the outline.
//
// It works on source text, not on a loaded configuration: the editor hands
// over its buffers (saved or not) as file name -> bytes, and a file that
// does not parse is indexed as far as hcl could read it, so a half-typed
// block does not make the rest of the folder go dark. lang.Load answers
// "is this configuration right"; this package answers "what does this name
// mean here", which must work while it is still wrong.
//
// The names it follows are the language's (docs/language.md): tools,
// resources, resource templates, prompts, apps, toolsets and limits by
// their block labels; backends by call labels (`http "api"`), a shell
// call's backend attribute and a test's mock and sqlite labels; variables
// as var.x, locals as local.x; arguments and steps as args.x and steps.x,
// scoped to their tool, prompt, resource or template, and found inside
// expr-lang programs and `{{ }}` templates too, at their exact byte in
// the file however the string is escaped; apps by `ui { app = "..." }`;
// tools by toolset and limit lists and by test files' `call = tool.x`,
// whose `args = { ... }` keys are the tool's arguments; the auth block's
// scopes by every `scopes = [...]` list, and its claims as
// auth.claims.x and by the `claims` of tokens; the keys of questions
// (elicit, sample, roots) as answers.x and by a test's answers; and
// resources and templates by the URIs that read them (a test's resource,
// a prompt message's resource), which a rename leaves alone.
//
// Positions are hcl.Pos: Line and Column (in characters) and Byte. The
// language server converts them to its protocol's units from Byte, so
// that this package stays free of the protocol, and the protocol package
// stays free of the language.
//
// An Index is immutable, so any number of requests may read it at once.
// With replaces one file's part and shares the others, so an edit in one
// file of a 1,000-tool configuration costs the parse of that file.
package langindex
