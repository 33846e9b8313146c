// Package rule holds the small rules that every layer of mcpdecl must apply
// the same way, so that a user meets one behaviour wherever a message or a
// value comes from:
//
//   - "Did you mean": which known name a misspelt one is offered
//     ([Closest], [DidYouMean]);
//   - redaction: what stands where a secret would have been written, and
//     how secrets that hold one another are replaced ([Redacted], [Redact]);
//   - numbers: when a JSON number's text is kept as its digits rather than
//     read into an int or a float64 ([Int], [ExactFloat], [Number]).
//
// Each rule was once written in several packages, and the copies drifted
// apart (a suggestion that depended on letter case in one layer and not
// in another, two markers for a redacted value, a default number rounded
// where an argument was kept exact). The package is a leaf: it imports the
// standard library and the Levenshtein distance only, so the compiler, the
// evaluator, the adapters, the JSON decoder and the server can all use it.
package rule
