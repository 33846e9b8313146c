package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// notes reads files named by a caller, with the path built in one
// string: the security error that file("notes", ...) mends.
const notes = `server {
  name    = "notes"
  version = "1.0.0"
}

resource_template "note" {
  uri_template = "notes://{name}"
  description  = "One note, by name."
  text         = file("notes/${args.name}")
}

prompt "discuss" {
  description = "Discuss one stored note with the user."
  arg "name" {
    description = "The note."
  }
  message "user" {
    text = "Read this: ${file("notes/${args.name}")}"
  }
}
`

func TestFilePathFromTheArgumentsFix(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := startClient(t, newServer())
	c.initialize()
	uri := c.open(filepath.Join(dir, "n.hcl"), notes)
	diags := c.diagnosticsFor(uri, func(d []Diagnostic) bool { return len(d) > 0 })
	if len(diags) != 2 || !strings.HasPrefix(diags[0].Message, "File path from the arguments") {
		t.Fatalf("want two unconfined file() errors, got %+v", diags)
	}
	fixed := notes
	for _, d := range diags {
		var actions []codeAction
		c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
			"range": d.Range, "context": map[string]any{"diagnostics": []Diagnostic{d}}}, &actions)
		if len(actions) != 1 || actions[0].Title != `Name the folder and the file apart: "notes", args.name` {
			t.Fatalf("actions for %s: %+v", d.Message, actions)
		}
		// The edits do not overlap: each is applied to the text as sent.
		fixed = applyEdits(t, fixed, actions[0].Edit.Changes[uri])
	}
	want := strings.ReplaceAll(notes, `file("notes/${args.name}")`, `file("notes", args.name)`)
	if fixed != want {
		t.Fatalf("fixed:\n%s\nwant:\n%s", fixed, want)
	}
	c.change(uri, 2, contentChange{Text: fixed})
	c.diagnosticsFor(uri, func(d []Diagnostic) bool { return len(d) == 0 })
}
