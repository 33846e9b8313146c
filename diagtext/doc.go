// Package diagtext renders the diagnostics of a configuration for people
// and tools: compiler-like text with source snippets (WriteText), a JSON
// report (WriteJSON), GitHub workflow annotations (WriteGitHub) and SARIF
// 2.1.0 (WriteSARIF); it also orders (Sort), counts (Count) and dedupes
// (Dedupe) them.
//
// It imports hcl, lint (for the codes and rules of lint findings) and the
// leaf internal/english; nothing that compiles or serves a configuration.
package diagtext
