// Package lint holds the quality checks `mcpdecl validate` runs on a
// configuration that compiles: descriptions a model can choose by, names
// it reads well, the size of the tool listing, annotations that match
// what calls do, and declarations nothing uses. Each finding is a warning
// with a stable code (see [Rules]); a `lint { ignore = [...] }` block in
// the block concerned, or in the server block, turns codes off.
//
// [Rules] also lists the codes of the diagnostics that are not findings,
// which cannot be turned off: the validator's own (MCPD001 to MCPD003)
// and the classes of errors (MCPD010 to MCPD020, from internal/diagcode);
// [CodeOf] gives every diagnostic its code.
//
// The checks read the configuration ([lang.Config]) for positions and the
// compiled table ([table.Table]) for values, so they judge what the
// server would list and run, not the source text.
//
// CheckOnline is `mcpdecl check`'s step after them: it opens the backends
// and asks each call that can be checked ([adapter.Checker]) to check
// itself against its backend, without running it.
//
// It imports lang, dispatch, adapter, eval and the leaves under internal/;
// never an adapter implementation (adapters/*), the protocol or the
// server.
package lint
