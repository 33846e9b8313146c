package lsp

import (
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// confinedCall is the two-argument call the "File path from the
// arguments" error shows: file("notes", args.name). A suggestion with a
// placeholder (<folder>) is the author's to complete and has no fix.
var confinedCall = lazyregexp.New(`as two arguments: (?:file|filebase64)\((.+)\)\. The file is then read only`)

// confinedArguments are the arguments of the call an unconfined file()
// should be, from its diagnostic's detail.
func confinedArguments(d *hcl.Diagnostic) (string, bool) {
	if d.Summary != "File path from the arguments" {
		return "", false
	}
	m := confinedCall.FindStringSubmatch(d.Detail)
	if m == nil || strings.Contains(m[1], "<") {
		return "", false
	}
	return m[1], true
}

// confineFix puts the folder and the name in place of the path, the
// diagnostic's range: file("notes/${args.name}") becomes
// file("notes", args.name). In the JSON syntax the path is inside a JSON
// string, whose quotes the edit would have to escape; it is offered in
// native files only.
func confineFix(doc *document, d Diagnostic) (string, textEdit, bool) {
	if strings.HasSuffix(doc.path, ".json") {
		return "", textEdit{}, false
	}
	start, end := doc.text.offset(d.Range.Start), doc.text.offset(d.Range.End)
	path := doc.text.src[start:end]
	if !strings.HasPrefix(path, `"`) || !strings.HasSuffix(path, `"`) {
		return "", textEdit{}, false
	}
	return "Name the folder and the file apart: " + d.Data.Arguments, textEdit{Range: d.Range, NewText: d.Data.Arguments}, true
}
