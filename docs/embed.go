// Package docs holds the project's documentation. It is a Go package only
// so that the language reference can be embedded in the binary: package
// langref reads the text of every block and attribute from language.md,
// so the editor's hover and the documentation cannot say different things.
package docs

import _ "embed"

// Language is docs/language.md, the reference of the configuration
// language.
//
//go:embed language.md
var Language string
